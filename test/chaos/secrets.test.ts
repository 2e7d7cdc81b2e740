import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evidence } from '../../chaos/harness.ts';
import { checkSecrets } from '../../chaos/secrets.ts';

describe('the chaos secrets check and the avatars\' account files', () => {
  let dir = '';
  afterEach(() => {
    evidence.dirs.length = 0;
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN a Microsoft token cache and a password file THEN what they hold is a leak anywhere else, and they must be their owner\'s only', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-secrets-'));
    mkdirSync(path.join(dir, 'accounts'), { mode: 0o700 });
    const cache = path.join(dir, 'accounts', 'bob.microsoft.json');
    writeFileSync(cache, JSON.stringify({ live: { token: { access_token: 'msa-at-0123456789abcdef', refresh_token: 'msa-rt-0123456789abcdef' } } }), { mode: 0o600 });
    const passwords = path.join(dir, 'accounts', 'bob.passwords.json');
    writeFileSync(passwords, JSON.stringify({ survival: 'pw-0123456789ab' }), { mode: 0o644 });
    chmodSync(passwords, 0o644);
    writeFileSync(path.join(dir, 'state.json'), 'the refresh token msa-rt-0123456789abcdef leaked here', { mode: 0o600 });
    evidence.dirs.push(dir);
    const fig = checkSecrets();
    expect(fig.accountFiles).toBe(2);
    expect(fig.leaks).toBe(1);
    expect(fig.examples).toContain(`a secret in ${path.join(dir, 'state.json')}`);
    expect(fig.openFiles).toBe(1);
  });
});
