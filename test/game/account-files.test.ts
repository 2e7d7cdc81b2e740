import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordBook } from '../../src/game/passwords.ts';
import { forgetAccount, readPrivateJson, renameAccount, writePrivateJson } from '../../src/game/private-file.ts';

describe("an avatar's account files", () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('GIVEN a wide umask THEN the file is 0600 in a 0700 folder; GIVEN a cut file THEN it reads as empty', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-accounts-'));
    const old = process.umask(0o022);
    try {
      writePrivateJson(path.join(dir, 'accounts', 'bob.passwords.json'), { a: 'b' });
    } finally {
      process.umask(old);
    }
    expect(statSync(path.join(dir, 'accounts', 'bob.passwords.json')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'accounts')).mode & 0o777).toBe(0o700);
    writeFileSync(path.join(dir, 'accounts', 'cut.json'), '{"a":');
    expect(readPrivateJson(path.join(dir, 'accounts', 'cut.json'))).toEqual({});
  });

  it('GIVEN a rename THEN the password follows the avatar; GIVEN a removal THEN its files are gone', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-accounts-'));
    const pw = new PasswordBook(dir, 'bob').passwordFor('survival');
    writePrivateJson(path.join(dir, 'bob.microsoft.json'), { mca: {} });
    renameAccount(dir, 'bob', 'robin');
    expect(new PasswordBook(dir, 'robin').passwordFor('survival')).toBe(pw);
    expect(existsSync(path.join(dir, 'robin.microsoft.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'bob.passwords.json'))).toBe(false);
    forgetAccount(dir, 'robin');
    expect(existsSync(path.join(dir, 'robin.passwords.json')) || existsSync(path.join(dir, 'robin.microsoft.json'))).toBe(false);
  });
});
