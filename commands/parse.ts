/**
 * A command's written form. Text arguments → a command's options (Telegram
 * and the console): positional in the order the command declares,
 * `name:value` too; the `rest` option takes the remaining words. And back:
 * a command with its options, written as the platform takes it.
 */
import type { Platform } from '../src/chat.ts';
import { UserError } from '../src/errors.ts';
import { closestName } from '../src/command-words.ts';
import { plainIssues } from '../src/validation.ts';
import type { Command } from './command.ts';

/**
 * @example
 * parseCommandArgs(goal, 'get 30 logs demo', ['demo']) // → { text: 'get 30 logs', avatar: 'demo' }
 */
export function parseCommandArgs(command: Command, argsText: string, avatarNames: readonly string[]): Record<string, unknown> {
  const keys = Object.keys(command.options.shape);
  const named: Record<string, string> = {};
  const words: string[] = [];
  for (const token of argsText.trim().split(/\s+/).filter(Boolean)) {
    const m = /^([a-z]+):(.+)$/i.exec(token);
    const key = m?.[1]?.toLowerCase();
    if (m && key && keys.includes(key) && m[2]) named[key] = m[2];
    else words.push(token);
  }
  const values: Record<string, unknown> = { ...named };
  const order = command.positional.filter((k) => !(k in named));
  const rest = command.rest && !(command.rest in named) ? command.rest : undefined;
  if (rest) {
    const restIndex = order.indexOf(rest);
    const before = order.slice(0, restIndex);
    const after = order.slice(restIndex + 1);
    for (const k of before) {
      const w = words.shift();
      if (w !== undefined) values[k] = w;
    }
    // Trailing options after the rest (only `avatar` in practice) are taken when the last word is one.
    for (const k of after.reverse()) {
      const last = words[words.length - 1];
      if (last !== undefined && words.length > 1 && (k !== 'avatar' || avatarNames.some((n) => n.toLowerCase() === last.toLowerCase()))) {
        values[k] = last;
        words.pop();
      } else if (k === 'avatar' && last !== undefined && words.length > 1 && closestName(last, avatarNames)) {
        // `/goal collect 1 oak log demoo`: a slip of an avatar's name, not part of the goal.
        throw new UserError(
          'unknown_avatar',
          `There is no avatar called "${last}". Nothing was changed. (If "${last}" belongs to the ${rest}, add avatar:<name>.)`,
        );
      }
    }
    if (words.length > 0) values[rest] = words.join(' ');
  } else {
    for (const k of order) {
      const w = words.shift();
      if (w !== undefined) values[k] = w;
    }
    if (words.length > 0) throw new UserError('bad_args', `Too many words. Usage: /${command.name} ${command.usage}`);
  }
  return validateOptions(command, values);
}

/**
 * Structured options (Discord slash commands, or the words parsed above) → a
 * command's options, checked by its schema; a bad value is a UserError with the usage.
 *
 * @example
 * validateOptions(goal, { text: 'get 30 logs' }) // → { text: 'get 30 logs' }
 */
export function validateOptions(command: Command, values: Record<string, unknown>): Record<string, unknown> {
  const parsed = command.options.safeParse(values, { error: plainIssues });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    throw new UserError('bad_args', `${key ? `${String(key)}: ${issue?.message}. ` : ''}Usage: /${command.name} ${command.usage}`.trim());
  }
  return parsed.data as Record<string, unknown>;
}

/**
 * A command with these options, written as its reader would send it: as Discord shows a slash command
 * (`name:value` options), elsewhere as words in the command's positional order (every option of a command
 * has its place there).
 *
 * @example
 * commandLine('discord', avatarRemove, { name: 'bob', confirm: 'bob' }) // → '/avatar remove name:bob confirm:bob'
 * commandLine('console', avatarRemove, { name: 'bob', confirm: 'bob' }) // → '/avatar remove bob bob'
 */
export function commandLine(platform: Platform, command: Command, values: Readonly<Record<string, string>>): string {
  const words =
    platform === 'discord' ? Object.keys(values).map((k) => `${k}:${values[k]}`) : command.positional.filter((k) => k in values).map((k) => values[k]);
  return [`/${command.name}`, ...words].join(' ');
}
