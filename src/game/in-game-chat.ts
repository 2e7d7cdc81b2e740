/**
 * The avatar's side of the game's chat: the lines it says, paced to what
 * servers allow (one a second: vanilla kicks a player who chats much faster),
 * and, only while asked to, the public lines it hears (players' lines and
 * the server's; never whispers, team messages or its own lines). The chat
 * relay (docs/commands.md "The game's chat") and `/say` use it.
 */
import type { Bot } from 'mineflayer';
import { cleanLine } from '../sanitize.ts';
import { cutText } from '../text.ts';
import type { HeardLine, SayOutcome } from './game.ts';

/** The longest line a Minecraft server takes in its chat (1.11 and later). */
export const CHAT_LINE_MAX = 256;

/** The longest line heard that is passed on (a server's announcement can be long). */
const HEARD_MAX = 400;

/** Line breaks, controls (C0, DEL, C1) and the control pictures `src/sanitize.ts` turns controls into where text enters. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2400-\u2421]/;

/**
 * Why `text` cannot be said in the game's chat as one line, in words for the sender, or null when it can.
 *
 * @example
 * chatLineProblem('hello') // → null
 * chatLineProblem('a\nb')  // → 'Minecraft's chat takes one line of plain text: no line breaks or control characters.'
 */
export function chatLineProblem(text: string): string | null {
  if (text.trim() === '') return 'Say what to say, e.g. /say hello.';
  if (text.length > CHAT_LINE_MAX) return `A chat line is at most ${CHAT_LINE_MAX} characters; this one has ${text.length}.`;
  if (CONTROL.test(text)) return "Minecraft's chat takes one line of plain text: no line breaks or control characters.";
  if (text.includes('§')) return "Minecraft's chat does not take § (its formatting codes).";
  return null;
}

/** Chat types of the players' chat that are not public: whispers to and from the avatar, team messages. */
const NOT_PUBLIC = new Set(['commands.message.display.incoming', 'commands.message.display.outgoing', 'chat.type.team.text', 'chat.type.team.sent']);

/** Whispers as servers write them in plain text (vanilla's, and the `[a -> b]` of common plugins), to or from the avatar. */
const WHISPERS = [/^\w+ whispers(?: to you)?:? /, /^\[\w+ -> \w+\s?\] /, /^You whisper to /i];

/** A player's public line, `<name> text`. */
const PLAYER_LINE = /^<([^<>\s]{1,40})> ([\s\S]*)$/;

/** Formatting codes: `§x` (vanilla), `&x` (written as text by some servers, the embedded world among them). */
const FORMATTING = /§[0-9a-fk-or]?/gi;
const AMPERSAND_CODES = /&[0-9a-fk-or]/gi;

/**
 * A chat message as heard (its text, where the client shows it, its chat type's key if any) → the public line
 * it is, or null for what is not passed on: the action bar, whispers, team messages, the avatar's own lines.
 *
 * @example
 * heardLine('<alice> hi', { position: 'system' }, 'demo') // → { from: 'alice', text: 'hi' }
 * heardLine('<demo> hi', { position: 'system' }, 'demo')  // → null
 * heardLine('&ealice joined the game.', { position: 'system' }, 'demo') // → { from: null, text: 'alice joined the game.' }
 */
export function heardLine(text: string, how: { position: string; translate?: string | undefined }, self: string): HeardLine | null {
  if (how.position === 'game_info') return null;
  if (how.translate !== undefined && NOT_PUBLIC.has(how.translate)) return null;
  const line = cleanLine(text).replace(FORMATTING, '').trim();
  if (line === '' || WHISPERS.some((w) => w.test(line))) return null;
  const player = PLAYER_LINE.exec(line);
  if (player) {
    const [, from = '', said = ''] = player;
    if (from.toLowerCase() === self.toLowerCase() || said.trim() === '') return null;
    return { from, text: cutText(said.trim(), HEARD_MAX) };
  }
  const server = line.replace(AMPERSAND_CODES, '').trim();
  // `/me waves` of the avatar itself is its own line too.
  if (server === '' || server.toLowerCase().startsWith(`* ${self.toLowerCase()} `)) return null;
  return { from: null, text: cutText(server, HEARD_MAX) };
}

/** How an {@link InGameChat} reaches its bot and tells what it heard. */
export interface InGameChatOptions {
  /** The avatar's player name now. */
  self(): string;
  /** The live bot while the avatar is in the game. */
  bot(): Bot | undefined;
  /** A public line heard while hearing is on. */
  heard(line: HeardLine): void;
  /** Least time between two lines said (ms). Default 1000. */
  gapMs?: number;
  /** Most lines waiting to be said; one more is refused (`busy`). Default 5. */
  maxWaiting?: number;
}

interface Waiting {
  line: string;
  done(outcome: SayOutcome): void;
}

/**
 * @example
 * const chat = new InGameChat({ self: () => game.username, bot: () => game.bot, heard: (line) => game.emit('heard', line) });
 * chat.attach(bot);            // each new bot of the game
 * chat.hearing = true;         // some chat relays this avatar
 * await chat.say('hello');     // → 'said'
 */
export class InGameChat {
  /** Whether heard lines are passed on. */
  hearing = false;
  private readonly waiting: Waiting[] = [];
  private lastSaidAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: InGameChatOptions) {}

  /** Listen to a new bot's chat (its listener goes with the bot). */
  attach(bot: Bot): void {
    bot.on('message', (msg, position) => {
      if (!this.hearing) return;
      const line = heardLine(msg.toString(), { position, translate: (msg as { translate?: string }).translate }, this.opts.self());
      if (line) this.opts.heard(line);
    });
  }

  /** Say one line (see {@link chatLineProblem}: the caller checked it), after the lines waiting before it. */
  say(line: string): Promise<SayOutcome> {
    if (chatLineProblem(line) !== null) return Promise.reject(new Error('not one chat line'));
    if (!this.opts.bot()) return Promise.resolve('not_in_game');
    if (this.waiting.length >= (this.opts.maxWaiting ?? 5)) return Promise.resolve('busy');
    return new Promise((done) => {
      this.waiting.push({ line, done });
      this.pump();
    });
  }

  private pump(): void {
    if (this.timer !== undefined) return;
    const next = this.waiting[0];
    if (!next) return;
    const wait = this.lastSaidAt + (this.opts.gapMs ?? 1000) - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      this.timer.unref();
      return;
    }
    this.waiting.shift();
    const bot = this.opts.bot();
    if (!bot) {
      next.done('not_in_game');
    } else {
      bot.chat(next.line);
      this.lastSaidAt = Date.now();
      next.done('said');
    }
    this.pump();
  }
}
