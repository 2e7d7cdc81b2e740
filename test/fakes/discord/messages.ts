/**
 * Message bodies as Discord checks them: the 2000-character limit, empty
 * messages, `allowed_mentions` rules, and which mentions a post would ping.
 */
import { checkComponents, checkEmbeds } from './components.ts';
import { writtenMentions, type Json, type World } from './model.ts';

export interface AllowedMentions {
  parse?: ('users' | 'roles' | 'everyone')[];
  users?: string[];
  roles?: string[];
  replied_user?: boolean;
}

export interface MessageReference {
  message_id: string;
  channel_id?: string;
  guild_id?: string;
  fail_if_not_exists?: boolean;
}

/** A message body as a bot sends it (the fields the fake understands). */
export interface MessageBody {
  content?: string;
  allowed_mentions?: AllowedMentions;
  message_reference?: MessageReference;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  tts?: boolean;
  /** With `enforce_nonce: true`, a second post with the same nonce returns the first message (the fake remembers them for its whole life). */
  nonce?: string | number;
  enforce_nonce?: boolean;
  [key: string]: unknown;
}

/** Who a post notifies. */
export interface Pings {
  users: string[];
  roles: string[];
  everyone: boolean;
}

/** A 4xx answer with Discord's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

/** 400 Invalid Form Body for one field. */
export function formError(field: string, code: string, message: string): ApiError {
  return new ApiError(400, { code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code, message }] } } });
}

export const unknown = {
  channel: () => new ApiError(404, { code: 10003, message: 'Unknown Channel' }),
  message: () => new ApiError(404, { code: 10008, message: 'Unknown Message' }),
  guild: () => new ApiError(404, { code: 10004, message: 'Unknown Guild' }),
  member: () => new ApiError(404, { code: 10007, message: 'Unknown Member' }),
  user: () => new ApiError(404, { code: 10013, message: 'Unknown User' }),
  role: () => new ApiError(404, { code: 10011, message: 'Unknown Role' }),
  application: () => new ApiError(404, { code: 10002, message: 'Unknown Application' }),
  command: () => new ApiError(404, { code: 10063, message: 'Unknown application command' }),
  interaction: () => new ApiError(404, { code: 10062, message: 'Unknown interaction' }),
  webhook: () => new ApiError(404, { code: 10015, message: 'Unknown Webhook' }),
};

export const missingAccess = () => new ApiError(403, { code: 50001, message: 'Missing Access' });

/**
 * Checks a message body (`create`: a new message, which must not be empty).
 * Throws {@link ApiError} as Discord would answer.
 */
export function checkBody(raw: unknown, create: boolean): MessageBody {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ApiError(400, { code: 50109, message: 'The request body contains invalid JSON.' });
  }
  const body = raw as MessageBody;
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
    throw formError('content', 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
  }
  const content = body.content ?? '';
  if (content.length > 2000) throw formError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  if (create && content.trim() === '' && !body.embeds?.length && !body.components?.length) {
    throw new ApiError(400, { code: 50006, message: 'Cannot send an empty message' });
  }
  checkEmbeds(body.embeds);
  checkComponents(body.components);
  const nonce = body.nonce;
  if (nonce !== undefined && nonce !== null) {
    const ok = typeof nonce === 'string' ? nonce.length <= 25 : typeof nonce === 'number' && Number.isSafeInteger(nonce);
    if (!ok) throw formError('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be an integer or a string of 25 or fewer characters.');
  }
  const am = body.allowed_mentions;
  if (am !== undefined && am !== null) {
    const bad = (message: string) => formError('allowed_mentions', 'ALLOWED_MENTIONS_INVALID', message);
    if (typeof am !== 'object' || Array.isArray(am)) throw bad('Must be an object.');
    if (am.parse !== undefined && (!Array.isArray(am.parse) || am.parse.some((p) => !['users', 'roles', 'everyone'].includes(p)))) {
      throw bad('parse: must be a list of "users", "roles", "everyone".');
    }
    for (const kind of ['users', 'roles'] as const) {
      const ids = am[kind];
      if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || !/^\d+$/.test(id)))) {
        throw bad(`${kind}: must be a list of snowflakes.`);
      }
    }
    if (am.replied_user !== undefined && typeof am.replied_user !== 'boolean') throw bad('replied_user: must be a boolean.');
    const parse = am.parse ?? [];
    for (const kind of ['users', 'roles'] as const) {
      if (parse.includes(kind) && (am[kind]?.length ?? 0) > 0) {
        throw formError(
          'allowed_mentions',
          'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
          `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
        );
      }
      if ((am[kind]?.length ?? 0) > 100) throw formError('allowed_mentions', 'BASE_TYPE_MAX_LENGTH', `${kind}: at most 100.`);
    }
  }
  return body;
}

/**
 * Who a post with this content would notify, judged by `allowed_mentions`
 * alone: as if the bot had Mention Everyone and every role were mentionable
 * (the worst case, so a test shows that `allowed_mentions` by itself keeps
 * @everyone, roles and strangers from being pinged). Without
 * `allowed_mentions` everything written is parsed, and a reply pings the
 * replied-to author, as on Discord.
 */
export function resolvePings(
  world: World,
  guildId: string | null,
  content: string,
  allowed: AllowedMentions | undefined | null,
  repliedAuthorId: string | null,
): Pings {
  const written = writtenMentions(content);
  const knownUser = (id: string) => world.users.has(id);
  const knownRole = (id: string) => (guildId ? world.guilds.get(guildId)?.roles.has(id) === true : false);
  let users: string[];
  let roles: string[];
  let everyone: boolean;
  let repliedUser: boolean;
  if (allowed === undefined || allowed === null) {
    users = written.users.filter(knownUser);
    roles = written.roles.filter(knownRole);
    everyone = written.everyone;
    repliedUser = true;
  } else {
    const parse = allowed.parse ?? [];
    users = written.users.filter((id) => knownUser(id) && (parse.includes('users') || (allowed.users ?? []).includes(id)));
    roles = written.roles.filter((id) => knownRole(id) && (parse.includes('roles') || (allowed.roles ?? []).includes(id)));
    everyone = written.everyone && parse.includes('everyone');
    repliedUser = allowed.replied_user === true;
  }
  if (repliedUser && repliedAuthorId && repliedAuthorId !== world.bot.id && !users.includes(repliedAuthorId)) {
    users = [...users, repliedAuthorId];
  }
  return { users, roles, everyone };
}
