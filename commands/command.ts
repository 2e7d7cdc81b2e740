/**
 * The command contract: one command, one file, served by every bridge.
 *
 * Options are a zod object. Discord builds slash options from it; Telegram
 * and the console parse text into it (positional in the order of
 * `positional`, and `name:value` too). A command returns the reply text; the
 * core posts it to the chat the command came from.
 */
import type { z } from 'zod';
import type { ChatContext, Platform } from '../bridges/bridge.ts';
import type { Mindlink } from '../src/core.ts';

/** What a command run gets besides its options. */
export interface CommandContext {
  core: Mindlink;
  chat: ChatContext;
}

/** A command's reply: the text, and the avatar it is about (console prefix `[name] `), or null (`[mindlink] `). */
export interface CommandReply {
  avatar: string | null;
  text: string;
}

/**
 * A command.
 *
 * @example
 * export const play: Command<typeof options> = {
 *   name: 'play', description: 'Start an avatar', options, positional: ['avatar'],
 *   async run({ core, chat }, { avatar }) { … return { avatar: name, text: 'Playing.' }; },
 * };
 */
export interface Command<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** One line, shown in /help and in the platform's command menu (≤ 100 chars). */
  description: string;
  /** Usage after the name, e.g. `<text> [avatar]`. */
  usage: string;
  options: S;
  /** Option names in positional order. The last string option of kind "rest" takes the remaining words. */
  positional: readonly (keyof z.infer<S> & string)[];
  /** The option that takes the rest of the text (e.g. `text` of /goal). */
  rest?: keyof z.infer<S> & string;
  /** Platforms that offer this command; all when absent. */
  platforms?: readonly Platform[];
  /** Shown only when the LLM engine is configured or used. */
  llmOnly?: boolean;
  run(ctx: CommandContext, options: z.infer<S>): Promise<CommandReply>;
}
