/**
 * The command contract: one command, one file, served by every bridge.
 *
 * Options are a zod object. Discord builds slash options from it; Telegram
 * and the console parse text into it (positional in the order of
 * `positional`, and `name:value` too). A command works only through the
 * {@link CommandHost} (what a command may read and do; rights are checked
 * there) and returns the reply text; the router posts it to the chat the
 * command came from.
 */
import type { z } from 'zod';
import type { ChatContext, Platform } from '../src/chat.ts';
import type { CommandHost, CommandReply } from '../src/command-host.ts';

export type { CommandHost, CommandReply, ControlledAvatar, KeptSkill, WatchedAvatar } from '../src/command-host.ts';

/**
 * Who may run a command: `anyone` (`/help`, `/pair`), someone mindlink `known`s, someone who may
 * `control` an avatar from here, someone who `own`s an avatar (schedules, engines: not a pilot), or
 * an `admin`. The dispatcher keeps strangers out of all but `anyone`; the finer rights are checked by
 * the host when the command acts (one place), and `/help` lists only what the asker may run.
 */
export type CommandAccess = 'anyone' | 'known' | 'control' | 'own' | 'admin';

/** What a command run gets besides its options. */
export interface CommandContext {
  host: CommandHost;
  chat: ChatContext;
  /** The commands offered on the chat's platform, in /help order. */
  commands: readonly Command[];
}

/**
 * A command.
 *
 * @example
 * export const play: Command<typeof options> = {
 *   name: 'play', description: 'Start an avatar', usage: '[avatar]', options, positional: ['avatar'],
 *   async run({ host, chat }, { avatar }) { const a = host.control(chat, avatar); … return { avatar: a.name, text: 'Playing.' }; },
 * };
 */
export interface Command<S extends z.ZodObject = z.ZodObject> {
  /**
   * The command's name (`play`), or two words for one command of a group (`avatar create`): typed as
   * `/avatar create …`, offered on Discord as the sub-command `create` of `/avatar`.
   */
  name: string;
  /** For a command of a group: what the group does, for the command menus (the same on each of its commands). */
  groupDescription?: string;
  /** One line, shown in /help and in the platform's command menu (≤ 100 chars); it does not repeat the usage. */
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
  /** Who may run it. */
  access: CommandAccess;
  /** Listed by /help only once the llm engine is configured or used (`/engine`, `/usage`). */
  llmOnly?: boolean;
  /** Listed by /help and offered in the command menus only while the people's MCP server is on (`/mcp …`, MCP=on). */
  mcpOnly?: boolean;
  /**
   * Where it can work at all, beyond `access` (which /help checks anyway): `/share` needs a Discord server's
   * channel and Manage Server, `/pair` a code waiting to be used. /help leaves it out elsewhere; absent: anywhere.
   */
  offered?(host: CommandHost, chat: ChatContext): boolean;
  /** Only who may manage the Discord server can run it (`/share`): Discord's menu shows it to them alone (docs/discord.md). */
  guildManagers?: boolean;
  /** It belongs in a private chat with the bot (`/pair`: a code typed in a group is seen by all): group menus leave it out. */
  privateOnly?: boolean;
  /** The reply is an acknowledgement the whole chat should see (a goal set, an avatar created); on Discord other replies go only to the sender. */
  announce?: boolean;
  /**
   * It waits on the network (a ping of a Minecraft server, up to seconds): the lines typed after it are
   * handled at once, not behind it, and its reply is posted when it is done (Discord defers it alike).
   * A line that needs its effect waits for it where it acts (`/avatar create … server:x` waits for the
   * `/server add` of x: `ServerDesk.settled`).
   */
  detached?: boolean;
  run(ctx: CommandContext, options: z.infer<S>): Promise<CommandReply>;
}
