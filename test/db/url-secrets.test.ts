import { describe, expect, it } from 'vitest';
import { urlSecrets } from '../../src/db/url-secrets.ts';
import { registerSecret, scrubSecrets } from '../../src/logger.ts';

describe("a database URL's secrets", () => {
  it('GIVEN a password with %-escapes, one with a stray %, none, or no URL THEN the password as written and decoded are its secrets', () => {
    expect(urlSecrets('postgres://app:p%40ss-word@db:5432/mindlink')).toEqual(['p%40ss-word', 'p@ss-word']);
    expect(urlSecrets('postgres://app:100%25x@db/mindlink')).toEqual(['100%25x', '100%x']);
    expect(urlSecrets('postgres://app:bad%zzpass@db/mindlink')).toEqual(['bad%zzpass']);
    expect(urlSecrets('postgres://app@db/mindlink')).toEqual([]);
    expect(urlSecrets(undefined)).toEqual([]);
  });

  it('GIVEN them registered THEN a log line that carries the URL or the password shows neither', () => {
    for (const s of urlSecrets('postgres://app:s3cret%2Fword@db/mindlink')) registerSecret(s);
    expect(scrubSecrets('connect postgres://app:s3cret%2Fword@db/mindlink failed; password s3cret/word')).toBe('connect postgres://app:[redacted]@db/mindlink failed; password [redacted]');
  });
});
