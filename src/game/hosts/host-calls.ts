/**
 * The pool's calls to its avatar hosts that wait for an answer (a skill run, a
 * stop, a line to say, a map, a scene), and the rule that every one gets an
 * answer: the host's, when it comes from the host and placement the call went
 * to, or, when there is none (the host went down, the avatar moved, the call
 * could not be sent), the one a dropped connection gives: a skill `aborted`,
 * a line `not_in_game`, no map, no scene, a stop done.
 */
import type { SayOutcome, Scene } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';
import type { CoreToHost, HostToCore } from './protocol.ts';

/** Where a call goes: an avatar, the host it is placed on, under which placement. */
export interface CallTo<S> {
  avatar: string;
  slot: S;
  placement: number;
}

type Pending<S> = CallTo<S> &
  (
    | { kind: 'skill'; skill: string; resolve: (r: SkillResult) => void }
    | { kind: 'stop'; resolve: () => void }
    | { kind: 'map'; resolve: (m: TopDownMap | null) => void }
    | { kind: 'scene'; resolve: (s: Scene | null) => void }
    | { kind: 'say'; resolve: (o: SayOutcome) => void }
  );

/** A host's answer to a call. */
export type Answer = Extract<HostToCore, { type: 'skillResult' | 'said' | 'stopped' | 'map' | 'scene' }>;

/**
 * @example
 * const calls = new HostCalls<Slot>((slot, msg) => source.send(slot.key, msg));
 * const said = await calls.say({ avatar: 'demo', slot, placement: 3 }, 'hello');
 */
export class HostCalls<S> {
  #pending = new Map<number, Pending<S>>();
  #calls = 0;
  #send: (slot: S, msg: CoreToHost) => boolean;

  /** `send` sends to a host, false when it cannot (the call is then answered at once). */
  constructor(send: (slot: S, msg: CoreToHost) => boolean) {
    this.#send = send;
  }

  say(to: CallTo<S>, line: string): Promise<SayOutcome> {
    return new Promise((resolve) => this.#ask({ ...to, kind: 'say', resolve }, (call) => ({ type: 'say', avatar: to.avatar, placement: to.placement, call, line })));
  }

  stop(to: CallTo<S>): Promise<void> {
    return new Promise((resolve) => this.#ask({ ...to, kind: 'stop', resolve }, (call) => ({ type: 'stop', avatar: to.avatar, placement: to.placement, call })));
  }

  map(to: CallTo<S>, radius: number): Promise<TopDownMap | null> {
    return new Promise((resolve) => this.#ask({ ...to, kind: 'map', resolve }, (call) => ({ type: 'map', avatar: to.avatar, placement: to.placement, call, radius })));
  }

  scene(to: CallTo<S>, radius: number, blocks: boolean): Promise<Scene | null> {
    return new Promise((resolve) => this.#ask({ ...to, kind: 'scene', resolve }, (call) => ({ type: 'scene', avatar: to.avatar, placement: to.placement, call, radius, blocks })));
  }

  /** Run a skill there; the signal aborting sends an abort to the host. */
  skill(to: CallTo<S>, id: string, params: unknown, signal: AbortSignal): Promise<SkillResult> {
    return new Promise<SkillResult>((resolve) => {
      let call = 0;
      const onAbort = (): void => {
        const reason: unknown = signal.reason;
        this.#send(to.slot, { type: 'abort', call, reason: reason instanceof Error ? reason.message : String(reason ?? 'aborted') });
      };
      const done = (r: SkillResult): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#ask({ ...to, kind: 'skill', skill: id, resolve: done }, (n) => {
        call = n;
        return { type: 'skill', avatar: to.avatar, placement: to.placement, call: n, skill: id, params, aborted: signal.aborted };
      });
    });
  }

  /**
   * A host's answer: it settles its call when it comes from the host and placement the call went to. Otherwise
   * (a late answer: the call was ended already, or the avatar plays elsewhere now) it is not taken, and this says
   * which avatar the call was about, if it is still open.
   */
  answered(slot: S, m: Answer): { taken: true } | { taken: false; avatar: string | null } {
    const p = this.#pending.get(m.call);
    if (p?.slot === slot && p.placement === m.placement) {
      this.#answer(m.call, m);
      return { taken: true };
    }
    return { taken: false, avatar: p?.avatar ?? null };
  }

  /** End the calls to `slot` (about `avatar` only, when given) as a dropped connection ends them. */
  endAll(slot: S, avatar?: string): void {
    for (const [call, p] of [...this.#pending]) if (p.slot === slot && (avatar === undefined || p.avatar === avatar)) this.#answer(call);
  }

  #ask(p: Pending<S>, build: (call: number) => CoreToHost): void {
    const call = ++this.#calls;
    this.#pending.set(call, p);
    if (!this.#send(p.slot, build(call))) this.#answer(call);
  }

  /** Settle a call, with the host's answer or, when there is none, the one a dropped connection gives. */
  #answer(call: number, reply?: HostToCore): void {
    const p = this.#pending.get(call);
    if (!p) return;
    this.#pending.delete(call);
    if (p.kind === 'skill') p.resolve(reply?.type === 'skillResult' ? reply.result : { ok: false, code: 'aborted', detail: `${p.skill} was stopped` });
    else if (p.kind === 'map') p.resolve(reply?.type === 'map' ? reply.map : null);
    else if (p.kind === 'scene') p.resolve(reply?.type === 'scene' ? reply.scene : null);
    else if (p.kind === 'say') p.resolve(reply?.type === 'said' ? reply.outcome : 'not_in_game');
    else p.resolve();
  }
}
