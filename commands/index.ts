/**
 * The command registry: one line per command. Every bridge serves this list
 * (Discord slash commands, Telegram bot commands, console words).
 */
import type { Platform } from '../bridges/bridge.ts';
import type { Command } from './command.ts';
import { avatar } from './avatar.ts';
import { avatars } from './avatars.ts';
import { direction } from './direction.ts';
import { goal } from './goal.ts';
import { help } from './help.ts';
import { link } from './link.ts';
import { owner } from './owner.ts';
import { pair } from './pair.ts';
import { play } from './play.ts';
import { status } from './status.ts';
import { stop } from './stop.ts';
import { unlink } from './unlink.ts';

export type { Command, CommandContext, CommandReply } from './command.ts';
export { parseCommandArgs } from './parse.ts';

/** Every command, in /help order. */
export const commands: readonly Command[] = [play, stop, status, goal, direction, avatars, avatar, link, unlink, owner, pair, help] as const as readonly Command[];

/** The commands offered on a platform. */
export function commandList(platform: Platform): Command[] {
  return commands.filter((c) => !c.platforms || c.platforms.includes(platform));
}

/** A command by name (case-insensitive) if offered on the platform. */
export function findCommand(name: string, platform: Platform): Command | undefined {
  const n = name.toLowerCase();
  return commandList(platform).find((c) => c.name === n);
}
