/**
 * The error kinds of mindlink.
 *
 * Only a {@link UserError} has a message meant for a chat. Anything else that
 * reaches a boundary (a command dispatch, a loop turn, a bridge handler) is
 * logged with a reference and shown in chat as "something went wrong (ref …)".
 */

/**
 * A failure the user caused or can act on. Its `message` is shown in chat as is.
 *
 * @example
 * throw new UserError('unknown_avatar', 'There is no avatar called "bob".');
 */
export class UserError extends Error {
  /** A stable identifier, for tests and logs. */
  readonly code: string;
  /** The avatar the refusal is about, when there is one (the console prefixes the line with `[name] `). */
  readonly avatar: string | undefined;
  constructor(code: string, message: string, avatar?: string) {
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
    default:
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
      `Could not save: ${writeFailureReason(cause)}. The change is kept and saved as soon as the disk takes it again; a restart before then loses it.`,
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
