/**
 * The hybrid engine over an agent engine (`HYBRID_MODEL=pi`) as the production provider builds it: its model
 * turns run the real pi CLI (as `npm run agents:install` puts it in `agents/`) against the fake
 * OpenAI-compatible model, its other turns the scripted engine; the game is the FakeGame with a `collect` skill.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.ts';
import type { Engine } from '../../../src/engines/engine.ts';
import { createEngineProvider } from '../../../src/engines/index.ts';
import { learnedSkills } from '../../../src/learned/learned-skills.ts';
import { SkillLibrary } from '../../../src/learned/library.ts';
import { silentLogger } from '../../../src/logger.ts';
import { TaskFile } from '../../../src/task/task-file.ts';
import { FakeGame, snapshotOf } from '../../fakes/fake-game.ts';
import { givingRegistry, request } from './agent-engine.ts';
import { AGENTS_DIR, fakeModel, suite, type FakeModel } from './agent-helpers.ts';

const s = suite('pi');

describe.skipIf(s.skip)(`the hybrid engine over the ${s.title} engine`, () => {
  let m: FakeModel;
  let data: string;
  let game: FakeGame;
  const engines: Engine[] = [];

  beforeEach(async () => {
    m = await fakeModel('pi');
    data = mkdtempSync(join(tmpdir(), 'mindlink-hybrid-pi-'));
    game = new FakeGame('steve', { snap: snapshotOf() });
  });

  afterEach(async () => {
    for (const e of engines.splice(0)) e.close?.();
    await m.close();
    rmSync(data, { recursive: true, force: true });
  });

  it('GIVEN HYBRID_MODEL=pi and a goal outside the goal language THEN pi plays the turn (collect over MCP, done), handed over pointing at write_skill, which its MCP server offers; once the model refuses, the scripted engine plays on with one line', async () => {
    const config = parseConfig({ DATA_DIR: data, AGENTS_DIR, ENGINE: 'hybrid', HYBRID_MODEL: 'pi', ...m.env });
    const skills = givingRegistry(game);
    const learned = learnedSkills(new SkillLibrary(data, silentLogger()), { avatar: 'steve', game, skills });
    const ctx = { avatar: 'steve', game, log: silentLogger(), skills, task: new TaskFile(join(data, 'avatars', 'steve'), 'steve'), learned };
    const engine = createEngineProvider(config)('hybrid', ctx);
    engines.push(engine);
    expect(engine.name).toBe('hybrid');

    const goal = 'collect 2 oak logs for my friend';
    const reply = await engine.turn(request('continue', goal), new AbortController().signal);
    expect(reply.playedBy).toEqual({ engine: 'pi', model: true });
    expect(reply.report).toMatchObject({ status: 'done', text: 'I have the 2 logs now.' });
    expect(reply.actions).toEqual([{ skill: 'collect', ok: true, code: 'done' }]);
    expect(game.snap.inventory.oak_log).toBe(2);
    const asked = m.texts(1).join('\n');
    expect(asked).toContain("This turn is yours: the goal is outside the scripted engine's language");
    expect(asked).toContain('write_skill can make one that does.');
    expect(m.toolNames(1)).toContain('mindlink_write_skill');

    m.answer('refuse');
    const after = await engine.turn(request('continue', goal), new AbortController().signal);
    expect(after.playedBy).toEqual({ engine: 'scripted', model: false });
    expect(after.notice).toMatch(/^The model provider refused \(.+\), so the scripted engine plays on; I'll ask the model again in 1 hour\.$/);
  });
});
