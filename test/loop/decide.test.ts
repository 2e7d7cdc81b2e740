/**
 * The goal loop's decisions as pure functions, one test per transition of
 * the goal loop (docs/goal-loop.md) — no timers, no engine, no store.
 */
import { describe, expect, it } from 'vitest';
import {
  decideCrash,
  decideStall,
  decideTurn,
  freshMemory,
  paceTurn,
  sessionDue,
  type CompletionCheck,
  type GoalFacts,
  type LoopMemory,
  type TurnFacts,
} from '../../src/loop/decide.ts';
import { readReport } from '../../src/engines/llm/protocol.ts';
import { dueTurn, loaded, started, turnDecided, turnTaken, type LoopState } from '../../src/loop/loop-state.ts';

const pacing = { minMs: 3000, maxMs: 60_000 };
const ownerGoal: GoalFacts = { text: 'collect 3 oak logs', setBy: 'owner', setById: 'p-alice', baseline: { oak_log: 0 } };
const selfGoal: GoalFacts = { text: 'explore', setBy: 'self', setById: null, baseline: null };
const uncheckable = (): CompletionCheck => ({ checkable: false });

function facts(reply: string, over: Partial<TurnFacts> = {}): TurnFacts {
  return { kind: 'continue', goal: ownerGoal, stale: false, reply: readReport(reply), completion: uncheckable, next: undefined, parked: [], ...over };
}

function memory(over: Partial<LoopMemory> = {}): LoopMemory {
  return { ...freshMemory(), ...over };
}

/** The loop's state once a decision is applied and the turn it makes due is taken (`loop-state.ts`). */
function nextTurn(d: ReturnType<typeof decideTurn>, hasGoal: boolean): { kind: string; state: LoopState } {
  const s = turnDecided(started(loaded({ playing: true, state: 'working' }), true), d);
  const kind = dueTurn(s, hasGoal);
  return { kind, state: turnTaken(s, kind, hasGoal) };
}

describe('goal loop decisions: states', () => {
  it('GIVEN choosing and a reply with GOAL THEN the goal is set as a self goal and the state is working (choosing → working)', () => {
    const d = decideTurn(facts('I will explore.\nGOAL: explore\nSTATUS: working', { kind: 'choose', goal: null }), memory());
    expect(d.change).toMatchObject({ kind: 'switch', text: 'explore', setBy: 'self', setById: null, fromParked: false });
    expect(d.state).toBe('working');
    expect(d.posts).toEqual([{ kind: 'new_goal', text: 'New goal (my choice): explore' }]);
  });

  it('GIVEN choosing and a reply with no GOAL THEN it chooses again (choosing → choosing)', () => {
    const d = decideTurn(facts('Hmm.\nSTATUS: working', { kind: 'choose', goal: null }), memory());
    expect(d.change).toEqual({ kind: 'keep' });
    expect(d.next).toBe('choose');
    expect(d.posts).toEqual([]);
  });

  it('GIVEN working and STATUS done on a goal that cannot be checked THEN Done is posted, pinging the owner goal\'s setter, and the wrap-up follows (working → wrapup)', () => {
    const d = decideTurn(facts('All done.\nSTATUS: done'), memory({ blockedStreak: 1 }));
    expect(d.change).toEqual({ kind: 'finish' });
    expect(d.state).toBe('wrapup');
    expect(d.posts).toEqual([{ kind: 'done', text: 'Done: collect 3 oak logs', ping: { person: 'p-alice', setIn: null } }]);
    expect(d.next).toBe('wrapup');
    expect(d.memory.blockedStreak).toBe(0);
  });

  it('GIVEN an owner goal set in a chat done THEN Done pings its setter in that chat', () => {
    const d = decideTurn(facts('STATUS: done', { goal: { ...ownerGoal, setIn: 'telegram:-100' } }), memory());
    expect(d.posts).toEqual([{ kind: 'done', text: 'Done: collect 3 oak logs', ping: { person: 'p-alice', setIn: 'telegram:-100' } }]);
  });

  it('GIVEN a self goal done THEN Done pings nobody (an avatar finishing its own small goals must not buzz its owner)', () => {
    const d = decideTurn(facts('STATUS: done', { goal: selfGoal }), memory());
    expect(d.posts).toEqual([{ kind: 'done', text: 'Done: explore', ping: null }]);
  });

  it('GIVEN the wrap-up turn and no goal left THEN the state is choosing (wrapup → choosing)', () => {
    const d = decideTurn(facts('Lesson: trees are near.', { kind: 'wrapup', goal: null }), memory());
    expect(d.state).toBe('choosing');
    expect(d.change).toEqual({ kind: 'keep' });
  });

  it('GIVEN the wrap-up turn and a goal still there THEN the state is working again (wrapup → working)', () => {
    expect(decideTurn(facts('Lesson: the river is deep.', { kind: 'wrapup' }), memory()).state).toBe('working');
  });

  it('GIVEN the owner set a new goal while the turn ran THEN its stale reply changes nothing (owner goal from any running state → working)', () => {
    const d = decideTurn(facts('STATUS: done', { stale: true, next: 'continue' }), memory());
    expect(d).toEqual({ memory: memory(), change: { kind: 'keep' }, posts: [], next: 'continue' });
  });
});

describe('goal loop decisions: the reporting protocol', () => {
  it('GIVEN a reply without STATUS THEN it counts as working: nothing changes', () => {
    const d = decideTurn(facts('I am chopping.'), memory({ checkFailure: 'the check says 1 of 3' }));
    expect(d.change).toEqual({ kind: 'keep' });
    expect(d.next).toBeUndefined();
    expect(d.memory.checkFailure).toBeUndefined();
  });

  it('GIVEN STATUS done that the completion check refutes THEN no Done is posted and the next turn is continue with what the check says', () => {
    const check = (): CompletionCheck => ({ checkable: true, met: false, says: 'you have 1 of 3 oak logs' });
    const d = decideTurn(facts('Done!\nSTATUS: done', { completion: check }), memory());
    expect(d.posts).toEqual([]);
    expect(d.change).toEqual({ kind: 'keep' });
    expect(d.next).toBe('continue');
    expect(d.memory.checkFailure).toBe('you have 1 of 3 oak logs');
    expect(d.refused).toBe('you have 1 of 3 oak logs');
  });

  it('GIVEN STATUS done that the completion check confirms THEN Done is posted', () => {
    const check = (): CompletionCheck => ({ checkable: true, met: true, says: 'you have 3 of 3 oak logs' });
    expect(decideTurn(facts('STATUS: done', { completion: check }), memory()).change).toEqual({ kind: 'finish' });
  });

  it('GIVEN a first STATUS blocked THEN one wrap-up comes first, then the blocked prompt ("take another route, or pick another goal")', () => {
    const d = decideTurn(facts('No trees here.\nSTATUS: blocked'), memory());
    expect(d.next).toBe('wrapup');
    expect(d.memory).toMatchObject({ blockedStreak: 1, blockedReason: 'No trees here.' });
    expect(d.followedBy).toBe('blocked');
    const wrap = nextTurn(d, true);
    expect(wrap).toMatchObject({ kind: 'wrapup', state: { next: 'blocked', afterWrapup: undefined } });
  });

  it('GIVEN STATUS blocked again THEN the loop goes on with the blocked prompt: blocked never stops the loop', () => {
    const d = decideTurn(facts('Still no trees.\nSTATUS: blocked', { kind: 'blocked' }), memory({ blockedStreak: 1 }));
    expect(d.next).toBe('blocked');
    expect(d.change).toEqual({ kind: 'keep' });
    expect(d.memory.blockedStreak).toBe(2);
  });

  it('GIVEN an owner goal blocked a third time THEN it is parked for later, the owner is told, and the wrap-up follows', () => {
    const d = decideTurn(facts('Nothing works.\nSTATUS: blocked', { kind: 'blocked' }), memory({ blockedStreak: 2 }));
    expect(d.change).toEqual({ kind: 'park', reason: 'blocked repeatedly' });
    expect(d.state).toBe('choosing');
    expect(d.posts).toEqual([{ kind: 'info', text: 'Parked your goal for later: collect 3 oak logs (blocked repeatedly)' }]);
    expect(d.next).toBe('wrapup');
  });

  it('GIVEN a blocked owner goal and a reply with another GOAL THEN the owner goal is parked with the blocked reason', () => {
    const d = decideTurn(facts('GOAL: explore\nSTATUS: working', { kind: 'blocked' }), memory({ blockedStreak: 1, blockedReason: 'No trees here.' }));
    expect(d.change).toMatchObject({ kind: 'switch', text: 'explore', parkReason: 'No trees here.', oldOutcome: 'blocked' });
    expect(d.posts).toEqual([
      { kind: 'info', text: 'Parked your goal for later: collect 3 oak logs (No trees here.)' },
      { kind: 'new_goal', text: 'New goal (my choice): explore' },
    ]);
    expect(d.memory.blockedStreak).toBe(0);
  });

  it('GIVEN a GOAL naming a parked owner goal THEN it comes back as the owner\'s goal (owner goals have priority)', () => {
    const d = decideTurn(facts('GOAL: Collect 3 oak logs.\nSTATUS: working', { kind: 'choose', goal: null, parked: [{ text: 'collect 3 oak logs', setById: 'p-alice' }] }), memory());
    expect(d.change).toMatchObject({ kind: 'switch', setBy: 'owner', setById: 'p-alice', fromParked: true });
    expect(d.posts).toEqual([{ kind: 'new_goal', text: 'Back to your goal: Collect 3 oak logs.' }]);
  });

  it('GIVEN a GOAL line that repeats the current goal THEN the goal is kept', () => {
    expect(decideTurn(facts('GOAL: Collect 3 oak logs\nSTATUS: working'), memory()).change).toEqual({ kind: 'keep' });
  });

  it('GIVEN a finished SUBTASK THEN a wrap-up turn writes the lesson (wrap-up on done / blocked / finished subtask)', () => {
    const d = decideTurn(facts('SUBTASK: done found the forest\nSTATUS: working'), memory({ blockedStreak: 2 }));
    expect(d.next).toBe('wrapup');
    expect(d.memory.blockedStreak).toBe(0);
  });

  it('GIVEN an owner direction arrived while the turn ran THEN a plain working reply leaves it due next', () => {
    expect(decideTurn(facts('STATUS: working', { next: 'direction' }), memory()).next).toBe('direction');
  });

  it('GIVEN an owner direction arrived while a turn ended in done THEN it comes right after the wrap-up, not lost to it', () => {
    const d = decideTurn(facts('STATUS: done', { next: 'direction' }), memory());
    expect(d.next).toBe('wrapup');
    const wrap = nextTurn(d, false);
    expect(wrap).toMatchObject({ kind: 'wrapup', state: { next: 'direction' } });
  });

  it('GIVEN an owner direction arrived while a first blocked came THEN the wrap-up is followed by the direction (it carries the goal and the blocked reason is kept)', () => {
    const d = decideTurn(facts('No trees here.\nSTATUS: blocked', { next: 'direction' }), memory());
    expect(d.next).toBe('wrapup');
    expect(d.memory).toMatchObject({ blockedStreak: 1 });
    expect(d.followedBy).toBe('direction');
  });

  it('GIVEN an owner direction arrived while choosing found no goal THEN the direction comes next, not another choose', () => {
    expect(decideTurn(facts('Hmm.\nSTATUS: working', { kind: 'choose', goal: null, next: 'direction' }), memory()).next).toBe('direction');
  });
});

describe('goal loop decisions: pacing', () => {
  const pace = (over: Partial<Parameters<typeof paceTurn>[0]>, m = memory()) =>
    paceTurn({ kind: 'continue', next: undefined, worldChanged: false, goalChanged: false, pacing, jitter: 0, ...over }, m);

  it('GIVEN a turn that changed the world, the notes or the goal THEN the next prompt comes at the base pace', () => {
    expect(pace({ worldChanged: true }, memory({ unchangedStreak: 4 }))).toEqual({ memory: memory(), delayMs: 3000 });
    expect(pace({ goalChanged: true }, memory({ unchangedStreak: 4 })).delayMs).toBe(3000);
  });

  it('GIVEN turns that change nothing THEN the delay doubles up to 60 s (and the streak nudges "try something different")', () => {
    let m = memory();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const p = pace({}, m);
      delays.push(p.delayMs);
      m = p.memory;
    }
    expect(delays).toEqual([6000, 12_000, 24_000, 48_000, 60_000, 60_000]);
    expect(m.unchangedStreak).toBe(6);
  });

  it('GIVEN jitter THEN an unchanged turn waits a little longer than the plain doubling, never shorter', () => {
    expect(pace({ jitter: 0.5 }).delayMs).toBe(6600);
  });

  it('GIVEN a wrap-up, or the turn that leads to one THEN it is not counted as a turn that changed nothing', () => {
    expect(pace({ kind: 'wrapup' }, memory({ unchangedStreak: 2 }))).toEqual({ memory: memory({ unchangedStreak: 2 }), delayMs: 3000 });
    expect(pace({ next: 'wrapup' }).delayMs).toBe(3000);
  });
});

describe('goal loop decisions: fresh sessions', () => {
  const limits = { maxAgeMs: 24 * 60 * 60 * 1000, maxSize: 400_000 };

  it('GIVEN a conversation a day old or over its size limit THEN it is due for a fresh session', () => {
    expect(sessionDue({ startedAt: 0, size: 10 }, limits.maxAgeMs, limits)).toBe(true);
    expect(sessionDue({ startedAt: 0, size: 400_001 }, 1000, limits)).toBe(true);
    expect(sessionDue({ startedAt: 0, size: 400_000 }, limits.maxAgeMs - 1, limits)).toBe(false);
  });
});

describe('goal loop decisions: stops', () => {
  const limit = { count: 3, windowMs: 5 * 60_000 };

  it('GIVEN a crash THEN the loop backs off and goes on', () => {
    expect(decideCrash([], 1_000_000, limit, pacing, 0, 'boom')).toEqual({ crashes: [1_000_000], delayMs: 6000 });
  });

  it('GIVEN three crashes within a few minutes THEN the avatar stops with "crash loop" (a crash loop stops it)', () => {
    const d = decideCrash([1_000_000, 1_060_000], 1_120_000, limit, pacing, 0, 'engine exploded');
    expect(d).toEqual({ crashes: [1_000_000, 1_060_000, 1_120_000], stop: 'crash loop (3 crashes in 5 minutes; last: engine exploded)' });
  });

  it('GIVEN crashes spread over more than the window THEN the old ones no longer count', () => {
    const d = decideCrash([0, 60_000], 400_000, limit, pacing, 0, 'boom');
    expect(d).toEqual({ crashes: [400_000], delayMs: 6000 });
  });
});

describe('decideStall: every goal is bounded', () => {
  const goal = { text: 'collect 3 oak logs', runToken: 't1' };
  it('GIVEN 8 turns in a row that changed nothing THEN the next prompt is the blocked one and the owner is told', () => {
    expect(decideStall({ next: undefined, goal, unchangedStreak: 8, reported: undefined })).toEqual({
      next: 'blocked',
      post: "Stuck on collect 3 oak logs: nothing changed in 8 turns, so I'm taking another route or another goal.",
    });
  });
  it('GIVEN the owner was told about this goal THEN the 16th such turn blocks again without a post', () => {
    expect(decideStall({ next: undefined, goal, unchangedStreak: 16, reported: 't1' })).toEqual({ next: 'blocked', post: null });
  });
  it('GIVEN fewer turns, no goal, or another turn already due THEN nothing changes', () => {
    expect(decideStall({ next: undefined, goal, unchangedStreak: 7, reported: undefined })).toEqual({ next: undefined, post: null });
    expect(decideStall({ next: undefined, goal: null, unchangedStreak: 8, reported: undefined })).toEqual({ next: undefined, post: null });
    expect(decideStall({ next: 'wrapup', goal, unchangedStreak: 8, reported: undefined })).toEqual({ next: 'wrapup', post: null });
  });
});
