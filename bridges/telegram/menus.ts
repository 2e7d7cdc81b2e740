/**
 * Telegram's command menus (docs/telegram.md "The command menu"), one per kind of chat: the default and
 * private chats' offer every command; groups what their members use; groups' administrators also what
 * sets an avatar up there. Telegram shows each chat the most specific menu that applies to it.
 */
import type { Api } from 'grammy';
import type { BotCommandScope } from 'grammy/types';
import type { Logger } from '../../src/logger.ts';
import { safeError } from './delivery.ts';

/** A command menu entry: a typed name and what it does. */
export type MenuEntry = { name: string; description: string };

/** Telegram command names: 1–32 of a–z, 0–9, `_`. */
const COMMAND_NAME = /^[a-z0-9_]{1,32}$/;

/** The entries Telegram takes (a valid name, a description of at most 256 characters). */
function botCommands(entries: readonly MenuEntry[]): { command: string; description: string }[] {
  return entries.filter((c) => COMMAND_NAME.test(c.name) && c.description.trim() !== '').map((c) => ({ command: c.name, description: c.description.slice(0, 256) }));
}

/**
 * Set the menus: `commands` as the default and for private chats; with `groupMenus`, groups' and their
 * administrators' too. A menu Telegram refuses is logged and left out (typed commands work without it).
 *
 * @example
 * await registerMenus(bot.api, menus.private, { groups: menus.groups, groupAdmins: menus.groupAdmins }, log);
 */
export async function registerMenus(
  api: Api,
  commands: readonly MenuEntry[],
  groupMenus: { groups: readonly MenuEntry[]; groupAdmins: readonly MenuEntry[] } | undefined,
  log: Logger,
): Promise<void> {
  const scoped: [BotCommandScope | undefined, readonly MenuEntry[]][] = [[undefined, commands]];
  if (groupMenus) {
    scoped.push([{ type: 'all_private_chats' }, commands], [{ type: 'all_group_chats' }, groupMenus.groups], [{ type: 'all_chat_administrators' }, groupMenus.groupAdmins]);
  }
  for (const [scope, entries] of scoped) {
    try {
      await api.setMyCommands(botCommands(entries), scope ? { scope } : {});
    } catch (err) {
      log.warn({ err: safeError(err), scope: scope?.type ?? 'default' }, 'telegram: setMyCommands failed');
    }
  }
}
