import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { silentLogger } from '../../src/logger.ts';
import { Scheduler } from '../../src/schedule/scheduler.ts';
import { Store } from '../../src/store/store.ts';
import { RecordingHost, seededStore } from './helpers.ts';
import { keyed } from '../../src/keyed.ts';
import { filesOf } from '../../src/store/files.ts';

const T0 = new Date('2026-12-01T07:59:00Z'); // Tuesday

let dir: string;
let store: Store;
let host: RecordingHost;
const schedulers: Scheduler[] = [];

function scheduler(s = store, h = host): Scheduler {
  const sc = new Scheduler({ store: s, log: silentLogger(), host: h, admins: [] });
  schedulers.push(sc);
  return sc;
}

beforeEach(async () => {
  ({ dir, store } = await seededStore());
  host = new RecordingHost(store);
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});

afterEach(async () => {
  for (const s of schedulers.splice(0)) s.stop();
  vi.useRealTimers();
  await store.flush();
  await rm(dir, { recursive: true, force: true });
});

async function reopen(): Promise<void> {
  await store.flush();
  store = await Store.open(dir);
  host = new RecordingHost(store);
}

describe('scheduled goals under fake time', () => {
  it('GIVEN a daily 08:00 schedule WHEN 08:00 comes THEN the goal is set once as its creator set it, acknowledged, and the run stored', async () => {
    const sc = scheduler();
    await sc.start();
    const added = sc.add({ avatar: 'steve', text: 'every day at 8:00 collect 10 oak logs', by: 'alice', dest: 'telegram:100' });
    expect(added.schedule).toMatchObject({ id: 1, cron: '0 8 * * *', when: 'every day at 08:00', goal: 'collect 10 oak logs', lastRun: null });
    expect(added.zone).toBe('UTC');
    expect(added.defaultZone).toBe(true);
    expect(added.next.map((d) => d.toISOString())).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-02T08:00:00.000Z', '2026-12-03T08:00:00.000Z']);

    await vi.advanceTimersByTimeAsync(59_000);
    expect(host.goalsSet).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    const ack = await host.posted(/New goal/);
    expect(ack).toEqual({ dest: 'telegram:100', avatar: 'steve', text: 'New goal from alice (schedule #1): collect 10 oak logs.' });
    expect(host.goalsSet).toEqual([{ avatar: 'steve', text: 'collect 10 oak logs', personId: 'alice' }]);
    expect(sc.get(1)?.lastRun).toBe('2026-12-01T08:00:00.000Z');
    // Stored on disk before the goal was set.
    const onDisk = await Store.open(dir);
    expect(onDisk.schedules.data.schedules[0]?.lastRun).toBe('2026-12-01T08:00:00.000Z');

    // The rest of the day: nothing more.
    host.setCurrent('steve', 'explore', 'self', null);
    await vi.advanceTimersByTimeAsync(23 * 3600_000);
    expect(host.goalsSet).toHaveLength(1);
    // Next morning: again.
    await vi.advanceTimersByTimeAsync(3600_000);
    await vi.waitUntil(() => host.goalsSet.length === 2);
    expect(sc.get(1)?.lastRun).toBe('2026-12-02T08:00:00.000Z');
  });

  it('GIVEN the avatar is stopped WHEN its schedule runs THEN the run is skipped with one line', async () => {
    const sc = scheduler();
    await sc.start();
    sc.add({ avatar: 'steve', text: 'at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    host.playing.delete('steve');
    await vi.advanceTimersByTimeAsync(61_000);
    const line = await host.posted(/skipped/);
    expect(line.text).toBe("Schedule #1 skipped: I'm stopped. /play steve starts me.");
    expect(host.goalsSet).toEqual([]);
    expect(host.posts).toHaveLength(1);
  });

  it('GIVEN the avatar is on an owner goal WHEN its schedule runs THEN the scheduled goal is parked and the owner goal stays', async () => {
    const sc = scheduler();
    await sc.start();
    sc.add({ avatar: 'steve', text: 'at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    host.setCurrent('steve', 'go to 10 64 10', 'owner', 'alice');
    await vi.advanceTimersByTimeAsync(61_000);
    const line = await host.posted(/parked/);
    expect(line.text).toBe('Schedule #1 parked for later: collect logs. I\'m on an owner goal (go to 10 64 10) and take it up after.');
    expect(host.goalsSet).toEqual([]);
    expect(host.parked).toEqual([{ avatar: 'steve', text: 'collect logs', personId: 'alice', reason: "scheduled while I was on alice's goal" }]);
    expect(store.state.data.avatars[0]?.goal?.text).toBe('go to 10 64 10');
  });

  it('GIVEN the scheduled goal is already parked or already running THEN one line, nothing doubled', async () => {
    const sc = scheduler();
    await sc.start();
    sc.add({ avatar: 'steve', text: 'every hour collect logs', by: 'alice', dest: 'telegram:100' });
    host.setCurrent('steve', 'go to 10 64 10', 'owner', 'alice');
    await vi.advanceTimersByTimeAsync(61_000);
    await host.posted(/parked for later/);
    await vi.advanceTimersByTimeAsync(3600_000);
    await host.posted(/already parked/);
    expect(host.parked).toHaveLength(1);
    host.setCurrent('steve', 'Collect logs.', 'owner', 'alice');
    await vi.advanceTimersByTimeAsync(3600_000);
    expect((await host.posted(/already on it/)).text).toBe("Schedule #1: I'm already on it (collect logs).");
    expect(host.goalsSet).toEqual([]);
  });

  it('GIVEN a self-chosen goal WHEN the schedule runs THEN the scheduled goal replaces it', async () => {
    const sc = scheduler();
    await sc.start();
    host.setCurrent('steve', 'explore', 'self', null);
    sc.add({ avatar: 'steve', text: 'at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    await vi.advanceTimersByTimeAsync(61_000);
    await host.posted(/New goal from alice/);
    expect(store.state.data.avatars[0]?.goal).toMatchObject({ text: 'collect logs', setBy: 'owner', setById: 'alice' });
  });

  it('GIVEN the creator no longer owns the avatar WHEN the schedule runs THEN it is skipped with one line', async () => {
    const sc = scheduler();
    await sc.start();
    sc.add({ avatar: 'steve', text: 'at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    filesOf(store).state.update((s) => void (s.avatars[0] && (s.avatars[0].owner = 'bob')));
    await vi.advanceTimersByTimeAsync(61_000);
    expect((await host.posted(/skipped/)).text).toBe('Schedule #1 skipped: alice no longer owns steve. /unschedule 1 removes it.');
    expect(host.goalsSet).toEqual([]);
  });

  it('GIVEN a creator in Europe/Berlin THEN 8:00 runs at 07:00 UTC, and a zone change moves the job', async () => {
    filesOf(store).state.update((s) => void (s.persons[0] && (s.persons[0].timezone = 'Europe/Berlin')));
    vi.setSystemTime(new Date('2026-12-01T06:59:00Z'));
    const sc = scheduler();
    await sc.start();
    const added = sc.add({ avatar: 'steve', text: 'every day at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    expect(added.zone).toBe('Europe/Berlin');
    expect(added.defaultZone).toBe(false);
    expect(added.next[0]?.toISOString()).toBe('2026-12-01T07:00:00.000Z');
    await vi.advanceTimersByTimeAsync(61_000);
    await host.posted(/New goal/);

    filesOf(store).state.update((s) => void (s.persons[0] && (s.persons[0].timezone = 'America/New_York')));
    sc.zoneChanged('alice');
    const s1 = sc.get(1);
    expect(s1 && sc.nextRun(s1)?.toISOString()).toBe('2026-12-01T13:00:00.000Z');
    host.setCurrent('steve', 'explore', 'self', null);
    await vi.advanceTimersByTimeAsync(6 * 3600_000);
    await vi.waitUntil(() => host.goalsSet.length === 2);
    expect(sc.get(1)?.lastRun).toBe('2026-12-01T13:00:00.000Z');
  });

  it('GIVEN bad input THEN a UserError names what is wrong and nothing is stored', async () => {
    const sc = scheduler();
    await sc.start();
    const bad = (text: string): string => {
      try {
        sc.add({ avatar: 'steve', text, by: 'alice', dest: 'telegram:100' });
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        return (err as Error).message;
      }
      throw new Error(`accepted: ${text}`);
    };
    expect(bad('0 25 * * * collect logs')).toBe('"0 25 * * *": 25 does not fit: the hour is 0 to 23. Nothing was scheduled.');
    expect(bad('every 7 hours collect logs')).toMatch(/^Every 7 hours does not divide the day evenly/);
    expect(bad('*/1 * * * * collect logs')).toMatch(/runs more often than every 5 minutes/);
    expect(bad('every day at 8:00')).toMatch(/^Say what the goal is/);
    expect(bad(`every day at 8:00 ${'x'.repeat(2001)}`)).toMatch(/the limit is 2000/);
    expect(store.schedules.data.schedules).toEqual([]);
    expect(store.schedules.data.next).toBe(1);
    expect(sc.liveJobs).toBe(1); // only the minute counter
  });

  it('GIVEN stop() THEN every timer is gone and no run fires any more', async () => {
    const sc = scheduler();
    await sc.start();
    sc.add({ avatar: 'steve', text: 'at 8:00 collect logs', by: 'alice', dest: 'telegram:100' });
    sc.digests.set('telegram:100', true, 'alice', '20:00');
    expect(sc.liveJobs).toBe(3);
    sc.stop();
    expect(sc.liveJobs).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2 * 86_400_000);
    expect(host.goalsSet).toEqual([]);
    expect(host.posts).toEqual([]);
  });
});

describe('restart safety', () => {
  async function withSchedule(lastRun: string | null): Promise<void> {
    filesOf(store).schedules.update((f) => {
      f.schedules.push({
        id: 1,
        avatar: 'steve',
        cron: '0 8 * * *',
        when: 'every day at 08:00',
        goal: 'collect logs',
        createdBy: 'alice',
        dest: 'telegram:100',
        createdAt: '2026-11-20T00:00:00.000Z',
        lastRun,
      });
      f.next = 2;
    });
    await reopen();
  }

  it('GIVEN the 08:00 run was missed by 20 minutes THEN it runs once at start, and a second restart does not run it again', async () => {
    await withSchedule('2026-11-30T08:00:00.000Z');
    vi.setSystemTime(new Date('2026-12-01T08:20:00Z'));
    await scheduler().start();
    expect(host.posts.map((p) => p.text)).toEqual(['New goal from alice (schedule #1): collect logs.']);
    expect(store.schedules.data.schedules[0]?.lastRun).toBe('2026-12-01T08:00:00.000Z');
    for (const s of schedulers.splice(0)) s.stop();

    await reopen();
    vi.setSystemTime(new Date('2026-12-01T08:30:00Z'));
    await scheduler().start();
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(host.posts).toEqual([]);
    expect(host.goalsSet).toEqual([]);
  });

  it('GIVEN the missed run is two hours late THEN it is skipped with one line naming it', async () => {
    await withSchedule('2026-11-29T08:00:00.000Z');
    vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
    await scheduler().start();
    expect(host.posts.map((p) => p.text)).toEqual([
      'Schedule #1 skipped its run of Tue 1 Dec 08:00 UTC (and 1 earlier): mindlink was down, and it is more than an hour late.',
    ]);
    expect(host.goalsSet).toEqual([]);
    expect(store.schedules.data.schedules[0]?.lastRun).toBe('2026-12-01T08:00:00.000Z');
  });

  it('GIVEN a data dir from before schedules (no schedules.json, persons without a zone) THEN it opens with none and UTC', async () => {
    await rm(join(dir, 'schedules.json'));
    await reopen();
    expect(existsSync(join(dir, 'schedules.json'))).toBe(true);
    expect(store.schedules.data).toEqual({ version: 1, next: 1, schedules: [], digests: [], played: {} });
    expect(scheduler().zoneOf('alice')).toBe('UTC');
  });
});

describe('the daily digest', () => {
  it('GIVEN time played and a finished goal THEN the 20:00 digest posts one message per linked avatar, and a quiet day posts nothing', async () => {
    const sc = scheduler();
    await sc.start();
    sc.digests.set('telegram:100', true, 'alice', '20:00');
    // Two minutes in game, then a goal done and one parked.
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(store.schedules.data.played.steve).toBe(2);
    host.playing.delete('steve');
    filesOf(store).record.update((r) => {
      r.goals.push({ avatar: 'steve', text: 'collect 3 oak logs', setBy: 'owner', setById: 'alice', started: T0.toISOString(), ended: new Date().toISOString(), outcome: 'done' });
      r.goals.push({ avatar: 'steve', text: 'craft a wooden pickaxe', setBy: 'owner', setById: 'alice', started: T0.toISOString(), ended: new Date().toISOString(), outcome: 'parked', note: 'blocked repeatedly' });
    });
    await vi.advanceTimersByTimeAsync(12 * 3600_000);
    const digest = await host.posted(/^Digest since/);
    expect(digest).toEqual({
      dest: 'telegram:100',
      avatar: 'steve',
      text: [
        'Digest since Tue 1 Dec 07:59 UTC:',
        'Finished 1: collect 3 oak logs',
        'Parked or blocked 1: craft a wooden pickaxe (parked: blocked repeatedly)',
        'Played 2 min',
      ].join('\n'),
    });
    expect(store.schedules.data.digests[0]?.mark.at).toBe('2026-12-01T20:00:00.000Z');
    // The next day: nothing happened, nothing is posted, and the span moves on.
    vi.setSystemTime(new Date('2026-12-02T20:00:00Z'));
    expect(await sc.digests.send('telegram:100')).toBe(0);
    expect(host.posts).toHaveLength(1);
    expect(store.schedules.data.digests[0]?.mark.at).toBe('2026-12-02T20:00:00.000Z');
  });
});

describe('the daily digest across a restart', () => {
  async function digestOnAt(markAt: string): Promise<void> {
    filesOf(store).schedules.update((f) => {
      f.digests.push({ dest: 'telegram:100', time: '20:00', by: 'alice', mark: { at: markAt, played: keyed(), usage: keyed() } });
    });
    filesOf(store).record.update((r) => {
      r.goals.push({ avatar: 'steve', text: 'collect 3 oak logs', setBy: 'owner', setById: 'alice', started: markAt, ended: new Date(Date.parse(markAt) + 60_000).toISOString(), outcome: 'done' });
    });
    await reopen();
  }

  it('GIVEN mindlink was down over the 20:00 digest THEN it is sent late at start, once, and a second restart does not send it again', async () => {
    await digestOnAt('2026-11-29T20:00:00.005Z');
    // Down from the 29th to the 1st: the 30th's digest was due; one digest covers the whole span.
    await scheduler().start();
    expect(host.posts.map((p) => p.text.split('\n')[0])).toEqual(['Digest since Sun 29 Nov 20:00 UTC:']);
    expect(host.posts[0]?.text).toContain('Finished 1: collect 3 oak logs');
    expect(store.schedules.data.digests[0]?.mark.at).toBe(T0.toISOString());
    for (const s of schedulers.splice(0)) s.stop();

    await reopen();
    await scheduler().start();
    expect(host.posts).toEqual([]);
  });

  it('GIVEN the last digest was sent by a cron that fired a moment early THEN that same digest is not sent again at start', async () => {
    vi.setSystemTime(new Date('2026-12-01T21:00:00Z'));
    await digestOnAt('2026-12-01T19:59:59.600Z');
    await scheduler().start();
    expect(host.posts).toEqual([]);
    expect(store.schedules.data.digests[0]?.mark.at).toBe('2026-12-01T19:59:59.600Z');
  });

  it('GIVEN no digest time passed while down THEN nothing is sent at start', async () => {
    await digestOnAt('2026-11-30T20:00:00.010Z');
    await scheduler().start();
    expect(host.posts).toEqual([]);
  });
});
