/**
 * The avatars' account files (Microsoft tokens, login-plugin passwords):
 * small JSON files only their owner may read, written atomically (a temp
 * file, then a rename) with mode 0600 in a 0700 folder whatever the umask,
 * renamed with their avatar and deleted with it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeAtomicSync } from '../store/atomic-write.ts';

/**
 * Write `value` as JSON to `file`, its owner's only.
 *
 * @example
 * writePrivateJson('data/accounts/bob.passwords.json', { survival: '…' });
 */
export function writePrivateJson(file: string, value: unknown): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writeAtomicSync(file, JSON.stringify(value), 0o600);
}

/**
 * The JSON object in `file`, or an empty one when there is none (or it does not parse: the account
 * then starts afresh, as on its first use).
 *
 * @example
 * const passwords = readPrivateJson('data/accounts/bob.passwords.json');
 */
export function readPrivateJson(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // No file yet, or one cut short: nothing is known of the account.
    return {};
  }
}

/** The files an avatar has under the accounts folder: its Microsoft tokens and its login-plugin passwords. */
const ACCOUNT_FILES = ['microsoft', 'passwords'] as const;

/**
 * An avatar was renamed: its account files take the new name (a new sign-in is not needed).
 *
 * @example
 * renameAccount('data/accounts', 'bob', 'robin');
 */
export function renameAccount(dir: string, from: string, to: string): void {
  for (const kind of ACCOUNT_FILES) {
    const file = path.join(dir, `${from}.${kind}.json`);
    if (existsSync(file)) renameSync(file, path.join(dir, `${to}.${kind}.json`));
  }
}

/**
 * An avatar was removed: its account files are deleted (tokens and passwords are not kept with its other files).
 *
 * @example
 * forgetAccount('data/accounts', 'bob');
 */
export function forgetAccount(dir: string, name: string): void {
  for (const kind of ACCOUNT_FILES) rmSync(path.join(dir, `${name}.${kind}.json`), { force: true });
}
