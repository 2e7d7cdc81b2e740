/**
 * The command dispatcher: finds the command an invocation names (on its
 * platform), keeps strangers out of all but the open ones, reads the
 * options (Discord's structured ones, or the text), and runs it against
 * the host.
 */
import type { CommandInvocation } from '../src/chat.ts';
import type { CommandHost, CommandReply } from '../src/command-host.ts';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';
import { parseCommandArgs, validateOptions } from './parse.ts';

/**
 * Run one invocation. Throws UserError for an unknown command, bad arguments or a refusal.
 *
 * @example
 * const reply = await dispatchCommand(commands, { ...chat, name: 'play', argsText: 'steve' }, host);
 */
export async function dispatchCommand(list: readonly Command[], inv: CommandInvocation, host: CommandHost): Promise<CommandReply> {
  const offered = list.filter((c) => !c.platforms || c.platforms.includes(inv.platform));
  const { command, argsText } = findCommand(offered, inv.name, inv.argsText ?? '', () => host.requireKnown(inv));
  if (command.access !== 'anyone') host.requireKnown(inv);
  const names = host.visible(inv).map((a) => a.name);
  // Discord's structured options are checked by the schema as typed ones are.
  const options = inv.options ? validateOptions(command, inv.options) : parseCommandArgs(command, argsText, names);
  const reply = await command.run({ host, chat: inv, commands: offered }, options);
  return command.announce === true ? { ...reply, announce: true } : reply;
}

/**
 * Whether an invocation names a command that waits on the network ({@link Command.detached}); false for
 * an unknown one (its refusal comes in order, when it runs).
 *
 * @example
 * isDetached(commands, { ...chat, name: 'server', argsText: 'add survival play.example.net' }) // → true
 */
export function isDetached(list: readonly Command[], inv: CommandInvocation): boolean {
  const offered = list.filter((c) => !c.platforms || c.platforms.includes(inv.platform));
  return lookUp(offered, inv.name, inv.argsText ?? '').command?.detached === true;
}

/** The command a name means (see {@link findCommand}), or the group it names, or neither. */
function lookUp(offered: readonly Command[], name: string, argsText: string): { command?: Command; argsText: string; group: Command[] } {
  const n = name.toLowerCase().trim().replace(/\s+/g, ' ');
  const exact = offered.find((c) => c.name === n);
  if (exact) return { command: exact, argsText, group: [] };
  const group = offered.filter((c) => c.name.startsWith(`${n} `));
  const [word = '', ...rest] = argsText.trim().split(/\s+/);
  const command = group.find((c) => c.name === `${n} ${word.toLowerCase()}`);
  return command ? { command, argsText: rest.join(' '), group } : { argsText, group };
}

/**
 * The command a name means: `play`, or one of a group — `avatar create` as Discord names it, or
 * `avatar` and the first word of the text (`/avatar create bob`). Throws UserError for no such command;
 * a group without a known second word gets its usage (once `requireKnown` let the sender through).
 */
function findCommand(offered: readonly Command[], name: string, argsText: string, requireKnown: () => void): { command: Command; argsText: string } {
  const found = lookUp(offered, name, argsText);
  if (found.command) return { command: found.command, argsText: found.argsText };
  if (found.group.length === 0) throw new UserError('unknown_command', `There is no /${name} command. /help lists them.`);
  requireKnown();
  throw new UserError('bad_args', `Usage: ${found.group.map((c) => `/${c.name} ${c.usage}`.trim()).join(' · ')}`);
}
