/**
 * The passwords an avatar uses with servers' login plugins (AuthMe and the
 * like: `/register <password> <password>`, `/login <password>`): generated
 * on first need, one per server, kept in `<dir>/<account>.passwords.json`,
 * readable by its owner only (0600), and registered as secrets so no log
 * line or post shows them.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { registerSecret } from '../logger.ts';

/**
 * @example
 * const book = new PasswordBook('data/accounts', 'bob');
 * bot.chat(`/login ${book.passwordFor('survival')}`);
 */
export class PasswordBook {
  readonly file: string;
  #passwords: Record<string, string> | undefined;

  constructor(dir: string, account: string) {
    this.file = path.join(dir, `${account}.passwords.json`);
  }

  /** Whether a password for the server exists already (then the avatar logs in rather than registers). */
  has(server: string): boolean {
    return this.#read()[server] !== undefined;
  }

  /** The avatar's password on a server, generated (16 letters, digits, - and _) and stored on first need. */
  passwordFor(server: string): string {
    const all = this.#read();
    const known = all[server];
    if (known) return known;
    const made = randomBytes(12).toString('base64url');
    registerSecret(made);
    all[server] = made;
    const dir = path.dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
    return made;
  }

  #read(): Record<string, string> {
    if (this.#passwords) return this.#passwords;
    let all: Record<string, string> = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        all = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    } catch {
      // No file yet (or one that does not parse): passwords are made as servers ask for them.
      all = {};
    }
    for (const p of Object.values(all)) registerSecret(p);
    this.#passwords = all;
    return all;
  }
}
