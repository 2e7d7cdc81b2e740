/**
 * What a service manager does: `npm start --silent` runs mindlink, and SIGTERM goes to the one process npm
 * started (not to the group). That process must be mindlink itself, and each SIGTERM a graceful stop.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rng } from '../../chaos/harness.ts';
import { childrenOf, held, startMindlink, type MindlinkProcess } from './process.ts';

const ROUNDS = 20;

/** The one child of `pid` (the process npm started for the script). */
function onlyChild(pid: number): number {
  const kids = childrenOf(pid);
  if (kids.length !== 1) throw new Error(`npm (pid ${pid}) has ${kids.length} children: ${kids.join(', ')}`);
  return kids[0] as number;
}

describe('SIGTERM to the process npm start runs', () => {
  let dir = '';
  const started: MindlinkProcess[] = [];

  afterEach(async () => {
    for (const m of started) {
      if (m.child.exitCode === null && m.child.signalCode === null) {
        process.kill(-(m.child.pid as number), 'SIGKILL');
        await m.exited;
      }
    }
    started.length = 0;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`GIVEN demo collecting oak logs WHEN SIGTERM goes to npm's child at a random moment after ready, ${ROUNDS} times with a restart each time THEN that child is mindlink, every stop is graceful (its log line, exit 0) and the logs are kept`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-sigterm-'));
    const random = rng(19);
    let atLeast = 0;
    const rounds: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const m = startMindlink({ DATA_DIR: dir }, { detached: true, npm: true });
      started.push(m);
      const spawned = m.logLine(/"msg":"spawned"/, 120_000);
      await m.line(/^\[mindlink\] ready/, 120_000);
      const pid = onlyChild(m.child.pid as number);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      // The launcher runs mindlink's build in its own process (it imports dist/src/main.js): no process in between.
      expect(cmdline.slice(-1), `npm's child (pid ${pid}) runs ${cmdline.join(' ')}`).toEqual(['scripts/start.mjs']);
      expect(cmdline[0]).toMatch(/node$/);

      await spawned;
      let from = m.lines.length;
      m.send('/status');
      const after = held(await m.line(/^\[demo\] inventory: /, 30_000, from), 'oak_log');
      expect(after, `round ${round}: logs after the restart (before it: ${rounds.join('; ')})`).toBeGreaterThanOrEqual(atLeast);
      if (round === 1) {
        // Something to keep: a few logs, then a goal that only ever adds logs. Not dirt: an avatar places dirt to
        // climb out of a hole and the pathfinder builds with it, so a round can rightly end with less; logs are
        // neither placed nor, for a collect goal, crafted.
        m.send('Goal: get 3 oak logs');
        await m.line(/^\[demo\] Done: get 3 oak logs$/, 300_000);
        from = m.lines.length;
        m.send('Goal: collect 2000 oak logs');
        await m.line(/^\[demo\] New goal from console: collect 2000 oak logs\.$/, 30_000, from);
      }

      const moment = Math.floor(random() * 4000);
      await new Promise((r) => setTimeout(r, moment));
      from = m.lines.length;
      m.send('/status');
      atLeast = Math.max(atLeast, held(await m.line(/^\[demo\] inventory: /, 30_000, from), 'oak_log'));
      const stopping = m.logLine(/"msg":"stopping"/, 30_000);
      process.kill(pid, 'SIGTERM');
      const code = await m.exited;
      await stopping;
      rounds.push(`#${round}: ${after} logs at start, ${atLeast} at SIGTERM ${moment} ms later, exit ${code}`);
      expect(code, `round ${round}: npm's exit code (mindlink's); stderr tail:\n${m.stderr.slice(-15).join('\n')}`).toBe(0);
      expect(m.stderr.some((l) => /stopped without saving/.test(l))).toBe(false);
    }
    process.stderr.write(`SIGTERM rounds:\n${rounds.join('\n')}\n`);
    expect(atLeast).toBeGreaterThanOrEqual(3);
  }, 1_800_000);
});
