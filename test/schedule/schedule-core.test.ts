import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandInvocation } from '../../src/chat.ts';
import { ConsoleBridge } from '../../bridges/console.ts';
import { consoleStreams } from '../core/console-harness.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine, type Script } from '../fakes/test-engine.ts';
import { filesOf } from '../../src/store/files.ts';

/** The core with fake games and a scripted test engine, over the console bridge (real store files). */
interface Running {
  core: Mindlink;
  engine(): TestEngine;
  line(re: RegExp): Promise<string>;
  send(text: string): void;
  lines: string[];
}

const dirs: string[] = [];
const cores: Mindlink[] = [];

afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function startCore(script: Script, env: Record<string, string> = {}): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-schedule-core-'));
  dirs.push(dir);
  const engines = new Map<string, TestEngine>();
  const core = await Mindlink.start({
    config: parseConfig({ DATA_DIR: dir, LOOP_PACE_MS: '30', LOOP_MAX_PACE_MS: '100', ...env }),
    log: silentLogger(),
    games: { create: (a) => new FakeGame(a.name), close: async () => {} },
    engines: (_kind, ctx) => {
      const e = new TestEngine(script);
      engines.set(ctx.avatar, e);
      return e;
    },
    checkGoal: () => ({ checkable: false }),
    skills: createSkillRegistry,
    commands: createDispatcher(),
  });
  cores.push(core);
  const io = consoleStreams();
  await core.addBridge(new ConsoleBridge(io.stdin, io.stdout, silentLogger()));
  return {
    core,
    lines: io.lines,
    engine: () => engines.get('demo') as TestEngine,
    send: io.send,
    line: io.line,
  };
}

const idle: Script = (req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working');

/** A 6-field cron expression (UTC) for `ms` from now: second, minute, hour of that moment, every day. */
function cronIn(ms: number): string {
  const t = new Date(Date.now() + ms);
  return `${t.getUTCSeconds()} ${t.getUTCMinutes()} ${t.getUTCHours()} * * *`;
}

describe('schedule commands over the console', () => {
  it('GIVEN /schedule, /schedules and /unschedule THEN each replies with ids and next runs, and the store follows', async () => {
    const r = await startCore(idle);
    r.send('/schedule every day at 8:00 collect 10 oak logs');
    const reply = await r.line(/^\[demo\] Schedule #1: /);
    expect(reply).toMatch(
      /^\[demo\] Schedule #1: collect 10 oak logs, every day at 08:00 \(0 8 \* \* \*\)\. Next runs \(UTC\): \w{3} \d{1,2} \w{3} 08:00, \w{3} \d{1,2} \w{3} 08:00, \w{3} \d{1,2} \w{3} 08:00\. Times are in UTC, the default: \/timezone Europe\/Berlin \(say\) sets yours\.$/,
    );
    r.send('/schedule 30 18 * * 1-5 go to 0 64 0 demo');
    await r.line(/^\[demo\] Schedule #2: go to 0 64 0, on 30 18 \* \* 1-5\. Next runs \(UTC\): /);
    r.send('/schedules');
    await r.line(/^\[demo\] #1 every day at 08:00 \(0 8 \* \* \*\) · collect 10 oak logs · next \w{3} \d{1,2} \w{3} 08:00 UTC · by console$/);
    await r.line(/^\[demo\] #2 30 18 \* \* 1-5 · go to 0 64 0 · next \w{3} \d{1,2} \w{3} 18:30 UTC · by console$/);
    r.send('/unschedule #1');
    await r.line(/^\[demo\] Removed schedule #1 \(collect 10 oak logs, every day at 08:00\)\.$/);
    r.send('/unschedule 1');
    await r.line(/^\[mindlink\] You have no schedule #1\. \/schedules lists yours\.$/);
    expect(r.core.store.schedules.data.schedules.map((s) => s.id)).toEqual([2]);
  });

  it('GIVEN bad expressions THEN the reply names what was wrong and nothing is stored', async () => {
    const r = await startCore(idle);
    r.send('/schedule 0 25 * * * collect logs');
    await r.line(/^\[mindlink\] "0 25 \* \* \*": 25 does not fit: the hour is 0 to 23\. Nothing was scheduled\.$/);
    r.send('/schedule every 1 minute collect logs');
    await r.line(/^\[mindlink\] Every minute is too often: runs are at least 5 minutes apart, so a goal has time to get done; use 5, 10, 15, 20, 30 minutes, or hours\. Nothing was scheduled\.$/);
    r.send('/schedule @reboot collect logs');
    await r.line(/^\[mindlink\] "@reboot" would run when the machine starts, which is no time of day: use a time, e\.g\. @daily, "every day at 8:00" or "0 8 \* \* \*"\. Nothing was scheduled\.$/);
    r.send('/schedule every 7 hours collect logs');
    await r.line(/^\[mindlink\] Every 7 hours does not divide the day evenly; use 1, 2, 3, 4, 6, 8, 12 hours, or a cron expression\. Nothing was scheduled\.$/);
    r.send('/schedule whenever collect logs');
    await r.line(/^\[mindlink\] "whenever collect logs" does not start with a schedule/);
    r.send('/schedule');
    await r.line(/^\[mindlink\] text: say when and what\. Usage: \/schedule <when> <goal> \[avatar\]$/);
    r.send('/unschedule x');
    await r.line(/^\[mindlink\] id: a schedule id is a number like 3 or #3\./);
    expect(r.core.store.schedules.data.schedules).toEqual([]);
  });

  it('GIVEN /timezone THEN a bad zone is refused with a hint, a good one is stored and schedules print in it', async () => {
    const r = await startCore(idle);
    r.send('/timezone');
    await r.line(/^\[mindlink\] Your time zone is UTC \(the default\); it is \w{3} \d{1,2} \w{3} \d\d:\d\d there\./);
    r.send('/timezone Berlin');
    await r.line(/^\[mindlink\] "Berlin" is not an IANA time zone\. Did you mean Europe\/Berlin\? Nothing was changed\.$/);
    r.send('/timezone europe/berlin');
    await r.line(/^\[mindlink\] Your time zone is now Europe\/Berlin; it is .* there\. Your schedules and digests run in it\.$/);
    expect(r.core.store.state.data.persons.find((p) => p.id === 'console')?.timezone).toBe('Europe/Berlin');
    r.send('/schedule weekdays at 7am collect logs');
    const reply = await r.line(/^\[demo\] Schedule #1: /);
    expect(reply).toContain('Next runs (Europe/Berlin): ');
    expect(reply).not.toContain('the default');
    const next = r.core.schedules.nextRun(r.core.store.schedules.data.schedules[0] ?? (undefined as never));
    // 07:00 in Berlin in winter is 06:00 UTC (05:00 in summer).
    expect([5, 6]).toContain(next?.getUTCHours());
  });

  it('GIVEN /digest in a linked chat THEN it turns on at a time, shows, and turns off', async () => {
    const r = await startCore(idle);
    r.send('/digest');
    await r.line(/^\[mindlink\] The daily digest is off here\. \/digest on \[HH:MM\] turns it on\.$/);
    r.send('/digest on 25:00');
    await r.line(/^\[mindlink\] "25:00" is not a time of day: write it as HH:MM/);
    r.send('/digest on 21:30');
    await r.line(/^\[mindlink\] Daily digest on: every day at 21:30 UTC, one message per avatar \(demo\); nothing on a day with nothing to say\.$/);
    r.send('/digest');
    await r.line(/^\[mindlink\] The daily digest is on here at 21:30 UTC for demo; next \w{3} \d{1,2} \w{3} 21:30\.$/);
    r.send('/digest off');
    await r.line(/^\[mindlink\] Daily digest off for this chat\.$/);
    expect(r.core.store.schedules.data.digests).toEqual([]);
  });

  it('GIVEN a member of a linked chat and a stranger in a DM on Telegram THEN only the owner and admins may schedule', async () => {
    const r = await startCore(idle, { TELEGRAM_TOKEN: '123:abc' });
    const { core } = r;
    filesOf(core.store).state.update((s) => {
      s.persons.push({ id: 'alice', name: 'alice', identities: ['telegram:1'], admin: false });
      s.persons.push({ id: 'bob', name: 'bob', identities: ['telegram:2'], admin: false });
      const demo = s.avatars[0];
      if (demo) demo.owner = 'alice';
      s.links.push({ avatar: 'demo', dest: 'telegram:100', mode: 'control', createdAt: new Date().toISOString() });
    });
    const inv = (from: string, name: string, argsText: string, dest = 'telegram:100'): CommandInvocation => ({
      platform: 'telegram',
      from,
      fromName: from,
      dest,
      chatKind: dest === 'telegram:100' ? 'group' : 'private',
      messageId: null,
      name,
      argsText,
    });
    // Only the replies: the avatar's own posts (its self-chosen goal) may come in between.
    const replies = (): string[] => core.outbox.pending('telegram').filter((p) => p.kind === 'reply').map((p) => p.text);
    await core.router.runCommand(inv('telegram:2', 'schedule', 'every day at 8:00 collect logs'));
    await core.router.runCommand(inv('telegram:3', 'schedule', 'every day at 8:00 collect logs demo', 'telegram:3'));
    await core.router.runCommand(inv('telegram:2', 'digest', 'on'));
    expect(replies()).toEqual([
      "Only demo's owner or an admin can schedule its goals.",
      expect.stringMatching(/^I don't know you yet\./),
      'Only the owner of an avatar linked here, or an admin, can set the digest.',
    ]);
    await core.router.runCommand(inv('telegram:1', 'schedule', 'every day at 8:00 collect logs'));
    expect(replies()[3]).toMatch(/^Schedule #1: collect logs, every day at 08:00/);
    await core.router.runCommand(inv('telegram:2', 'unschedule', '1'));
    await core.router.runCommand(inv('telegram:2', 'schedules', ''));
    // Bob may schedule nothing, so he is not offered /schedule.
    expect(replies().slice(4)).toEqual(['You have no schedule #1. /schedules lists yours.', "No scheduled goals you can see: scheduling an avatar's goals is for its owner and admins."]);
    expect(core.store.schedules.data.schedules).toHaveLength(1);
    expect(core.store.schedules.data.schedules[0]).toMatchObject({ createdBy: 'alice', dest: 'telegram:100' });
  });
});

describe('a scheduled run through the real goal loop', () => {
  it('GIVEN an owner goal running WHEN a schedule fires THEN its goal is parked, offered when choosing, taken up and Done is recorded as the creator’s', async () => {
    let finishOwnerGoal = false;
    const script: Script = (req) => {
      if (req.kind === 'choose') {
        return req.parkedGoals?.includes('collect 2 logs') ? 'GOAL: collect 2 logs\nSTATUS: working' : 'GOAL: explore\nSTATUS: working';
      }
      if (req.goal?.text === 'go to 1 64 1' && finishOwnerGoal) return 'STATUS: done';
      if (req.goal?.text === 'collect 2 logs') return 'STATUS: done';
      return 'STATUS: working';
    };
    const r = await startCore(script);
    r.send('Goal: go to 1 64 1');
    await r.line(/^\[demo\] New goal from console: go to 1 64 1\.$/);
    r.core.schedules.add({ avatar: 'demo', text: `${cronIn(1500)} collect 2 logs`, by: 'console', dest: 'console' });
    await r.line(/^\[demo\] Schedule #1 parked for later: collect 2 logs\. I'm on an owner goal \(go to 1 64 1\) and take it up after\.$/);
    expect(r.core.avatars.get('demo')?.parked).toMatchObject([{ text: 'collect 2 logs', setById: 'console' }]);
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('go to 1 64 1');

    finishOwnerGoal = true;
    await r.line(/^\[demo\] Done: go to 1 64 1$/);
    await r.line(/^\[demo\] Back to your goal: collect 2 logs$/);
    await r.line(/^\[demo\] Done: collect 2 logs$/);
    const done = r.core.store.record.data.goals.find((g) => g.text === 'collect 2 logs' && g.outcome === 'done');
    expect(done).toMatchObject({ setBy: 'owner', setById: 'console' });
    expect(r.core.store.schedules.data.schedules[0]?.lastRun).not.toBeNull();
  });

  it('GIVEN a self-chosen goal WHEN a schedule fires THEN the goal is set with the same acknowledgement as Goal:, and Done follows', async () => {
    const script: Script = (req) => {
      if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
      if (req.goal?.text === 'collect 2 logs') return 'STATUS: done';
      return 'STATUS: working';
    };
    const r = await startCore(script);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.core.schedules.add({ avatar: 'demo', text: `${cronIn(1500)} collect 2 logs`, by: 'console', dest: 'console' });
    await r.line(/^\[demo\] New goal from console \(schedule #1\): collect 2 logs\.$/);
    await r.line(/^\[demo\] Done: collect 2 logs$/);
  });

  it('GIVEN shutdown THEN every scheduler timer is stopped', async () => {
    const r = await startCore(idle);
    r.send('/schedule every day at 8:00 collect logs');
    await r.line(/^\[demo\] Schedule #1: /);
    r.send('/digest on');
    await r.line(/^\[mindlink\] Daily digest on/);
    expect(r.core.schedules.liveJobs).toBe(3);
    await r.core.stop();
    expect(r.core.schedules.liveJobs).toBe(0);
  });
});
