/**
 * The loop state's moves as pure functions, one test per move — no timers,
 * no engine; the last tests hold the cell that keeps the stored part in a
 * real store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  directionGiven,
  dueTurn,
  loaded,
  LoopStateCell,
  ownerGoalSet,
  paused,
  sessionRotated,
  shown,
  stalled,
  started,
  stopped,
  turnDecided,
  turnOver,
  turnStarted,
  turnTaken,
  wakesNow,
  woken,
  type LoopState,
} from '../../src/loop/loop-state.ts';
import { newAvatarRecord, Store, type Avatar } from '../../src/store/store.ts';
import { filesOf } from '../../src/store/files.ts';
import { recordsOf } from '../avatars/records-helpers.ts';

const idle = loaded({ playing: false, state: 'stopped' });
/** Playing with a goal, between turns. */
const working: LoopState = { ...started(idle, true), next: undefined };
/** Playing with a goal, a turn running. */
const turning: LoopState = turnStarted(working);

describe('loop state: playing and stopping', () => {
  it('GIVEN a stored avatar THEN its loop starts not running, with what was stored', () => {
    expect(loaded({ playing: true, state: 'working' })).toMatchObject({ playing: true, phase: 'working', active: false, next: undefined, turning: false, turns: 0 });
  });

  it('GIVEN stopped → started without a goal THEN it is choosing and the first turn is choose (stopped → choosing)', () => {
    const s = started(idle, false);
    expect(s).toMatchObject({ playing: true, active: true, phase: 'choosing', next: 'choose' });
    expect(dueTurn(s, false)).toBe('choose');
  });

  it('GIVEN a saved goal on start THEN it is working and the first turn resumes it (resume)', () => {
    const s = started(idle, true);
    expect(s).toMatchObject({ playing: true, active: true, phase: 'working', next: 'resume' });
    expect(dueTurn(s, true)).toBe('resume');
  });

  it('GIVEN a running turn WHEN the owner stops THEN nothing plays, the phase is stopped and the turn is aborted', () => {
    expect(stopped(turning)).toMatchObject({ playing: false, phase: 'stopped', active: false, aborted: true });
    expect(stopped(working).aborted).toBe(false);
  });

  it('GIVEN a shutdown THEN the loop pauses: no more turns, the stored playing and phase are kept for the next start', () => {
    expect(paused(turning)).toMatchObject({ playing: true, phase: 'working', active: false, aborted: true });
  });

  it('GIVEN the state to show THEN stopped unless playing and running, waiting while out of the game, dead while the avatar respawns, else the phase', () => {
    expect(shown(working, 'connected')).toBe('working');
    expect(shown(working, 'down')).toBe('waiting');
    expect(shown(working, 'connecting')).toBe('waiting');
    expect(shown(working, 'dead')).toBe('dead');
    expect(shown(paused(working), 'connected')).toBe('stopped');
    expect(shown(stopped(working), 'dead')).toBe('stopped');
  });
});

describe('loop state: the owner', () => {
  it('GIVEN a turn running while choosing WHEN the owner sets a goal THEN it is working, continue is due and the stale turn is aborted (owner goal from any running state → working)', () => {
    const choosing = turnStarted(started(idle, false));
    expect(ownerGoalSet(choosing)).toMatchObject({ phase: 'working', next: 'continue', aborted: true });
    expect(ownerGoalSet({ ...working, phase: 'wrapup' })).toMatchObject({ phase: 'working', aborted: false });
  });

  it('GIVEN a stopped avatar WHEN the owner sets a goal THEN it stays stopped (the goal waits for /play)', () => {
    expect(ownerGoalSet(stopped(working))).toMatchObject({ playing: false, phase: 'stopped', next: 'continue' });
  });

  it('GIVEN a direction THEN the next turn is a direction turn carrying it', () => {
    const s = directionGiven(working, 'stay near the village');
    expect(s).toMatchObject({ next: 'direction', message: 'stay near the village' });
    expect(dueTurn(s, true)).toBe('direction');
  });

  it('GIVEN a wake while a turn runs THEN the next turn is to follow at once; GIVEN no turn running THEN it is due now', () => {
    expect(woken(turning).wake).toBe(true);
    expect(wakesNow(woken(turning))).toBe(false);
    expect(woken(working).wake).toBe(false);
    expect(wakesNow(woken(working))).toBe(true);
    expect(wakesNow(paused(working))).toBe(false);
    expect(woken(paused(turning)).wake).toBe(false);
  });
});

describe('loop state: turns', () => {
  it('GIVEN a turn timer fires THEN a turn runs and is counted', () => {
    expect(turnStarted(working)).toMatchObject({ turning: true, turns: working.turns + 1 });
  });

  it('GIVEN nothing due THEN continue with a goal, choose without; a continue due without a goal is a choose', () => {
    expect(dueTurn(working, true)).toBe('continue');
    expect(dueTurn(working, false)).toBe('choose');
    expect(dueTurn({ ...working, next: 'continue' }, false)).toBe('choose');
  });

  it('GIVEN a turn taken THEN what was due is spent, the phase is the kind\'s and no abort is left from before', () => {
    expect(turnTaken({ ...turning, next: 'continue', aborted: true }, 'continue', true)).toMatchObject({ next: undefined, phase: 'working', aborted: false });
    expect(turnTaken({ ...turning, next: 'choose' }, 'choose', false)).toMatchObject({ next: undefined, phase: 'choosing' });
    expect(turnTaken({ ...turning, next: 'wrapup' }, 'wrapup', false)).toMatchObject({ next: undefined, phase: 'wrapup' });
  });

  it('GIVEN a direction turn taken THEN its message is spent; GIVEN another turn taken THEN a message due later is kept', () => {
    const due = directionGiven(turning, 'stay near the village');
    expect(turnTaken(due, 'direction', true).message).toBeUndefined();
    expect(turnTaken(due, 'wrapup', true)).toMatchObject({ message: 'stay near the village' });
  });

  it('GIVEN a wrap-up with a turn meant to follow it THEN that turn is due after the wrap-up (working → wrapup → blocked)', () => {
    const s = turnTaken({ ...turning, next: 'wrapup', afterWrapup: 'blocked' }, 'wrapup', true);
    expect(s).toMatchObject({ phase: 'wrapup', next: 'blocked', afterWrapup: undefined });
    expect(turnTaken({ ...turning, afterWrapup: 'blocked' }, 'continue', true).afterWrapup).toBe('blocked');
  });

  it('GIVEN a decided reply THEN its next turn, its phase and the turn after the wrap-up are set (working → wrapup → choosing)', () => {
    const done = turnDecided(turning, { next: 'wrapup', state: 'wrapup', followedBy: 'direction' });
    expect(done).toMatchObject({ next: 'wrapup', phase: 'wrapup', afterWrapup: 'direction' });
    expect(turnDecided({ ...done, next: undefined }, { next: undefined, state: 'choosing' })).toMatchObject({ phase: 'choosing', afterWrapup: 'direction' });
    expect(turnDecided(turning, { next: 'choose' })).toMatchObject({ next: 'choose', phase: 'working' });
  });

  it('GIVEN a fresh engine session THEN the next prompt says so, unless an owner direction is due', () => {
    expect(sessionRotated(working).next).toBe('fresh');
    expect(sessionRotated(directionGiven(working, 'x')).next).toBe('direction');
  });

  it('GIVEN a stall THEN the blocked prompt is due', () => {
    expect(stalled(working).next).toBe('blocked');
  });

  it('GIVEN a turn over THEN nothing runs and its abort and wake are spent', () => {
    expect(turnOver({ ...turning, wake: true, aborted: true })).toMatchObject({ turning: false, wake: false, aborted: false, turns: turning.turns });
  });
});

describe('loop state: the stored part', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  async function storeWith(a: Avatar): Promise<Store> {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-loop-state-'));
    dirs.push(dir);
    const store = await Store.open(dir);
    filesOf(store).state.update((s) => s.avatars.push(a));
    return store;
  }

  it('GIVEN a cell WHEN it moves THEN the record holds playing and the phase, and the in-memory part is kept', async () => {
    const store = await storeWith(newAvatarRecord('steve', 'owner1', 'embedded', 'scripted', false, new Date()));
    const rec = (): unknown => store.state.data.avatars[0];
    const cell = new LoopStateCell(recordsOf(store).portOf('steve'));
    cell.move(started, false);
    expect(rec()).toMatchObject({ playing: true, state: 'choosing' });
    cell.move(directionGiven, 'stay near the village');
    expect(cell.value).toMatchObject({ playing: true, phase: 'choosing', active: true, next: 'direction', message: 'stay near the village' });
    cell.move(stopped);
    expect(rec()).toMatchObject({ playing: false, state: 'stopped' });
    await store.flush();
  });

  it('GIVEN an avatar whose loop cannot be built THEN it is stored as stopped', async () => {
    const rec: Avatar = { ...newAvatarRecord('steve', 'owner1', 'embedded', 'scripted', true, new Date()), state: 'working' };
    const store = await storeWith(rec);
    recordsOf(store).setStopped('steve');
    expect(store.state.data.avatars[0]).toMatchObject({ playing: false, state: 'stopped' });
    await store.flush();
  });
});
