/**
 * The skill gate: one avatar does one thing at a time, and a reflex can pre-empt it.
 *
 * Skills run their body through {@link SkillGate.run} (skills/common.ts does it for
 * them). A reflex calls {@link SkillGate.preempt}: the running skill's signal is
 * aborted with a {@link PreemptedError} (the skill returns code `preempted`), the
 * reflex acts, and skills started meanwhile wait until it is done. Skills that the
 * reflex itself runs pass straight through the gate (an AsyncLocalStorage marks
 * the reflex's async context).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The abort reason of a skill interrupted by a reflex. */
export class PreemptedError extends Error {
  /** What pre-empted the skill, e.g. `defend`. */
  readonly by: string;
  constructor(by: string) {
    super(`pre-empted by ${by}`);
    this.name = 'PreemptedError';
    this.by = by;
  }
}

interface Running {
  label: string;
  controller: AbortController;
  settled: Promise<void>;
}

/**
 * Serialises an avatar's skills and lets reflexes interrupt them.
 *
 * @example
 * await gate.run('collect', signal, async (s) => collectLogs(bot, s));
 * await gate.preempt('eat', () => runSkill(eat, game, {}, new AbortController().signal));
 */
export class SkillGate {
  #current: Running | undefined;
  /** Skills started and not settled yet (queued or running): a reflex pre-empts all of them. */
  #active = new Set<AbortController>();
  /** The tail of the queue: resolves when everything started so far has settled. */
  #tail: Promise<void> = Promise.resolve();
  #inReflex = new AsyncLocalStorage<string>();

  /** Label of the running skill or reflex, if any. */
  get current(): string | undefined {
    return this.#current?.label;
  }

  /** Whether a skill is running or waiting for its turn. */
  get busy(): boolean {
    return this.#active.size > 0 || this.#current !== undefined;
  }

  /**
   * Run `fn` as the avatar's current activity, after whatever runs now. Its signal aborts when `signal`
   * aborts or when a reflex pre-empts it (then `signal.reason` is a {@link PreemptedError}).
   * Inside a reflex's {@link SkillGate.preempt} it runs at once.
   */
  async run<T>(label: string, signal: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#inReflex.getStore() !== undefined) return fn(signal);
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal.reason);
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
    const before = this.#tail;
    let settle!: () => void;
    const settled = new Promise<void>((r) => (settle = r));
    this.#tail = before.then(() => settled);
    this.#active.add(controller);
    try {
      await Promise.race([before, abortPromise(controller.signal)]);
      this.#current = { label, controller, settled };
      return await fn(controller.signal);
    } finally {
      this.#active.delete(controller);
      signal.removeEventListener('abort', onAbort);
      if (this.#current?.controller === controller) this.#current = undefined;
      settle();
    }
  }

  /**
   * Interrupt the running skill and any waiting ones, wait until they have stopped, then run `fn` with the gate held.
   * Skills started while `fn` runs wait for it; skills `fn` itself runs pass through.
   */
  async preempt<T>(label: string, fn: () => Promise<T>): Promise<T> {
    for (const c of this.#active) c.abort(new PreemptedError(label));
    const before = this.#tail;
    let settle!: () => void;
    const settled = new Promise<void>((r) => (settle = r));
    this.#tail = before.then(() => settled);
    const controller = new AbortController();
    try {
      await before;
      this.#current = { label, controller, settled };
      return await this.#inReflex.run(label, fn);
    } finally {
      if (this.#current?.controller === controller) this.#current = undefined;
      settle();
    }
  }

  /** Abort whatever runs now (used when the game stops). */
  abortCurrent(reason: Error): void {
    for (const c of this.#active) c.abort(reason);
    this.#current?.controller.abort(reason);
  }
}

/** A promise that rejects when the signal aborts (never settles otherwise). */
function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
