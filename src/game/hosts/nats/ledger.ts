/**
 * What the core has sent one NATS host session and heard from it, to find
 * what NATS lost (docs/many-machines.md). NATS delivers a message at most
 * once: what is published while the other side reconnects is gone. Both ways
 * the messages are numbered and travel in order, and each side's beat says
 * how far it got, so that:
 *
 * - a call the host's beat shows it has seen (or that the core's beat told it
 *   was sent) and has neither open nor answered was lost, or its answer was:
 *   it ends as a dropped connection ends it (a skill `aborted`, a map or scene
 *   `null`, a stop done);
 * - a start the host does not play by then is sent again, and so is an abort
 *   of a call still open, and the last `hear` of an avatar the host's beat
 *   shows hearing otherwise (a start sent again carries the last `hear`);
 * - a gap in what the host said (a number skipped, or its beat naming a later
 *   one) makes the core's beat ask it to say again where each avatar is: its
 *   state and snapshot come again, with the event the core missed in between
 *   (`connected`, `disconnected`, `ended`) when the state is not the one the
 *   core last had.
 */
import type { CoreToHost, FromHost, GameStateMessage, HostBeat, HostToCore } from '../protocol.ts';

/** A message to a host kept until the host's beat shows it arrived: its number, and the message. */
interface Sent<M extends CoreToHost = CoreToHost> {
  seq: number;
  m: M;
}

type Answered = Extract<CoreToHost, { type: 'skill' | 'stop' | 'say' | 'map' | 'scene' }>;
type Start = Extract<CoreToHost, { type: 'start' }>;
type Hear = Extract<CoreToHost, { type: 'hear' }>;

/** The answer a call lost on the way gets: what a dropped connection gives. */
function lostAnswer(m: Answered): HostToCore {
  const { call, placement } = m;
  if (m.type === 'skill') return { type: 'skillResult', call, placement, result: { ok: false, code: 'aborted', detail: `${m.skill} was cut off: the call or its answer was lost on the network` } };
  if (m.type === 'map') return { type: 'map', call, placement, map: null };
  if (m.type === 'scene') return { type: 'scene', call, placement, scene: null };
  if (m.type === 'say') return { type: 'said', call, placement, outcome: 'not_in_game' };
  return { type: 'stopped', call, placement };
}

/** The event that brings a game to `now` from another state, when a core missed the one the host sent. */
function eventInto(now: GameStateMessage): HostToCore | undefined {
  const { avatar, placement } = now;
  if (now.state === 'connected') return { type: 'event', avatar, placement, event: 'connected', args: [] };
  if (now.state === 'down') return { type: 'event', avatar, placement, event: 'disconnected', args: [now.downReason ?? 'the connection dropped'] };
  if (now.state === 'ended') return { type: 'event', avatar, placement, event: 'ended', args: [now.endReason ?? 'the game ended'] };
  return undefined;
}

/** One `[avatar, placement]` pair of a beat (what is not one is dropped). */
export function isPlaced(a: unknown): a is [string, number] {
  return Array.isArray(a) && typeof a[0] === 'string' && Number.isInteger(a[1]);
}

/** What a host's beat shows was lost. */
export interface Losses {
  /** Answers for calls lost on the way (or whose answers were), to hand on as the host's. */
  answers: Array<{ avatar: string; m: HostToCore }>;
  /** Messages to send again. */
  again: CoreToHost[];
}

/**
 * @example
 * const ledger = new Ledger();
 * const seq = ledger.sent(msg);            // number the message, then publish it with `seq`
 * for (const m of ledger.heard(fromHost)) pool gets m;
 * const lost = ledger.beat(hostBeat);      // answer lost.answers, send lost.again
 */
export class Ledger {
  /** The number of the last message sent. */
  seq = 0;
  /** The number of the last message heard. */
  #heard = 0;
  /** Grows each time messages from the host were missed (0: none yet): the core's beat carries it. */
  missed = 0;
  #calls = new Map<number, Sent<Answered>>();
  #aborts = new Map<number, Sent>();
  #starts = new Map<string, Sent<Start>>();
  #hears = new Map<string, Sent<Hear>>();
  /** The last state heard for each avatar. */
  #states = new Map<string, GameStateMessage>();

  /** Number a message to the host, keeping what must be seen to arrive. */
  sent(msg: CoreToHost): number {
    const seq = ++this.seq;
    if (msg.type === 'skill' || msg.type === 'stop' || msg.type === 'say' || msg.type === 'map' || msg.type === 'scene') this.#calls.set(msg.call, { seq, m: msg });
    else if (msg.type === 'abort' && this.#calls.has(msg.call)) this.#aborts.set(msg.call, { seq, m: msg });
    else if (msg.type === 'start') {
      this.#starts.set(msg.avatar, { seq, m: msg });
      this.#hears.delete(msg.avatar);
    } else if (msg.type === 'hear') {
      this.#hears.set(msg.avatar, { seq, m: msg });
      // A start sent again must not undo it.
      const start = this.#starts.get(msg.avatar);
      if (start?.m.placement === msg.placement) start.m = { ...start.m, hear: msg.on };
    }
    if (msg.type === 'stop' || (msg.type === 'drop' && this.#starts.get(msg.avatar)?.m.placement === msg.placement)) {
      this.#starts.delete(msg.avatar);
      this.#hears.delete(msg.avatar);
    }
    return seq;
  }

  /** A message heard from the host: what to hand on (a state said again comes with the event missed before it). */
  heard(f: FromHost): HostToCore[] {
    if (Number.isInteger(f.seq)) this.#hearUpTo(f.seq, f.seq - 1);
    const m = f.m;
    if ('call' in m && typeof m.call === 'number') {
      this.#calls.delete(m.call);
      this.#aborts.delete(m.call);
    }
    if (m.type === 'again') {
      const { state, snapshot } = m;
      const before = this.#states.get(state.avatar);
      this.#states.set(state.avatar, state);
      const changed = before?.placement !== state.placement || before.state !== state.state;
      const event = changed ? eventInto(state) : undefined;
      return [state, { type: 'snapshot', avatar: state.avatar, placement: state.placement, snapshot }, ...(event ? [event] : [])];
    }
    if (m.type === 'state') this.#states.set(m.avatar, m);
    return [m];
  }

  /** What the host's beat shows was lost, up to what it says it has seen and said. */
  beat(b: HostBeat): Losses {
    const losses: Losses = { answers: [], again: [] };
    if (Number.isInteger(b.said)) this.#hearUpTo(b.said, b.said);
    if (!Number.isInteger(b.seen) || !Array.isArray(b.open)) return losses;
    const open = new Set(b.open);
    for (const [call, c] of [...this.#calls]) {
      if (c.seq > b.seen || open.has(call)) continue;
      this.#calls.delete(call);
      this.#aborts.delete(call);
      losses.answers.push({ avatar: c.m.avatar, m: lostAnswer(c.m) });
    }
    for (const [call, a] of [...this.#aborts]) {
      if (a.seq > b.seen) continue;
      this.#aborts.delete(call);
      if (open.has(call)) losses.again.push(a.m);
    }
    const plays = new Set((Array.isArray(b.avatars) ? b.avatars.filter(isPlaced) : []).map(([a, p]) => `${a}/${p}`));
    for (const [avatar, start] of [...this.#starts]) {
      if (start.seq > b.seen) continue;
      this.#starts.delete(avatar);
      if (!plays.has(`${avatar}/${start.m.placement}`)) losses.again.push(start.m);
    }
    const hearing = new Set(Array.isArray(b.hearing) ? b.hearing : []);
    for (const [avatar, hear] of [...this.#hears]) {
      if (hear.seq > b.seen) continue;
      this.#hears.delete(avatar);
      if (plays.has(`${avatar}/${hear.m.placement}`) && hearing.has(avatar) !== hear.m.on) losses.again.push(hear.m);
    }
    return losses;
  }

  /** Heard up to `seq`; a gap (`expected` is past what was heard) means messages were missed. */
  #hearUpTo(seq: number, expected: number): void {
    if (expected > this.#heard) this.missed = seq;
    if (seq > this.#heard) this.#heard = seq;
  }
}
