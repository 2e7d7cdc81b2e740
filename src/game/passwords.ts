/**
 * The passwords an avatar uses with servers' login plugins (AuthMe and the
 * like: `/register <password> <password>`, `/login <password>`): generated
 * on first need, one per server, kept in `<dir>/<account>.passwords.json`,
 * readable by its owner only (0600), and registered as secrets so no log
 * line or post shows them.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { registerSecret } from '../logger.ts';
import { readPrivateJson, writePrivateJson } from './private-file.ts';

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

  /** The avatar's password on a server, generated (16 letters, digits, - and _) and stored on first need. */
  passwordFor(server: string): string {
    const all = this.#read();
    const known = all[server];
    if (known) return known;
    const made = randomBytes(12).toString('base64url');
    registerSecret(made);
    all[server] = made;
    writePrivateJson(this.file, all);
    return made;
  }

  #read(): Record<string, string> {
    if (this.#passwords) return this.#passwords;
    const all = Object.fromEntries(Object.entries(readPrivateJson(this.file)).filter((e): e is [string, string] => typeof e[1] === 'string'));
    for (const p of Object.values(all)) registerSecret(p);
    this.#passwords = all;
    return all;
  }
}
