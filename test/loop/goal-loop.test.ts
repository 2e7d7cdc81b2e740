import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderRefusedError } from '../../src/errors.ts';
import { checkGoal } from '../../src/goals/check.ts';
import { silentLogger } from '../../src/logger.ts';
import { addDirection } from '../../src/task/directions.ts';
import { GoalLoop, type DonePing, type GoalChecker, type LoopPostKind } from '../../src/loop/goal-loop.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { newAvatarRecord, Store, type Avatar } from '../../src/store/store.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine, type Script } from '../fakes/test-engine.ts';
import { keyed } from '../../src/keyed.ts';
import { filesOf } from '../../src/store/files.ts';
import { AvatarNews } from '../../src/loop/news.ts';
import { recordsOf } from '../avatars/records-helpers.ts';

const BASE = 3000;
const MAX = 60_000;

interface Harness {
  dir: string;
  store: Store;
  game: FakeGame;
  engine: TestEngine;
  loop: GoalLoop;
  posts: { kind: LoopPostKind; text: string; ping: DonePing | null }[];
  selfStops: string[];
  rec(): Avatar;
}

function avatarRecord(): Avatar {
  return newAvatarRecord('steve', 'owner1', 'embedded', 'scripted', false, new Date());
}

const dirs: string[] = [];
let current: Harness | undefined;

async function harness(script: Script, setup?: (a: Avatar) => void, check: GoalChecker = checkGoal, engineOpts: { stopsOnAbort?: boolean } = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-loop-'));
  dirs.push(dir);
  const store = await Store.open(dir);
  filesOf(store).state.update((s) => {
    s.persons.push({ id: 'owner1', name: 'olga', identities: ['telegram:1'], admin: false });
    s.persons.push({ id: 'friend', name: 'fred', identities: ['telegram:2'], admin: false });
    const a = avatarRecord();
    setup?.(a);
    s.avatars.push(a);
  });
  const game = new FakeGame('steve');
  const engine = new TestEngine(script, engineOpts);
  const posts: Harness['posts'] = [];
  const selfStops: string[] = [];
  const news = new AvatarNews();
  news.on('post', ({ kind, text, ping }) => posts.push({ kind, text, ping }));
  const loop = new GoalLoop({
    avatar: 'steve',
    goals: recordsOf(store).portOf('steve'),
    news,
    engine,
    game,
    task: new TaskFile(join(dir, 'avatars', 'steve'), 'steve'),
    log: silentLogger(),
    checkGoal: check,
    onSelfStop: (reason) => selfStops.push(reason),
    syncTask: async () => {},
    pacing: { baseMs: BASE, maxMs: MAX },
    // No jitter: the delays are the plain backoff (test/backoff.test.ts covers the jitter).
    random: () => 0,
  });
  const h: Harness = {
    dir,
    store,
    game,
    engine,
    loop,
    posts,
    selfStops,
    rec: () => store.state.data.avatars[0] as Avatar,
  };
  current = h;
  return h;
}

/** Start the game and the loop; resolves with the first turn's delay (0). */
async function start(h: Harness): Promise<number> {
  await h.game.start();
  const scheduled = once(h.loop, 'turnScheduled');
  h.loop.start();
  const [d] = (await scheduled) as [number];
  return d;
}

/** Let `delay` pass, wait for the turn it triggers and for the next turn to be scheduled. */
async function turn(h: Harness, delay: number): Promise<{ kind: string; next: number; req: ReturnType<TestEngine['nextTurn']> extends Promise<infer R> ? R : never }> {
  const n = h.engine.requests.length + 1;
  const scheduled = once(h.loop, 'turnScheduled');
  await vi.advanceTimersByTimeAsync(delay);
  const req = await h.engine.nextTurn(n);
  const [next] = (await scheduled) as [number];
  return { kind: req.kind, next, req };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  await current?.loop.pause('test over');
  await current?.store.flush();
  current = undefined;
  vi.useRealTimers();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('goal loop', () => {
  it('GIVEN no goal WHEN started THEN it chooses, posts "New goal (my choice)" and works on it', async () => {
    const h = await harness((req) => (req.kind === 'choose' ? 'I will gather wood.\nGOAL: collect 5 oak logs\nSTATUS: working' : 'STATUS: working'));
    const d0 = await start(h);
    const t1 = await turn(h, d0);
    expect(t1.kind).toBe('choose');
    expect(h.posts).toEqual([{ kind: 'new_goal', text: 'New goal (my choice): collect 5 oak logs', ping: null }]);
    expect(h.rec().goal?.setBy).toBe('self');
    expect(h.rec().state).toBe('working');
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('continue');
    expect(t2.req.goal?.text).toBe('collect 5 oak logs');
  });

  it('GIVEN an owner goal met in the game WHEN the engine says done THEN "Done:" pings the setter, a wrap-up writes the lab log, then it chooses', async () => {
    const h = await harness((req) => {
      if (req.kind === 'wrapup') return 'Lesson: trees are near spawn.\nSTATUS: working';
      if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
      return 'STATUS: done';
    });
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'friend');
    h.game.give('oak_log', 3);
    const t1 = await turn(h, d0);
    expect(t1.kind).toBe('continue');
    expect(h.posts[0]).toEqual({ kind: 'done', text: 'Done: collect 3 oak logs', ping: { person: 'friend', setIn: null } });
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('wrapup');
    const lab = await readFile(join(h.dir, 'avatars', 'steve', 'lab-log.md'), 'utf8');
    expect(lab).toContain('Lesson: trees are near spawn.');
    const t3 = await turn(h, t2.next);
    expect(t3.kind).toBe('choose');
    expect(t3.req.recentGoals).toEqual(['collect 3 oak logs']);
    const record = h.store.record.data.goals;
    expect(record.map((g) => [g.text, g.outcome])).toEqual([['collect 3 oak logs', 'done']]);
  });

  it('GIVEN an engine that asked the completion check during its turn and was told met THEN its done is judged by that answer: the goal is checked once', async () => {
    let checks = 0;
    const counting: GoalChecker = (text, baseline, snap) => {
      checks++;
      return checkGoal(text, baseline, snap);
    };
    const h = await harness((req) => {
      if (req.kind !== 'continue') return 'STATUS: working';
      const check = req.completion();
      return check.checkable && check.met ? `Done: ${check.says}.\nSTATUS: done` : 'STATUS: working';
    }, undefined, counting);
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    h.game.give('oak_log', 3);
    await turn(h, d0);
    expect(h.posts.map((p) => p.text)).toEqual(['Done: collect 3 oak logs']);
    expect(checks).toBe(1);
  });

  it('GIVEN an engine that claims done without asking the check THEN the loop checks it once and refuses a false claim', async () => {
    let checks = 0;
    const counting: GoalChecker = (text, baseline, snap) => {
      checks++;
      return checkGoal(text, baseline, snap);
    };
    const h = await harness(() => 'STATUS: done', undefined, counting);
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    const t1 = await turn(h, d0);
    expect(h.posts).toEqual([]);
    expect(checks).toBe(1);
    const t2 = await turn(h, t1.next);
    expect(t2.req.checkFailure).toMatch(/you hold 0 of the 3 more oak logs needed/);
  });

  it('GIVEN a self goal WHEN it is done THEN Done pings nobody', async () => {
    const h = await harness((req) => (req.kind === 'choose' ? 'GOAL: go to 0 64 0\nSTATUS: working' : req.kind === 'wrapup' ? 'ok' : 'STATUS: done'));
    const d0 = await start(h);
    const t1 = await turn(h, d0);
    await turn(h, t1.next);
    expect(h.posts.find((p) => p.kind === 'done')).toEqual({ kind: 'done', text: 'Done: go to 0 64 0', ping: null });
  });

  it('GIVEN a false "done" claim THEN no Done is posted and the next prompt says what the check says', async () => {
    const h = await harness(() => 'All done!\nSTATUS: done');
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    h.game.give('oak_log', 1);
    const t1 = await turn(h, d0);
    expect(h.posts.filter((p) => p.kind === 'done')).toEqual([]);
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('continue');
    expect(t2.req.checkFailure).toMatch(/1 of the 3/);
    expect(t2.req.prompt).toMatch(/the check says/i);
    expect(h.rec().goal?.text).toBe('collect 3 oak logs');
  });

  it('GIVEN "build a pillar of 3 dirt" claimed done with no such column in the world THEN no Done is posted and the next prompt says what the check sees; once the column stands, Done', async () => {
    const h = await harness(() => 'Built it.\nSTATUS: done');
    h.game.snap = { ...h.game.snap, columns: [{ block: 'dirt', height: 2, x: 3, y: 64, z: 1 }] };
    const d0 = await start(h);
    h.loop.setOwnerGoal('build a pillar of 3 dirt', 'owner1');
    const t1 = await turn(h, d0);
    expect(h.posts.filter((p) => p.kind === 'done')).toEqual([]);
    const t2 = await turn(h, t1.next);
    expect(t2.req.checkFailure).toBe('the tallest free-standing column of dirt within 6 blocks of you is 2 high (3 needed)');
    h.game.snap = { ...h.game.snap, columns: [{ block: 'dirt', height: 3, x: 3, y: 64, z: 1 }] };
    await turn(h, t2.next);
    expect(h.posts.filter((p) => p.kind === 'done').map((p) => p.text)).toEqual(['Done: build a pillar of 3 dirt']);
  });

  it('GIVEN lessons in the lab log THEN the next choose prompt carries the last five; a continue prompt none', async () => {
    const h = await harness((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working'));
    const task = new TaskFile(join(h.dir, 'avatars', 'steve'), 'steve');
    for (let i = 1; i <= 6; i++) await task.appendLab(`Lesson: lesson number ${i}.`, new Date(Date.UTC(2026, 0, i)));
    const d0 = await start(h);
    const t1 = await turn(h, d0);
    expect(t1.kind).toBe('choose');
    expect(t1.req.lessons).toEqual(['lesson number 2.', 'lesson number 3.', 'lesson number 4.', 'lesson number 5.', 'lesson number 6.']);
    expect(t1.req.prompt).toContain('Lessons of your last goals (newest last):\n- lesson number 2.');
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('continue');
    expect(t2.req.lessons).toBeUndefined();
  });

  it('GIVEN a blocked owner goal WHEN the avatar picks another goal THEN the owner goal is parked and re-offered before a self goal', async () => {
    const h = await harness((req) => {
      if (req.kind === 'wrapup') return 'Lesson: no sand here.';
      if (req.kind === 'blocked') return 'No sand anywhere; I will do something else.\nGOAL: go to 0 64 0\nSTATUS: working';
      if (req.kind === 'choose') {
        // Like the scripted engine: a parked owner goal comes first.
        const parked = req.parkedGoals?.[0];
        return parked ? `GOAL: ${parked}\nSTATUS: working` : 'GOAL: explore\nSTATUS: working';
      }
      if (req.goal?.text === 'go to 0 64 0') return 'STATUS: done';
      return 'There is no sand.\nSTATUS: blocked';
    });
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 5 sand', 'owner1');
    const t1 = await turn(h, d0); // blocked
    expect(t1.kind).toBe('continue');
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('wrapup');
    const t3 = await turn(h, t2.next);
    expect(t3.kind).toBe('blocked');
    expect(t3.req.prompt).toMatch(/take another route, or pick another goal/i);
    expect(h.rec().parked.map((p) => p.text)).toEqual(['collect 5 sand']);
    expect(h.posts.map((p) => p.text)).toContain('Parked your goal for later: collect 5 sand (There is no sand.)');
    expect(h.posts.map((p) => p.text)).toContain('New goal (my choice): go to 0 64 0');
    const t4 = await turn(h, t3.next); // go to: done
    expect(h.posts.map((p) => p.text)).toContain('Done: go to 0 64 0');
    const t5 = await turn(h, t4.next); // wrap-up
    expect(t5.kind).toBe('wrapup');
    const t6 = await turn(h, t5.next); // choose: the parked owner goal is offered first
    expect(t6.kind).toBe('choose');
    expect(t6.req.parkedGoals).toEqual(['collect 5 sand']);
    expect(t6.req.prompt).toContain('collect 5 sand');
    expect(h.rec().goal).toMatchObject({ text: 'collect 5 sand', setBy: 'owner', setById: 'owner1' });
    expect(h.rec().parked).toEqual([]);
    expect(h.posts.map((p) => p.text)).toContain('Back to your goal: collect 5 sand');
  });

  it('GIVEN an owner goal blocked three times in a row THEN the loop parks it itself and chooses', async () => {
    const h = await harness((req) => (req.kind === 'wrapup' ? 'noted' : req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: blocked'));
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 5 sand', 'owner1');
    let t = await turn(h, d0);
    const kinds = [t.kind];
    for (let i = 0; i < 5; i++) {
      t = await turn(h, t.next);
      kinds.push(t.kind);
    }
    expect(kinds).toEqual(['continue', 'wrapup', 'blocked', 'blocked', 'wrapup', 'choose']);
    expect(h.posts.map((p) => p.text)).toContain('Parked your goal for later: collect 5 sand (blocked repeatedly)');
  });

  it('GIVEN a self goal given up after blocked THEN the goal record keeps the reason (the digest shows it)', async () => {
    const h = await harness((req) => {
      if (req.kind === 'wrapup') return 'noted';
      if (req.kind === 'choose') return 'GOAL: collect 5 sand\nSTATUS: working';
      if (req.kind === 'blocked') return 'GOAL: explore\nSTATUS: working';
      return 'There is no sand.\nSTATUS: blocked';
    });
    let t = await turn(h, await start(h));
    const kinds = [t.kind];
    for (let i = 0; i < 3; i++) {
      t = await turn(h, t.next);
      kinds.push(t.kind);
    }
    expect(kinds).toEqual(['choose', 'continue', 'wrapup', 'blocked']);
    expect(h.store.record.data.goals).toMatchObject([{ text: 'collect 5 sand', setBy: 'self', outcome: 'blocked', note: 'There is no sand.' }]);
  });

  it('GIVEN an owner goal running WHEN another owner goal is parked beside it THEN the running goal stays and the parked one is offered when choosing', async () => {
    const h = await harness((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working'));
    await start(h);
    h.loop.setOwnerGoal('go to 1 64 1', 'owner1');
    h.loop.parkGoal('collect 2 logs', 'friend', 'scheduled while I was on olga\'s goal');
    expect(h.rec().goal).toMatchObject({ text: 'go to 1 64 1', setById: 'owner1' });
    expect(h.rec().parked).toMatchObject([{ text: 'collect 2 logs', setById: 'friend', reason: "scheduled while I was on olga's goal" }]);
    expect(h.store.record.data.goals).toMatchObject([{ text: 'collect 2 logs', outcome: 'parked', setById: 'friend' }]);
    expect(h.posts).toEqual([]);
  });

  it('GIVEN an unchanged world THEN the delay doubles to a 60 s cap, and an owner message wakes the loop at once', async () => {
    const h = await harness(() => 'Thinking.\nSTATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    let t = await turn(h, d0);
    const delays = [t.next];
    for (let i = 0; i < 6; i++) {
      t = await turn(h, t.next);
      delays.push(t.next);
    }
    expect(delays).toEqual([6000, 12_000, 24_000, 48_000, 60_000, 60_000, 60_000]);
    expect(t.req.nudges.join(' ')).toMatch(/try something different/);

    // Nothing happens before the delay is over …
    const before = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(59_000);
    expect(h.engine.requests.length).toBe(before);
    // … but an owner direction wakes it now.
    const scheduled = once(h.loop, 'turnScheduled');
    h.loop.directionAdded('stay near the village');
    const [d] = (await scheduled) as [number];
    expect(d).toBe(0);
    const w = await turn(h, 0);
    expect(w.kind).toBe('direction');
    expect(w.req.message).toBe('stay near the village');
  });

  it('GIVEN an owner direction THEN wokenTurn resolves once the turn that took it in has ended, not before; after it, or while stopped, there is none', async () => {
    let release = (): void => {};
    const gate = new Promise<void>((r) => (release = r));
    const h = await harness(async (req) => {
      if (req.kind === 'direction') await gate;
      return 'Working.\nSTATUS: working';
    });
    const first = await turn(h, await start(h));
    const scheduled = once(h.loop, 'turnScheduled');
    h.loop.directionAdded('stay near the village');
    const woken = h.loop.wokenTurn();
    let ended = false;
    void woken?.then(() => (ended = true));
    // The direction wakes the loop once it is saved; its turn runs and waits on the engine.
    expect(await scheduled).toEqual([0]);
    await vi.advanceTimersByTimeAsync(0);
    const req = await h.engine.nextTurn(2);
    expect(req.kind).toBe('direction');
    await vi.advanceTimersByTimeAsync(first.next);
    expect(ended).toBe(false);
    release();
    await woken;
    expect(ended).toBe(true);
    // An automatic turn is no one's: nothing waits on it, and once the woken turn is over there is nothing to wait for.
    expect(h.engine.requests).toHaveLength(2);
    expect(h.loop.wokenTurn()).toBeNull();
    await h.loop.stop();
    expect(h.loop.wokenTurn()).toBeNull();
  });

  it('GIVEN an engine that says "working" for ever while nothing changes THEN after 8 such turns the next prompt is the blocked one and the owner is told once', async () => {
    const h = await harness((req) => (req.kind === 'blocked' ? 'Trying elsewhere.\nSTATUS: working' : 'Thinking.\nSTATUS: working'));
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    let t = await turn(h, d0);
    const kinds = [t.kind];
    for (let i = 0; i < 17; i++) {
      t = await turn(h, t.next);
      kinds.push(t.kind);
    }
    expect(kinds.slice(0, 8)).toEqual(Array(8).fill('continue'));
    expect(kinds[8]).toBe('blocked');
    expect(kinds[16]).toBe('blocked');
    expect(kinds.filter((k) => k === 'blocked')).toHaveLength(2);
    expect(h.posts.filter((p) => p.kind === 'info')).toEqual([
      { kind: 'info', text: "Stuck on collect 3 oak logs: nothing changed in 8 turns, so I'm taking another route or another goal.", ping: null },
    ]);
  });

  it('GIVEN a turn that changed the world THEN the delay is back to 3 s', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 30 oak logs', 'owner1');
    let t = await turn(h, d0);
    t = await turn(h, t.next);
    expect(t.next).toBe(12_000);
    h.engine.script = () => {
      h.game.give('oak_log', 1);
      return 'STATUS: working';
    };
    t = await turn(h, t.next);
    expect(t.next).toBe(BASE);
  });

  it('GIVEN the game is down THEN no prompt is sent and the goal is kept; on reconnect the loop goes on', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    const t = await turn(h, d0);
    h.game.drop();
    const n = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(10 * MAX);
    expect(h.engine.requests.length).toBe(n);
    expect(h.loop.displayState).toBe('waiting');
    expect(h.rec().goal?.text).toBe('collect 3 oak logs');
    void t;
    const scheduled = once(h.loop, 'turnScheduled');
    h.game.reconnect();
    await scheduled;
    const r = await turn(h, 0);
    expect(r.kind).toBe('continue');
  });

  it('GIVEN a working avatar WHEN it dies in the game THEN it shows dead and is sent no prompt; WHEN it respawns THEN one chat line says so and the same goal goes on at once', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    const t = await turn(h, d0);
    const death = { cause: 'slain by Zombie', position: { x: 10, y: 64, z: -3 } };
    h.game.die(death);
    expect(h.loop.displayState).toBe('dead');
    const n = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(t.next + 10 * MAX);
    expect(h.engine.requests.length).toBe(n);
    expect(h.posts).toEqual([]);
    const scheduled = once(h.loop, 'turnScheduled');
    h.game.respawn(death);
    expect(h.loop.displayState).toBe('working');
    const [delay] = (await scheduled) as [number];
    expect(delay).toBe(0);
    expect(h.posts).toEqual([{ kind: 'info', text: 'I died (slain by Zombie) at 10 64 -3; back at spawn.', ping: null }]);
    const r = await turn(h, 0);
    expect(r.kind).toBe('continue');
    expect(r.req.goal?.text).toBe('collect 3 oak logs');
  });

  it('GIVEN the provider refuses THEN the avatar stops with a chat line and sends no further requests', async () => {
    const h = await harness(() => new ProviderRefusedError('insufficient_quota: You exceeded your current quota'));
    const d0 = await start(h);
    await vi.advanceTimersByTimeAsync(d0);
    await h.engine.nextTurn(1);
    await vi.waitFor(() => expect(h.selfStops.length).toBe(1), { interval: 1, timeout: 5000 });
    expect(h.posts.at(-1)).toEqual({
      kind: 'stopped',
      text: 'Stopped: the model provider refused: insufficient_quota: You exceeded your current quota',
      ping: null,
    });
    expect(h.rec().playing).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * MAX);
    expect(h.engine.requests.length).toBe(1);
  });

  it('GIVEN a kick or ban from the game server THEN the avatar stops with the reason and sends no more prompts', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    h.game.state = 'ended';
    h.game.emit('ended', 'You are banned from this server');
    expect(h.posts.at(-1)).toEqual({ kind: 'stopped', text: 'Stopped: the game server ended the session: You are banned from this server', ping: null });
    expect(h.selfStops).toHaveLength(1);
    expect(h.rec()).toMatchObject({ playing: false, state: 'stopped' });
    const n = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(t1.next + 10 * MAX);
    expect(h.engine.requests.length).toBe(n);
  });

  it('GIVEN the game connection in a crash loop THEN the avatar stops with the reason, keeps its goal and sends no more prompts', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    h.game.state = 'ended';
    h.game.emit('failed', 'crash loop in the game connection (5 failures in 10 minutes; last on packet open_window)');
    expect(h.posts.at(-1)).toEqual({
      kind: 'stopped',
      text: 'Stopped: crash loop in the game connection (5 failures in 10 minutes; last on packet open_window)',
      ping: null,
    });
    expect(h.selfStops).toHaveLength(1);
    expect(h.rec()).toMatchObject({ playing: false, state: 'stopped', goal: { text: 'explore' } });
    const n = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(t1.next + 10 * MAX);
    expect(h.engine.requests.length).toBe(n);
  });

  it('GIVEN an in-game whisper WHEN the loop waits out a long delay THEN it wakes at once', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    let t = await turn(h, d0);
    t = await turn(h, t.next);
    expect(t.next).toBe(12_000);
    const scheduled = once(h.loop, 'turnScheduled');
    h.game.emit('whispered', 'alex', 'hi demo');
    expect(((await scheduled) as [number])[0]).toBe(0);
  });

  it('GIVEN three crashes within a few minutes THEN the avatar stops with "crash loop"', async () => {
    const h = await harness(() => new Error('engine exploded'));
    const d0 = await start(h);
    let t = await turn(h, d0);
    expect(t.next).toBe(6000);
    t = await turn(h, t.next);
    expect(t.next).toBe(12_000);
    await vi.advanceTimersByTimeAsync(t.next);
    await h.engine.nextTurn(3);
    await vi.waitFor(() => expect(h.selfStops.length).toBe(1), { interval: 1, timeout: 5000 });
    expect(h.posts.at(-1)?.text).toMatch(/^Stopped: crash loop \(3 crashes in 5 minutes; last: engine exploded\)/);
  });

  it('GIVEN "DIRECTION: done 1" THEN #1 moves to done, one line is posted, and prompts stop quoting it', async () => {
    const h = await harness((req) => (req.kind === 'continue' && req.directions.length > 0 ? 'Done with that.\nDIRECTION: done 1\nSTATUS: working' : 'STATUS: working'));
    filesOf(h.store).state.update((s) => {
      const a = s.avatars[0] as Avatar;
      addDirection(a.directions, 'stay near the village', 'owner1', new Date());
    });
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    expect(t1.req.directionSummary).toContain('stay near the village');
    expect(h.posts).toContainEqual({ kind: 'direction_done', text: 'Direction #1 done: stay near the village', ping: null });
    expect(h.rec().directions.open).toEqual([]);
    expect(h.rec().directions.done.map((d) => d.n)).toEqual([1]);
    const t2 = await turn(h, t1.next);
    expect(t2.req.directionSummary).toBe('');
  });

  it('GIVEN a saved goal WHEN the loop starts THEN the first prompt resumes it with direction and TASK.md', async () => {
    const h = await harness(() => 'STATUS: working', (a) => {
      a.playing = true;
      a.goal = { text: 'collect 30 oak logs', setBy: 'owner', setById: 'owner1', startedAt: new Date().toISOString(), baseline: keyed(), runToken: 't1' };
    });
    const d0 = await start(h);
    const t1 = await turn(h, d0);
    expect(t1.kind).toBe('resume');
    expect(t1.req.prompt).toContain('collect 30 oak logs');
    expect(t1.req.task).toContain('## Ambitions');
  });

  it('GIVEN a saved "collect 3 dirt" goal measured against 3 dirt WHEN the avatar comes back with an empty inventory THEN the baseline is measured again and 3 new dirt finish it', async () => {
    const h = await harness((req) => (req.kind === 'wrapup' ? 'ok' : 'STATUS: done'), (a) => {
      a.playing = true;
      a.goal = { text: 'collect 3 dirt', setBy: 'owner', setById: 'owner1', startedAt: new Date().toISOString(), baseline: keyed({ dirt: 3 }), runToken: 't1' };
    });
    const d0 = await start(h);
    expect(h.rec().goal?.baseline).toEqual({});
    h.game.give('dirt', 3);
    await turn(h, d0);
    expect(h.posts.filter((p) => p.kind === 'done')).toEqual([{ kind: 'done', text: 'Done: collect 3 dirt', ping: { person: 'owner1', setIn: null } }]);
  });

  it('GIVEN a saved "collect 3 dirt" goal WHEN the avatar comes back holding what it held THEN the baseline stays (a restart never moves the finish line)', async () => {
    const h = await harness(() => 'STATUS: done', (a) => {
      a.playing = true;
      a.goal = { text: 'collect 3 dirt', setBy: 'owner', setById: 'owner1', startedAt: new Date().toISOString(), baseline: keyed({ dirt: 3 }), runToken: 't1' };
    });
    h.game.give('dirt', 4);
    const d0 = await start(h);
    expect(h.rec().goal?.baseline).toEqual({ dirt: 3 });
    h.game.drop();
    h.game.reconnect();
    expect(h.rec().goal?.baseline).toEqual({ dirt: 3 });
    await turn(h, d0);
    expect(h.posts.filter((p) => p.kind === 'done')).toEqual([]);
  });

  it('GIVEN a day-old engine session THEN it is rotated between turns and the first prompt says it is fresh', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    h.engine.sessionInfo = { startedAt: Date.now() - 25 * 60 * 60 * 1000, size: 10 };
    const t2 = await turn(h, t1.next);
    expect(t2.kind).toBe('fresh');
    expect(t2.req.prompt).toMatch(/fresh/i);
    expect(h.engine.resets).toBe(1);
    h.engine.sessionInfo = { startedAt: Date.now(), size: 10_000_000 };
    const t3 = await turn(h, t2.next);
    expect(t3.kind).toBe('fresh');
    expect(h.engine.resets).toBe(2);
  });

  it('GIVEN a turn in progress WHEN the owner sets a new goal THEN the stale reply cannot finish the new goal', async () => {
    let release: (v: string) => void = () => {};
    const h = await harness((_req, n) => (n === 1 ? new Promise<string>((r) => (release = r)) : 'STATUS: working'));
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    h.game.give('oak_log', 3);
    await vi.advanceTimersByTimeAsync(d0);
    await h.engine.nextTurn(1);
    h.loop.setOwnerGoal('go to 100 64 100', 'owner1');
    const scheduled = once(h.loop, 'turnScheduled');
    release('STATUS: done');
    await scheduled;
    expect(h.posts.filter((p) => p.kind === 'done')).toEqual([]);
    expect(h.rec().goal?.text).toBe('go to 100 64 100');
    expect(h.store.record.data.goals.map((g) => [g.text, g.outcome])).toEqual([['collect 3 oak logs', 'replaced']]);
  });

  it('GIVEN an engine that stops at once on abort WHEN the owner sets a goal mid-turn THEN the turn on it waits for the goal to be saved (its Done never comes before the acknowledgement)', async () => {
    const h = await harness((_req, n) => (n === 1 ? new Promise<string>(() => {}) : 'STATUS: working'), undefined, checkGoal, { stopsOnAbort: true });
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    await vi.advanceTimersByTimeAsync(d0);
    await h.engine.nextTurn(1);
    const interrupted = once(h.loop, 'turnScheduled');
    h.loop.setOwnerGoal('go to 100 64 100', 'owner1');
    // The aborted turn ends before the store's write is done: the next turn is not due at once …
    const [afterAbort] = (await interrupted) as [number];
    expect(afterAbort).toBe(BASE);
    // … but as soon as the new goal is saved, it wakes the loop.
    const [woken] = (await once(h.loop, 'turnScheduled')) as [number];
    expect(woken).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    const second = await h.engine.nextTurn(2);
    expect(second.goal?.text).toBe('go to 100 64 100');
    expect(JSON.parse(await readFile(join(h.dir, 'state.json'), 'utf8')).avatars[0].goal.text).toBe('go to 100 64 100');
  });

  it('GIVEN a turn in progress WHEN the owner gives a direction and the turn ends in done THEN the wrap-up comes, then the direction\'s own prompt', async () => {
    let release: (v: string) => void = () => {};
    const h = await harness((req, n) => (n === 1 ? new Promise<string>((r) => (release = r)) : req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working'));
    const d0 = await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    h.game.give('oak_log', 3);
    await vi.advanceTimersByTimeAsync(d0);
    await h.engine.nextTurn(1);
    filesOf(h.store).state.update((s) => {
      addDirection((s.avatars[0] as Avatar).directions, 'stay near the village', 'owner1', new Date());
    });
    h.loop.directionAdded('stay near the village');
    // The direction's wake (once it is saved) lands while the turn still runs, not between the turns below.
    await h.store.state.flush();
    const scheduled = once(h.loop, 'turnScheduled');
    release('STATUS: done');
    const [d1] = (await scheduled) as [number];
    expect(h.posts.map((p) => p.text)).toEqual(['Done: collect 3 oak logs']);
    const t2 = await turn(h, d1);
    expect(t2.kind).toBe('wrapup');
    expect(t2.req.message).toBeUndefined();
    const t3 = await turn(h, t2.next);
    expect(t3.kind).toBe('direction');
    expect(t3.req.message).toBe('stay near the village');
    expect(t3.req.prompt).toContain('New owner direction #1: stay near the village');
  });

  it('GIVEN a stopped loop THEN no more prompts are sent and the goal is kept', async () => {
    const h = await harness(() => 'STATUS: working');
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    await h.loop.stop();
    const n = h.engine.requests.length;
    await vi.advanceTimersByTimeAsync(t1.next + 10 * MAX);
    expect(h.engine.requests.length).toBe(n);
    expect(h.rec()).toMatchObject({ playing: false, state: 'stopped' });
    expect(h.rec().goal?.text).toBe('explore');
  });

  it('GIVEN TASK.md over 9 KB of the avatar\'s own notes THEN every automatic prompt asks for a short rewrite', async () => {
    const h = await harness(() => 'STATUS: working');
    const task = new TaskFile(join(h.dir, 'avatars', 'steve'), 'steve');
    const md = await task.read();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(task.path, md.replace('## Now', `## Now\n${'x'.repeat(10_000)}\n`));
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    const t1 = await turn(h, d0);
    expect(t1.req.nudges.join(' ')).toMatch(/rewrite it short/);
  });

  it('GIVEN an engine made of others (hybrid) THEN each turn is counted by who played it, in all and on the goal, and its one line is posted', async () => {
    const h = await harness(() => 'STATUS: working');
    const replies = [
      { playedBy: { engine: 'scripted', model: false } },
      { playedBy: { engine: 'llm', model: true }, usage: { promptTokens: 100, completionTokens: 5, requests: 1 } },
      { playedBy: { engine: 'scripted', model: false }, notice: 'The model provider refused (insufficient_quota), so the scripted engine plays on.' },
    ];
    const turnOf = h.engine.turn.bind(h.engine);
    h.engine.turn = async (req, signal) => ({ ...(await turnOf(req, signal)), ...(replies.shift() ?? {}) });
    const d0 = await start(h);
    h.loop.setOwnerGoal('explore', 'owner1');
    let next = d0;
    for (let i = 0; i < 3; i++) next = (await turn(h, next)).next;
    expect(h.store.record.data.usage.steve).toEqual({ promptTokens: 100, completionTokens: 5, requests: 1, turns: { scripted: 2, model: 1 } });
    expect(h.rec().goal?.usage?.turns).toEqual({ scripted: 2, model: 1 });
    expect(h.posts.filter((p) => p.kind === 'info').map((p) => p.text)).toEqual(['The model provider refused (insufficient_quota), so the scripted engine plays on.']);
  });

  it('GIVEN a question THEN it is answered in its own turn and the goal is untouched', async () => {
    const h = await harness((req) => (req.kind === 'question' ? 'I have 2 oak logs.\nSTATUS: working' : 'STATUS: working'));
    await start(h);
    h.loop.setOwnerGoal('collect 3 oak logs', 'owner1');
    const answer = await h.loop.ask('how many logs do you have?');
    expect(answer).toBe('I have 2 oak logs.');
    expect(h.rec().goal?.text).toBe('collect 3 oak logs');
  });
});
