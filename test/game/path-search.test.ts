/**
 * Walking when the path takes the pathfinder several ticks to find (a loaded machine, or many avatars sharing
 * the path budget): each tick hands out the way to the best node so far, and the walk still ends at the goal
 * (src/game/path-budget.ts: the partial path handed out is a copy of the search's nodes).
 */
import { describe, expect, it } from 'vitest';
import { runSkill } from '../../skills/run.ts';
import { PATH_BUDGET_MS } from '../../src/game/path-budget.ts';
import { skillNamed, worldPerFile } from './helpers.ts';

const shared = worldPerFile('path-search');

/** The pathfinder's moves, as far as this test slows them down. */
interface Neighbours {
  getNeighbors(node: unknown): unknown;
}

describe('a path found over several ticks', () => {
  it('GIVEN a pathfinder that searches one node per tick WHEN the avatar goes to a spot 4 blocks off diagonally THEN it arrives there', async () => {
    const { game, bot } = await shared.avatar('slow', 0, 0);
    // Each node takes longer to search than the process's whole path budget of a tick, and the search looks at the
    // clock before each node: one node per tick, whatever the machine's load (the budget sets how long a search
    // thinks, not the pathfinder's own tickTimeout).
    const moves = bot.pathfinder.movements as unknown as Neighbours;
    const neighbours = moves.getNeighbors.bind(moves);
    moves.getNeighbors = (node) => {
      const from = performance.now();
      while (performance.now() - from <= PATH_BUDGET_MS);
      return neighbours(node);
    };
    const paths: string[] = [];
    bot.on('path_update', (r: { status: string; path: Array<{ x: number; z: number }> }) => {
      paths.push(`${r.status} [${r.path.map((n) => `${n.x} ${n.z}`).join(', ')}]`);
    });
    const walked = await runSkill(skillNamed('go_to'), game, { x: 4, y: 64, z: 4 }, new AbortController().signal);
    expect(walked, `${JSON.stringify(walked)}; at ${bot.entity.position}; paths: ${paths.join('; ')}`).toMatchObject({ ok: true, detail: 'arrived at 4 64 4' });
    expect(paths.filter((p) => p.startsWith('partial')).length, paths.join('; ')).toBeGreaterThan(1);
  }, 120_000);
});
