/**
 * The small round of `npm run chaos`, so CI keeps the promises: the real
 * mindlink process, the fake Telegram and an embedded world, killed, faulted
 * and fed bad input. The full run (50 kills, 1,000 inputs, a minute of chat
 * faults, the game faults, which take minutes) is `npm run chaos`; the world
 * restarts are also covered here by test/game/restart-mid-goal and world-supervisor.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeEvidence } from '../../chaos/harness.ts';
import { runChaos, SMALL, type Row } from '../../chaos/run.ts';
import { PG_BIN } from '../postgres-server.ts';

const lines: string[] = [];
const log = (l: string): void => {
  lines.push(l);
};

/** The rows that missed their target, with the scenario's log when any did. */
function misses(rows: Row[]): string[] {
  const failed = rows.filter((r) => r.max !== null && r.value > r.max).map((r) => `${r.figure}: ${r.value} (target ≤ ${r.max})`);
  if (failed.length > 0) failed.push(...lines.slice(-20));
  return failed;
}

describe('chaos, small round (real process, fake Telegram, embedded world)', () => {
  // The secrets check (the last test) reads every data directory the others made; then they go.
  afterAll(removeEvidence);

  it('GIVEN 3 kill -9 at random moments while goals, directions and posts are written THEN nothing acknowledged is lost and nothing is posted twice', async () => {
    const { rows } = await runChaos({ ...SMALL, killRounds: 3, only: ['kill'], log });
    expect(misses(rows)).toEqual([]);
  }, 600_000);

  it.skipIf(!PG_BIN)('GIVEN the store in PostgreSQL (DATABASE_URL, a real server) and 3 kill -9 at random moments THEN nothing acknowledged is lost and nothing is posted twice there either', async () => {
    const { rows } = await runChaos({ ...SMALL, killRounds: 3, only: ['kill'], db: true, log });
    expect(misses(rows)).toEqual([]);
  }, 600_000);

  it('GIVEN 60 generated hostile inputs on the console and Telegram THEN each gets exactly one reply, nothing crashes, leaks, pings or corrupts a store', async () => {
    const { rows } = await runChaos({ ...SMALL, inputs: 60, only: ['input'], log });
    expect(misses(rows)).toEqual([]);
  }, 600_000);

  it('GIVEN Telegram answering 429, 5xx and dropped connections for a while THEN no post is lost or doubled and no send ignores a Retry-After or the rate limits', async () => {
    const { rows } = await runChaos({ ...SMALL, only: ['chat'], log });
    expect(misses(rows)).toEqual([]);
  }, 600_000);

  it('GIVEN all of the above THEN no secret is in any output, file or post, and every data file is its owner\'s only', async () => {
    const { rows } = await runChaos({ ...SMALL, only: ['secrets'], log });
    expect(misses(rows)).toEqual([]);
  });
});
