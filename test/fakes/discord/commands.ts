/**
 * Application commands as Discord stores and checks them: bulk overwrite
 * (global or per guild), with the checks Discord applies to names,
 * descriptions, options and choices (a bad command fails the whole
 * overwrite with 400 Invalid Form Body, as on Discord).
 */
import { ApiError, unknown } from './messages.ts';
import type { Json } from './model.ts';

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** A stored command (what GET …/commands returns). */
export type Command = Json & { id: string; name: string; type: number; options?: Json[] };

function invalid(path: (string | number)[], code: string, message: string): ApiError {
  let errors: Json = { _errors: [{ code, message }] };
  for (const key of [...path].reverse()) errors = { [String(key)]: errors };
  return new ApiError(400, { code: 50035, message: 'Invalid Form Body', errors });
}

function checkName(value: unknown, path: (string | number)[]): void {
  if (typeof value !== 'string' || !NAME.test(value) || value !== value.toLowerCase()) {
    throw invalid([...path, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid: ${JSON.stringify(value)}`);
  }
}

function checkDescription(value: unknown, path: (string | number)[]): void {
  if (typeof value !== 'string' || value.length < 1 || value.length > 100) {
    throw invalid([...path, 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
}

function checkOptions(options: unknown, path: (string | number)[]): void {
  if (options === undefined || options === null) return;
  if (!Array.isArray(options)) throw invalid([...path, 'options'], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType.');
  if (options.length > 25) throw invalid([...path, 'options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  const names = new Set<string>();
  let optionalSeen = false;
  options.forEach((raw: unknown, i) => {
    const at = [...path, 'options', i];
    const o = (raw ?? {}) as Json;
    checkName(o.name, at);
    checkDescription(o.description, at);
    if (typeof o.type !== 'number' || o.type < 1 || o.type > 11) {
      throw invalid([...at, 'type'], 'BASE_TYPE_CHOICES', `Value must be one of (1, …, 11): ${String(o.type)}.`);
    }
    if (names.has(String(o.name))) throw invalid(at, 'APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME', 'Option names must be unique');
    names.add(String(o.name));
    if (o.required === true && optionalSeen) {
      throw invalid(at, 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
    }
    if (o.required !== true && o.type !== 1 && o.type !== 2) optionalSeen = true;
    if (o.choices !== undefined) {
      if (!Array.isArray(o.choices) || o.choices.length > 25) {
        throw invalid([...at, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
      }
      if (o.autocomplete === true && o.choices.length > 0) {
        throw invalid([...at, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE', 'Autocomplete cannot be set with choices');
      }
      o.choices.forEach((c: Json, j: number) => {
        if (typeof c.name !== 'string' || c.name.length < 1 || c.name.length > 100) {
          throw invalid([...at, 'choices', j, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        }
        const value = c.value;
        const ok = o.type === 3 ? typeof value === 'string' && value.length <= 100 : typeof value === 'number';
        if (!ok) throw invalid([...at, 'choices', j, 'value'], 'BASE_TYPE_BAD_TYPE', 'Choice value does not match the option type.');
      });
    }
    if (o.type === 1 || o.type === 2) checkOptions(o.options, at);
  });
}

/** Checks one command of an overwrite; `path` locates errors. */
function checkCommand(raw: unknown, index: number): Json {
  if (typeof raw !== 'object' || raw === null) throw invalid([index], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
  const c = raw as Json;
  const type = c.type ?? 1;
  if (type === 1) {
    checkName(c.name, [index]);
    checkDescription(c.description, [index]);
    checkOptions(c.options, [index]);
    const perms = c.default_member_permissions;
    if (perms !== undefined && perms !== null && !(typeof perms === 'string' && /^\d+$/.test(perms))) {
      throw invalid([index, 'default_member_permissions'], 'PERMISSIONS_INVALID', 'A permission bit set, as a string of digits, or null.');
    }
  } else if (typeof c.name !== 'string' || c.name.length < 1 || c.name.length > 32) {
    throw invalid([index, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 32 in length.');
  }
  return { ...c, type };
}

export class CommandStore {
  readonly global: Command[] = [];
  readonly guilds = new Map<string, Command[]>();
  /** Every accepted bulk overwrite, in order: its scope (`global` or a guild id) and the command names. */
  readonly overwrites: { scope: string; names: string[] }[] = [];
  #version = 0;

  constructor(
    private readonly applicationId: string,
    private readonly nextId: () => string,
  ) {}

  list(guildId: string | null): Command[] {
    return guildId === null ? this.global : (this.guilds.get(guildId) ?? []);
  }

  /** PUT …/commands: replaces the scope's commands (ids are kept for names that stay). */
  overwrite(guildId: string | null, body: unknown): Command[] {
    if (!Array.isArray(body)) throw invalid([], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType.');
    const checked = body.map((c, i) => checkCommand(c, i));
    const seen = new Set<string>();
    checked.forEach((c, i) => {
      const key = `${String(c.type)}:${String(c.name)}`;
      if (seen.has(key)) throw invalid([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
      seen.add(key);
    });
    const old = this.list(guildId);
    const next = checked.map((c) => this.#store(c, guildId, old));
    if (guildId === null) this.global.splice(0, this.global.length, ...next);
    else this.guilds.set(guildId, next);
    this.overwrites.push({ scope: guildId ?? 'global', names: next.map((c) => c.name) });
    return next;
  }

  /** POST …/commands: creates or replaces one command by name. */
  upsert(guildId: string | null, body: unknown): Command {
    const checked = checkCommand(body, 0);
    const list = guildId === null ? this.global : (this.guilds.get(guildId) ?? []);
    const stored = this.#store(checked, guildId, list);
    const at = list.findIndex((c) => c.name === stored.name && c.type === stored.type);
    if (at >= 0) list[at] = stored;
    else list.push(stored);
    if (guildId !== null) this.guilds.set(guildId, list);
    return stored;
  }

  remove(guildId: string | null, commandId: string): void {
    const list = this.list(guildId);
    const at = list.findIndex((c) => c.id === commandId);
    if (at < 0) throw unknown.command();
    list.splice(at, 1);
  }

  /** The chat-input command `name` a user in `guildId` sees (the guild's own first, then global). */
  find(name: string, guildId: string | null, type = 1): Command | undefined {
    const match = (c: Command) => c.name === name && c.type === type;
    return (guildId ? this.guilds.get(guildId)?.find(match) : undefined) ?? this.global.find(match);
  }

  #store(c: Json, guildId: string | null, old: Command[]): Command {
    this.#version += 1;
    const previous = old.find((o) => o.name === c.name && o.type === c.type);
    return {
      default_member_permissions: null,
      nsfw: false,
      contexts: null,
      integration_types: [0],
      description: '',
      ...c,
      id: previous?.id ?? this.nextId(),
      application_id: this.applicationId,
      ...(guildId ? { guild_id: guildId } : {}),
      version: String(this.#version),
      name: String(c.name),
      type: Number(c.type),
    } as Command;
  }
}
