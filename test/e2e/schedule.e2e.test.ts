import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

/** A cron expression (UTC) for a moment `ms` from now (negative: ago); with seconds when `seconds`. */
function cronAt(ms: number, seconds: boolean): string {
  const t = new Date(Date.now() + ms);
  const base = `${t.getUTCMinutes()} ${t.getUTCHours()} * * *`;
  return seconds ? `${t.getUTCSeconds()} ${base}` : base;
}

describe('scheduled goals in the real process, across a restart', () => {
  let dir: string;
  let m: MindlinkProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-schedule-e2e-'));
  });

  afterAll(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a schedule a few seconds ahead (seconds field) THEN the goal is set as the console set it, and Done: follows', async () => {
    m = startMindlink({ DATA_DIR: dir });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    // A cron with a seconds field goes through croner's real timer, without waiting for a whole minute.
    m.send(`/schedule ${cronAt(12_000, true)} collect 1 oak log`);
    await m.line(/^\[demo\] Schedule #1: collect 1 oak log, on \d+ \d+ \d+ \* \* \*\. Next runs \(UTC\): /);
    await m.line(/^\[demo\] New goal from console \(schedule #1\): collect 1 oak log\.$/, 60_000);
    await m.line(/^\[demo\] Done: collect 1 oak log$/, 120_000);
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
    const file = JSON.parse(await readFile(join(dir, 'schedules.json'), 'utf8')) as { schedules: { id: number; lastRun: string | null }[] };
    expect(file.schedules).toMatchObject([{ id: 1, lastRun: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
  }, 240_000);

  it('GIVEN a restart with one run missed 10 minutes ago and one 2 hours ago THEN the first runs once, the second is skipped with a line, and #1 does not run again', async () => {
    // As if mindlink had been down while these came due.
    const path = join(dir, 'schedules.json');
    const file = JSON.parse(await readFile(path, 'utf8')) as { next: number; schedules: unknown[] };
    const made = new Date(Date.now() - 86_400_000).toISOString();
    const schedule = (id: number, cron: string, goal: string): Record<string, unknown> => ({
      id,
      avatar: 'demo',
      cron,
      when: cron,
      goal,
      createdBy: 'console',
      dest: 'console',
      createdAt: made,
      lastRun: null,
    });
    file.schedules.push(schedule(2, cronAt(-10 * 60_000, false), 'say back again'), schedule(3, cronAt(-2 * 3600_000, false), 'say too late'));
    file.next = 4;
    await writeFile(path, JSON.stringify(file, null, 2));

    m = startMindlink({ DATA_DIR: dir });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    await m.line(/^\[demo\] New goal from console \(schedule #2\): say back again\.$/);
    await m.line(/^\[demo\] Schedule #3 skipped its run of \w{3} \d{1,2} \w{3} \d\d:\d\d UTC: mindlink was down, and it is more than an hour late\.$/);
    m.send('/schedules');
    await m.line(/^\[demo\] #3 /);
    expect(m.lines.filter((l) => l.includes('(schedule #1)'))).toEqual([]);
    expect(m.lines.filter((l) => l.includes('(schedule #2)'))).toHaveLength(1);
    expect(m.lines).toContainEqual(expect.stringMatching(/^\[demo\] #1 \d+ \d+ \d+ \* \* \* · collect 1 oak log · next \w{3} \d{1,2} \w{3} \d\d:\d\d(:\d\d)? UTC · by console$/));
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
    for (const l of m.lines) expect(l).toMatch(/^\[(demo|mindlink)\] /);
  }, 180_000);
});
