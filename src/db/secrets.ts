/**
 * The secrets of a database URL (`DATABASE_URL`, `--database`), for the logger to hide: no PostgreSQL client is
 * loaded for it, so a process registers them before it knows whether it will open the database.
 */

/**
 * Its password, as written and decoded (none when it has none).
 *
 * @example
 * for (const s of databaseSecrets(config.DATABASE_URL)) registerSecret(s);
 */
export function databaseSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    // A URL that does not parse has no password to find (and opening it fails with its own error).
    return [];
  }
}
