/**
 * End to end: a user adds avatars one after another from the console while demo collects
 * logs. This used to take the whole process down (a bot got another's dig animation before its login).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

const NAMES = Array.from({ length: 8 }, (_, i) => `bot${i + 1}`);

describe('eight avatars added one after another while demo collects', () => {
  let dir: string;
  let m: MindlinkProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-many-'));
    m = startMindlink({ DATA_DIR: dir, LOOP_PACE_MS: '500' });
  });

  afterAll(async () => {
    if (m.child.exitCode === null) {
      m.child.kill('SIGINT');
      await m.exited;
    }
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  /** The line, or a failure as soon as the process dies (the crash this test is about). */
  const line = (re: RegExp, ms?: number): Promise<string> =>
    Promise.race([
      m.line(re, ms),
      m.exited.then((code) => {
        throw new Error(`mindlink exited (code ${code}) while waiting for ${re}.\nstderr (tail):\n${m.stderr.slice(-30).join('\n')}`);
      }),
    ]);

  it('GIVEN demo collecting WHEN 8 avatars are created and played one after another THEN the process lives, all 9 are listed by /avatars and none is stopped', async () => {
    await line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    m.send('Goal: collect 10 oak logs');
    await line(/^\[demo\] New goal from console: collect 10 oak logs\.$/);
    for (const name of NAMES) {
      m.send(`/avatar create ${name}`);
      await line(new RegExp(`^\\[${name}\\] Created ${name} on embedded`));
      m.send(`/play ${name}`);
      await line(new RegExp(`^\\[${name}\\] Playing\\. Choosing my first goal\\.$`));
      // Its first goal comes once it is in the world; it digs too while the next one joins.
      await line(new RegExp(`^\\[${name}\\] New goal \\(my choice\\): `), 120_000);
    }
    // All nine work on together: demo finishes the goal it had during the joins, then one more.
    await line(/^\[demo\] Done: collect 10 oak logs$/, 300_000);
    m.send('demo: Goal: collect 3 oak logs');
    await line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    await line(/^\[demo\] Done: collect 3 oak logs$/, 300_000);
    expect(m.child.exitCode).toBeNull();

    const from = m.lines.length;
    m.send('/avatars');
    await line(/^\[mindlink\] bot8: /);
    const listed = m.lines.slice(from).filter((l) => /^\[mindlink\] (demo|bot\d): /.test(l));
    expect(listed.map((l) => /^\[mindlink\] (\w+): /.exec(l)?.[1]).sort()).toEqual(['demo', ...NAMES].sort());
    for (const l of listed) expect(l).toMatch(/^\[mindlink\] \w+: (choosing|working|wrapup) \(owner console, scripted\)/);
    expect(m.lines.filter((l) => / Stopped: /.test(l))).toEqual([]);
    expect(m.stderr.filter((l) => /uncaught|TypeError/i.test(l))).toEqual([]);
  }, 900_000);
});
