import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SECONDS } from './heavy-first.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('the order the suite starts its files in', () => {
  it('GIVEN the measured seconds of the slow files THEN each names a test file that exists (a renamed file would start last again)', () => {
    const missing = Object.keys(SECONDS).filter((f) => !existsSync(`${ROOT}${f}`) || !f.endsWith('.test.ts'));
    expect(missing).toEqual([]);
  });
});
