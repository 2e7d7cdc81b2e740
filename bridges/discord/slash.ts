/**
 * Slash commands from mindlink's commands: each command's zod options become
 * Discord application-command options (strings, integers, numbers, booleans,
 * enums as choices, a role option where the schema says `chatType: 'role'`,
 * avatar names autocompleted), and an interaction's options go back into the
 * shape the command's schema checks.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  PermissionFlagsBits,
  type APIApplicationCommandBasicOption,
  type CommandInteractionOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { z } from 'zod';

/** What the bridge needs of a command (the `Command` contract of `commands/` fits). */
export interface SlashSource {
  /** `play`, or two words for a sub-command (`avatar create` is `create` of `/avatar`). */
  name: string;
  description: string;
  /** A sub-command's group, as the menu describes it. */
  groupDescription?: string;
  options: z.ZodObject;
  /** Who may run it (`admin`: mindlink's admins only). */
  access?: string;
  /** Only who may manage the Discord server can run it. */
  guildManagers?: boolean;
}

/**
 * Whether a command is for those who manage a server (mindlink's admin commands, `/share`): Discord's menu
 * shows it in a server only to members with Manage Server (`default_member_permissions`; the server's
 * Integrations settings can allow others). In a DM with the bot every command shows, so a mindlink admin
 * without Manage Server runs them there (docs/discord.md "The command menu").
 */
function forManagers(c: SlashSource): boolean {
  return c.access === 'admin' || c.guildManagers === true;
}

/** `default_member_permissions` of Manage Server. */
const MANAGE_GUILD = String(PermissionFlagsBits.ManageGuild);

/** Option names whose values are avatar names: autocompleted from the avatars the user may see. */
const AVATAR_OPTIONS = new Set(['avatar']);

/** Discord's limits on names and descriptions. */
const NAME = /^[-_a-z0-9]{1,32}$/;
const MAX_DESCRIPTION = 100;
const MAX_CHOICES = 25;

interface Unwrapped {
  inner: z.ZodType;
  required: boolean;
  description: string | undefined;
  chatType: unknown;
}

/** Peel `optional` / `default` / transforms off a field, collecting its description and metadata from every layer. */
function unwrap(field: z.ZodType): Unwrapped {
  let node = field;
  let required = true;
  let description = field.description;
  let chatType = field.meta()?.chatType;
  for (;;) {
    const def = node.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'nullable') && def.innerType) {
      required = false;
      node = def.innerType;
      description ??= node.description;
      chatType ??= node.meta()?.chatType;
      continue;
    }
    // A transform (`.transform()`, `.pipe()`): what the user types is its input side.
    if (def.type === 'pipe' && def.in) {
      node = def.in;
      description ??= node.description;
      chatType ??= node.meta()?.chatType;
      continue;
    }
    return { inner: node, required, description, chatType };
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function defaultDescription(key: string): string {
  if (AVATAR_OPTIONS.has(key)) return 'The avatar (may be left out where only one is linked or yours)';
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/** One field of a command's schema as a Discord option. Throws for a type Discord cannot express (a bug in a command). */
export function slashOption(command: string, key: string, field: z.ZodType): APIApplicationCommandBasicOption {
  if (!NAME.test(key)) throw new Error(`/${command}: option "${key}" is not a valid Discord option name`);
  const { inner, required, description, chatType } = unwrap(field);
  const base = { name: key, description: clip(description ?? defaultDescription(key), MAX_DESCRIPTION), required };
  if (chatType === 'role') return { ...base, type: ApplicationCommandOptionType.Role };
  const def = inner.def as { type: string; entries?: Record<string, string | number> };
  switch (def.type) {
    case 'enum': {
      const values = Object.values(def.entries ?? {}).map(String).slice(0, MAX_CHOICES);
      return { ...base, type: ApplicationCommandOptionType.String, choices: values.map((v) => ({ name: v, value: v })) };
    }
    case 'string': {
      const s = inner as z.ZodString;
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        ...(s.minLength !== null && s.minLength > 0 ? { min_length: Math.min(s.minLength, 6000) } : {}),
        ...(s.maxLength !== null ? { max_length: Math.min(s.maxLength, 6000) } : {}),
        ...(AVATAR_OPTIONS.has(key) ? { autocomplete: true } : {}),
      };
    }
    case 'number': {
      const n = inner as z.ZodNumber;
      return n.isInt ? { ...base, type: ApplicationCommandOptionType.Integer } : { ...base, type: ApplicationCommandOptionType.Number };
    }
    case 'boolean':
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    default:
      throw new Error(`/${command}: option "${key}" has a type (${def.type}) Discord options cannot express`);
  }
}

/**
 * The bulk-overwrite body for these commands: chat-input commands usable in
 * guilds and in DMs with the bot, required options first (Discord's rule).
 *
 * @example
 * const body = slashCommands(commandList('discord'));
 * await rest.put(Routes.applicationCommands(appId), { body });
 */
export function slashCommands(commands: readonly SlashSource[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const body: RESTPostAPIChatInputApplicationCommandsJSONBody[] = [];
  const chatInput = (name: string, description: string): RESTPostAPIChatInputApplicationCommandsJSONBody => ({
    type: ApplicationCommandType.ChatInput,
    name,
    description: clip(description, MAX_DESCRIPTION),
    options: [],
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
  });
  // A group's one slash command is for managers only when every command of it is.
  const managersOnly = (head: string): boolean => commands.filter((c) => c.name === head || c.name.startsWith(`${head} `)).every(forManagers);
  for (const c of commands) {
    const [head = '', sub, ...more] = c.name.split(' ');
    for (const part of [head, ...(sub ? [sub] : [])]) if (!NAME.test(part) || more.length > 0) throw new Error(`"${c.name}" is not a valid Discord command name`);
    const options = Object.entries(c.options.shape as Record<string, z.ZodType>).map(([key, field]) => slashOption(c.name, key, field));
    const ordered = [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
    const permissions = managersOnly(head) ? { default_member_permissions: MANAGE_GUILD } : {};
    if (!sub) {
      body.push({ ...chatInput(head, c.description), ...permissions, options: ordered });
      continue;
    }
    // A command of a group is a sub-command of the group's one slash command.
    let group = body.find((b) => b.name === head);
    if (!group) {
      group = { ...chatInput(head, c.groupDescription ?? c.description), ...permissions };
      body.push(group);
    }
    group.options?.push({ type: ApplicationCommandOptionType.Subcommand, name: sub, description: clip(c.description, MAX_DESCRIPTION), options: ordered });
  }
  return body;
}

/** The name the core knows an interaction's command by: `play`, or `avatar create` for a sub-command. */
export function commandNameOf(commandName: string, data: readonly CommandInteractionOption[]): string {
  const sub = data.find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  return sub ? `${commandName} ${sub.name}` : commandName;
}

/**
 * An interaction's options as the command's schema reads them: `{ name: value }`
 * (a role option gives the role id); for a sub-command, its own options.
 */
export function optionValues(data: readonly CommandInteractionOption[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  // A sub-command's own options are the command's.
  const sub = data.find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  for (const o of sub ? (sub.options ?? []) : data) {
    if (o.value !== undefined) values[o.name] = typeof o.value === 'string' ? o.value.trim() : o.value;
  }
  return values;
}
