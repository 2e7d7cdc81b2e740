/**
 * The whispers an avatar heard since its engine's last turn: the model reads
 * them (quoted, untrusted) in its next turn's message. At most the last 20
 * are kept; a turn that is cut short puts its lines back for the next one.
 */
import type { AvatarGame } from '../../game/game.ts';
import type { HeardLine } from './prompts.ts';

/** How many whispered lines wait for the next turn at most (the oldest go first). */
const HEARD_KEPT = 20;

/**
 * @example
 * const whispers = new WhisperInbox(ctx.game);
 * const heard = whispers.take();
 * // … the turn was interrupted:
 * whispers.putBack(heard);
 */
export class WhisperInbox {
  private readonly heard: HeardLine[] = [];

  constructor(private readonly game: AvatarGame) {
    game.on('whispered', this.onWhisper);
  }

  private readonly onWhisper = (from: string, text: string): void => {
    this.heard.push({ from, text });
    this.trim();
  };

  private trim(): void {
    if (this.heard.length > HEARD_KEPT) this.heard.splice(0, this.heard.length - HEARD_KEPT);
  }

  /** Every line heard since the last take, oldest first; the inbox is empty after. */
  take(): HeardLine[] {
    return this.heard.splice(0);
  }

  /** Lines a cut-short turn took are news again, before anything heard since. */
  putBack(lines: readonly HeardLine[]): void {
    this.heard.unshift(...lines);
    this.trim();
  }

  /** Stop listening (the avatar's engine is being replaced). */
  close(): void {
    this.game.off('whispered', this.onWhisper);
  }
}
