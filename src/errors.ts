/**
 * The error kinds of mindlink.
 *
 * Only a {@link UserError} has a message meant for a chat. Anything else that
 * reaches a boundary (a command dispatch, a loop turn, a bridge handler) is
 * logged with a reference and shown in chat as "something went wrong (ref …)".
 */

/**
 * Every kind of {@link UserError}: a closed list of stable identifiers, so a test or a log filter can
 * name one and a new kind is added here, on purpose, not made up at the throw.
 */
export type UserErrorCode =
  // A change that could not be written to disk (kept in memory).
  | 'not_saved'
  // A message or command that cannot be read.
  | 'too_long'
  | 'empty_message'
  | 'empty_goal'
  | 'impossible_goal'
  | 'bad_args'
  | 'unknown_command'
  // Who is speaking, and what they may do.
  | 'stranger'
  | 'nothing_here'
  | 'not_allowed'
  | 'not_admin'
  | 'pair_wrong'
  | 'pair_locked'
  // Which avatar, and what it can do now.
  | 'unknown_avatar'
  | 'which_avatar'
  | 'no_avatar'
  | 'bad_name'
  | 'name_taken'
  | 'still_playing'
  | 'no_such_parked'
  | 'unknown_engine'
  | 'llm_not_configured'
  | 'agent_not_installed'
  // The game's chat (`/say`, `/relay`): a line it cannot take, a server command not allowed, out of the game, lines waiting.
  | 'bad_chat_line'
  | 'game_command'
  | 'not_in_game'
  | 'chat_busy'
  // The skills an avatar wrote and kept.
  | 'unknown_skill'
  // Places an avatar remembers.
  | 'bad_place_name'
  | 'unknown_place'
  | 'too_many_places'
  | 'not_in_game'
  // Chats: links, threads, DMs, the dashboard.
  | 'not_linked'
  | 'no_threads'
  | 'no_dm'
  | 'web_off'
  | 'web_too_many'
  | 'web_full'
  // Tokens of the people's MCP server (`/mcp`).
  | 'mcp_off'
  | 'mcp_private_only'
  | 'mcp_too_many'
  | 'mcp_cap'
  | 'bad_mcp_label'
  | 'unknown_mcp_token'
  // Schedules and time zones.
  | 'bad_schedule'
  | 'bad_time'
  | 'bad_zone'
  | 'unknown_schedule'
  | 'too_many_schedules'
  // Minecraft servers (`server_…`: what a ping or a login probe found).
  | 'unknown_server'
  | 'bad_server_name'
  | 'bad_address'
  | 'same_server'
  | 'server_in_use'
  | 'embedded_server'
  | 'embedded_off'
  | 'online_mode'
  | 'unsupported_version'
  | 'server_unreachable'
  | 'server_no_answer'
  | 'server_unknown_host'
  | 'server_not_minecraft'
  | 'server_asleep'
  | 'server_unsupported_version'
  // A version given at `/server add` that the server does not speak.
  | 'version_not_spoken';

/**
 * A failure the user caused or can act on. Its `message` is shown in chat as is.
 *
 * @example
 * throw new UserError('unknown_avatar', 'There is no avatar called "bob".');
 */
export class UserError extends Error {
  /** A stable identifier, for tests and logs. */
  readonly code: UserErrorCode;
  /** The avatar the refusal is about, when there is one (the console prefixes the line with `[name] `). */
  readonly avatar: string | undefined;
  constructor(code: UserErrorCode, message: string, avatar?: string) {
    super(message);
    this.name = 'UserError';
    this.code = code;
    this.avatar = avatar;
  }
}

/**
 * The model provider refused to serve: out of credit, or the key is not valid.
 * The goal loop stops the avatar and sends no further requests.
 */
export class ProviderRefusedError extends Error {
  /** Short reason for the chat line, e.g. `insufficient_quota: You exceeded your quota`. */
  readonly reason: string;
  constructor(reason: string) {
    super(`the model provider refused: ${reason}`);
    this.name = 'ProviderRefusedError';
    this.reason = reason;
  }
}

/** A data file could not be read or does not match its schema. Start-up stops; the file is left untouched. */
export class StoreCorruptError extends Error {
  readonly file: string;
  constructor(file: string, detail: string) {
    super(`data file ${file} is unreadable: ${detail}. Fix or move it away; mindlink did not change it.`);
    this.name = 'StoreCorruptError';
    this.file = file;
  }
}

/** What a failed write's error code means, in words for a chat line. */
export function writeFailureReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
      return 'disk full';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'the data folder is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'no permission to write the data folder';
    case 'EIO':
      return 'disk error';
    case 'EFENCED':
      return 'another mindlink core holds the store now';
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENOTFOUND':
    case 'EPIPE':
      return 'the database is unreachable';
    // PostgreSQL's own codes (SQLSTATE)
    case '53100':
      return "the database's disk is full";
    case '25006':
      return 'the database is read-only';
    case '57P01':
    case '57P02':
    case '57P03':
      return 'the database is restarting';
    default:
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return `the database refused it (${code})`;
      if (code === undefined && /^Connection terminated/.test((err as Error | undefined)?.message ?? '')) return 'the database connection was lost';
      return `the write failed (${code ?? 'unknown error'})`;
  }
}

/**
 * A data file could not be written (disk full, read-only…). The change stays in memory and the store
 * keeps trying to write it; until it is on disk a restart would lose it, and the chat says so instead
 * of acknowledging it.
 */
export class StoreWriteError extends UserError {
  /** The file that could not be written. */
  readonly file: string;
  /** The write's own error (`code` ENOSPC, EROFS…). */
  override readonly cause: unknown;
  constructor(file: string, cause: unknown, avatar?: string) {
    super(
      'not_saved',
      `Could not save: ${writeFailureReason(cause)}. The change is kept and saved as soon as the ${file.startsWith('postgres:') ? 'database' : 'disk'} takes it again; a restart before then loses it.`,
      avatar,
    );
    this.name = 'StoreWriteError';
    this.file = file;
    this.cause = cause;
  }

  /** The same failure, told as a line about one avatar (the console prefixes it with `[name] `). */
  about(avatar: string | null | undefined): StoreWriteError {
    return avatar ? new StoreWriteError(this.file, this.cause, avatar) : this;
  }
}

/**
 * The store's fence refused a write (`src/store/pg/pg-file.ts`): this process no longer holds the lease its
 * writes are fenced by, so another core writes the store now. The write is rolled back; `code` is `EFENCED`.
 */
export class StoreFencedError extends Error {
  readonly code = 'EFENCED';
  constructor(file: string) {
    super(`the write of ${file} was fenced off: this process no longer holds the store`);
    this.name = 'StoreFencedError';
  }
}

/** A configuration value is invalid. The message is one line naming the key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A short random reference that ties a chat line "something went wrong (ref …)" to its log line. */
export function errorRef(): string {
  return Math.random().toString(36).slice(2, 8);
}
