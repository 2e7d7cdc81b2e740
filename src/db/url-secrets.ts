/** What of a database URL must never be logged or shown: its password, as written in the URL and decoded. */

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
