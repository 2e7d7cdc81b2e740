import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainGoal } from '../src/text.ts';
import { registerSecret, scrubSecrets } from '../src/logger.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('secrets never reach logs or chat', () => {
  it('GIVEN a registered token THEN scrubSecrets removes it wherever it appears', () => {
    registerSecret('sekret-value-123');
    expect(scrubSecrets('url https://x/botsekret-value-123/getMe')).toBe('url https://x/bot[redacted]/getMe');
  });

  it('GIVEN token-shaped strings THEN they are removed even when not registered', () => {
    expect(scrubSecrets('123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 and sk-abcdefghijklmnopqrstuv')).toBe('[redacted] and [redacted]');
  });

  it('GIVEN the real logger in a process THEN a token in a message, an object or an error never reaches stderr', () => {
    const script = `
      import { createLogger, registerSecret } from './src/logger.ts';
      registerSecret('999:tok-en-value-abcdef');
      const log = createLogger('info', { pretty: false });
      log.info({ token: 'plain-token-field', url: 'https://api/bot999:tok-en-value-abcdef/x' }, 'calling 999:tok-en-value-abcdef');
      log.error({ err: new Error('failed at bot999:tok-en-value-abcdef') }, 'boom');
      log.flush();
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(''); // stdout belongs to chat
    expect(run.stderr).toContain('calling [redacted]');
    expect(run.stderr).toContain('boom');
    expect(run.stderr).not.toContain('tok-en-value');
    expect(run.stderr).not.toContain('plain-token-field');
  });
});

describe('how a goal is shown', () => {
  it('GIVEN markup, links and a secret THEN /status shows plain text of at most 200 characters', () => {
    registerSecret('hunter2-password');
    expect(plainGoal('**collect** [logs](http://x.y) <b>now</b> `fast` hunter2-password')).toBe('collect logs now fast [redacted]');
    expect(plainGoal(`collect ${'x'.repeat(300)}`)).toHaveLength(200);
    expect(plainGoal('go\nto\t10 64 10')).toBe('go to 10 64 10');
  });
});
