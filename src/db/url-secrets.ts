/**
 * What of a database URL must never be logged or shown: its password, as written in the URL and decoded. No
 * database client here: a process without a database never loads one.
 */

/**
 * The password of `url` as it appears in it and %-decoded (none when it has none); for `registerSecret`.
 *
 * @example
 * urlSecrets('postgres://app:p%40ss@db/mindlink') // → ['p%40ss', 'p@ss']
 */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  let password: string;
  try {
    password = new URL(url).password;
  } catch {
    // An unparsable URL is refused by the config before anything is logged.
    return [];
  }
  if (!password) return [];
  try {
    return [...new Set([password, decodeURIComponent(password)])];
  } catch {
    // A % that starts no escape: the password is as written.
    return [password];
  }
}

/**
 * The URL as it may be logged: the password replaced by `***` (an unparsable URL is not shown at all).
 *
 * @example
 * shownUrl('postgres://app:secret@db:5432/mindlink') // → 'postgres://app:***@db:5432/mindlink'
 */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(a database URL that does not parse)';
  }
}
