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
  const n = inv.name.toLowerCase();
  const command = offered.find((c) => c.name === n);
  if (!command) throw new UserError('unknown_command', `There is no /${inv.name} command. /help lists them.`);
  if (command.access !== 'anyone') host.requireKnown(inv);
  const names = host.visible(inv).map((a) => a.name);
  // Discord's structured options are checked by the schema as typed ones are.
  const options = inv.options ? validateOptions(command, inv.options) : parseCommandArgs(command, inv.argsText ?? '', names);
  const reply = await command.run({ host, chat: inv, commands: offered }, options);
  return command.announce === true ? { ...reply, announce: true } : reply;
}
