/**
 * The command registry: one line per command. Every bridge serves this list
 * (Discord slash commands, Telegram bot commands, console words).
 */
import type { Platform } from '../src/chat.ts';
import type { CommandDispatcher } from '../src/command-host.ts';
import type { Command } from './command.ts';
import { avatar } from './avatar.ts';
import { avatarMove } from './avatar-move.ts';
import { avatarRemove } from './avatar-remove.ts';
import { avatarRename } from './avatar-rename.ts';
import { avatars } from './avatars.ts';
import { digest } from './digest.ts';
import { direction } from './direction.ts';
import { dispatchCommand, isDetached } from './dispatch.ts';
import { engine } from './engine.ts';
import { goal } from './goal.ts';
import { help } from './help.ts';
import { link } from './link.ts';
import { mcpList } from './mcp-list.ts';
import { mcpNew } from './mcp-new.ts';
import { mcpRevoke } from './mcp-revoke.ts';
import { owner } from './owner.ts';
import { pair } from './pair.ts';
import { parked } from './parked.ts';
import { placeRemove } from './place-remove.ts';
import { placeSet } from './place-set.ts';
import { places } from './places.ts';
import { play } from './play.ts';
import { relay } from './relay.ts';
import { say } from './say.ts';
import { schedule } from './schedule.ts';
import { schedules } from './schedules.ts';
import { serverAdd } from './server-add.ts';
import { serverRemove } from './server-remove.ts';
import { serverTest } from './server-test.ts';
import { servers } from './servers.ts';
import { share } from './share.ts';
import { skillRemove } from './skill-remove.ts';
import { skillShow } from './skill-show.ts';
import { skills } from './skills.ts';
import { status } from './status.ts';
import { stop } from './stop.ts';
import { timezone } from './timezone.ts';
import { unlink } from './unlink.ts';
import { unpark } from './unpark.ts';
import { unschedule } from './unschedule.ts';
import { usage } from './usage.ts';
import { unshare } from './unshare.ts';
import { verbose } from './verbose.ts';
import { web } from './web.ts';

export type { Command, CommandContext, CommandHost, CommandReply } from './command.ts';
export { parseCommandArgs, validateOptions } from './parse.ts';

/** Every command, in /help order. */
export const commands: readonly Command[] = [
  play,
  stop,
  status,
  goal,
  direction,
  parked,
  unpark,
  say,
  skills,
  skillShow,
  skillRemove,
  places,
  placeSet,
  placeRemove,
  avatars,
  avatar,
  avatarRemove,
  avatarRename,
  avatarMove,
  servers,
  serverAdd,
  serverRemove,
  serverTest,
  link,
  unlink,
  share,
  unshare,
  verbose,
  relay,
  owner,
  schedule,
  schedules,
  unschedule,
  timezone,
  digest,
  engine,
  usage,
  web,
  mcpNew,
  mcpList,
  mcpRevoke,
  pair,
  help,
] as const as readonly Command[];

/**
 * The commands offered on a platform: its command menu, and what `/help` chooses from. `llm: false`
 * leaves out the llm engine's commands (`/engine`, `/usage`) where it is neither configured nor used
 * (`llmOffered` of `src/command-host.ts`); the MCP tokens' (`/mcp …`) come only with `mcp: true`, where MCP is
 * on, as `/help` offers them.
 */
export function commandList(platform: Platform, opts: { llm?: boolean; mcp?: boolean } = {}): Command[] {
  return commands.filter((c) => (!c.platforms || c.platforms.includes(platform)) && (opts.llm !== false || !c.llmOnly) && (opts.mcp === true || !c.mcpOnly));
}

/**
 * One command menu entry per typed name: the commands of a group (`avatar create`, `avatar remove`)
 * become one entry (`avatar`) with the group's description, as Telegram's menu wants them.
 *
 * @example
 * menuEntries(commandList('telegram')) // → [{ name: 'play', description: 'Start …' }, …, { name: 'avatar', description: 'Create, remove, rename or move an avatar' }, …]
 */
export function menuEntries(list: readonly Command[]): { name: string; description: string }[] {
  const out: { name: string; description: string }[] = [];
  for (const c of list) {
    const [head = c.name, sub] = c.name.split(' ');
    if (out.some((e) => e.name === head)) continue;
    out.push({ name: head, description: sub ? (c.groupDescription ?? c.description) : c.description });
  }
  return out;
}

/** A command menu entry: a typed name and what it does. */
export type MenuEntry = ReturnType<typeof menuEntries>[number];

/**
 * Telegram's menus per kind of chat (docs/telegram.md "The command menu"): a private chat offers every
 * command; a group offers what its members use (watching and steering avatars: `anyone`, `known` and
 * `control` commands); a group's administrators also get what sets an avatar up there (links, digests,
 * schedules, admin commands). `/pair` stays in private chats.
 *
 * @example
 * telegramMenus(commandList('telegram')).groups.map((e) => e.name) // → ['play', 'stop', 'status', 'goal', …, 'help']
 */
export function telegramMenus(list: readonly Command[]): { private: MenuEntry[]; groups: MenuEntry[]; groupAdmins: MenuEntry[] } {
  const inGroups = list.filter((c) => !c.privateOnly);
  return {
    private: menuEntries(list),
    groups: menuEntries(inGroups.filter((c) => c.access === 'anyone' || c.access === 'known' || c.access === 'control')),
    groupAdmins: menuEntries(inGroups),
  };
}

/**
 * The production dispatcher over {@link commands}, for the core.
 *
 * @example
 * const core = await Mindlink.start({ config, log, games, engines, skills: createSkillRegistry, commands: createDispatcher() });
 */
export function createDispatcher(list: readonly Command[] = commands): CommandDispatcher {
  return { run: (inv, host) => dispatchCommand(list, inv, host), detached: (inv) => isDetached(list, inv) };
}
