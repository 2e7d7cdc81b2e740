/**
 * A chat's typing indicator kept up while mindlink works on something a person waits for (an answer,
 * the turn their message woke): sent at once, refreshed before the platform lets it lapse, sent again
 * when a message of ours cleared it, and never sent after a message that ends it. A bridge owns one
 * ({@link Bridge.typing} of `src/chat.ts`) with its platform's send and refresh interval.
 */
import type { Logger } from './logger.ts';
import type { Destination } from './store/schema.ts';

/** How a {@link TypingIndicator} works. */
export interface TypingOptions {
  /** Send the platform's typing action to a chat once. */
  send(dest: Destination): Promise<void>;
  /** How often it is sent again while wanted (ms): Discord shows it about 10 s, Telegram about 5 s. */
  everyMs: number;
  /** The longest one spell lasts, whatever happens (ms). Default 120 000. */
  maxMs?: number;
  log: Logger;
}

/** The default of every optional {@link TypingOptions} setting. */
export const DefaultTypingOptions = { maxMs: 120_000 } satisfies Required<Pick<TypingOptions, 'maxMs'>>;

/** One chat's spell. */
interface Spell {
  /** How many waits want it (two questions at once: one spell, until both are answered). */
  holders: number;
  refresh: NodeJS.Timeout;
  cap: NodeJS.Timeout;
}

/**
 * @example
 * const typing = new TypingIndicator({ send: (dest) => api.sendChatAction(chatOf(dest), 'typing'), everyMs: 4000, log });
 * const done = typing.start('telegram:42');   // shown now, and every 4 s
 * await typing.settled('telegram:42');        // before a message goes there: no indicator overtakes it
 * typing.delivered('telegram:42');            // after it went: shown again while still wanted
 * done();
 */
export class TypingIndicator {
  private readonly spells = new Map<Destination, Spell>();
  /** The send in flight per chat. */
  private readonly sending = new Map<Destination, Promise<void>>();
  private readonly maxMs: number;

  constructor(private readonly opts: TypingOptions) {
    this.maxMs = opts.maxMs ?? DefaultTypingOptions.maxMs;
  }

  /** Show typing in `dest` until the returned function is called (once; later calls do nothing). */
  start(dest: Destination): () => void {
    const spell = this.spells.get(dest);
    if (spell) spell.holders += 1;
    else {
      const refresh = setInterval(() => this.send(dest), this.opts.everyMs);
      const cap = setTimeout(() => this.end(dest), this.maxMs);
      refresh.unref();
      cap.unref();
      this.spells.set(dest, { holders: 1, refresh, cap });
      this.send(dest);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const s = this.spells.get(dest);
      if (s && s.holders > 1) s.holders -= 1;
      else this.end(dest);
    };
  }

  /** Whether typing is wanted in `dest` now. */
  active(dest: Destination): boolean {
    return this.spells.has(dest);
  }

  /** Resolves once no typing action to `dest` is in flight: a message sent after it is never overtaken by one. */
  async settled(dest: Destination): Promise<void> {
    await this.sending.get(dest);
  }

  /** A message of ours reached `dest`: the platform cleared the indicator; it is shown again while still wanted. */
  delivered(dest: Destination): void {
    if (this.spells.has(dest)) this.send(dest);
  }

  /** End every spell (the bridge stops). */
  stop(): void {
    for (const dest of [...this.spells.keys()]) this.end(dest);
  }

  private end(dest: Destination): void {
    const spell = this.spells.get(dest);
    if (!spell) return;
    clearInterval(spell.refresh);
    clearTimeout(spell.cap);
    this.spells.delete(dest);
  }

  /** One send; a failure only logs (an indicator is a courtesy), and sends to a chat never overlap. */
  private send(dest: Destination): void {
    if (this.sending.has(dest)) return;
    const sent = this.opts
      .send(dest)
      .catch((err: unknown) => this.opts.log.debug({ err, dest }, 'typing indicator not sent'))
      .finally(() => this.sending.delete(dest));
    this.sending.set(dest, sent);
  }
}
