import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { forAvatar, registerSecret, scrubSecrets } from '../src/logger.ts';
import { GoalLoop } from '../src/loop/goal-loop.ts';
import { plainGoal } from '../src/text.ts';
import { TaskFile } from '../src/task/task-file.ts';
import { newAvatarRecord, Store } from '../src/store/store.ts';
import { FakeGame } from './fakes/fake-game.ts';
import { TestEngine } from './fakes/test-engine.ts';
import { filesOf } from '../src/store/files.ts';
import { AvatarNews } from '../src/loop/news.ts';
import { recordsOf } from './avatars/records-helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('secrets never reach logs or chat', () => {
  it('GIVEN a registered token THEN scrubSecrets removes it wherever it appears', () => {
    registerSecret('sekret-value-123');
    expect(scrubSecrets('url https://x/botsekret-value-123/getMe')).toBe('url https://x/bot[redacted]/getMe');
  });

  it('GIVEN token-shaped strings THEN they are removed even when not registered', () => {
    expect(scrubSecrets('123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 and sk-abcdefghijklmnopqrstuv')).toBe('[redacted] and [redacted]');
  });

  it('GIVEN the real logger in a process THEN a token in a message, an object or an error, or an MCP token, never reaches stderr', () => {
    const script = `
      import { createLogger, registerSecret } from './src/logger.ts';
      registerSecret('999:tok-en-value-abcdef');
      const log = createLogger('info', { pretty: false });
      log.info({ token: 'plain-token-field', url: 'https://api/bot999:tok-en-value-abcdef/x' }, 'calling 999:tok-en-value-abcdef');
      log.error({ err: new Error('failed at bot999:tok-en-value-abcdef') }, 'boom');
      log.warn('mcp token mindlink_' + 'Ab3_-'.repeat(8) + 'xyz');
      log.flush();
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(''); // stdout belongs to chat
    expect(run.stderr).toContain('calling [redacted]');
    expect(run.stderr).toContain('boom');
    expect(run.stderr).not.toContain('tok-en-value');
    expect(run.stderr).not.toContain('plain-token-field');
    // An MCP token is shown once in its owner's chat (so chat posts keep it), never in a log line.
    expect(run.stderr).toContain('mcp token [redacted]');
    expect(run.stderr).not.toContain('Ab3_-');
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

describe('one avatar key per log line', () => {
  /** A pino logger whose JSON lines land in `out`. */
  function capture(out: string[]) {
    return pino({ level: 'debug' }, { write: (s: string) => out.push(s) });
  }
  it('GIVEN a logger bound to demo THEN forAvatar adds no second "avatar" key, and binds one where there is none', () => {
    const out: string[] = [];
    const root = capture(out);
    forAvatar(root.child({ avatar: 'demo' }), 'demo', { component: 'game' }).info('spawned');
    forAvatar(root, 'demo', { component: 'game' }).info('spawned');
    for (const line of out) expect(line.match(/"avatar":/g)).toHaveLength(1);
    expect(JSON.parse(out[0] ?? '{}')).toMatchObject({ avatar: 'demo', component: 'game' });
  });
  it('GIVEN the goal loop with the avatar manager\'s logger THEN its lines carry "avatar" once', async () => {
    const out: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-log-'));
    try {
      const store = await Store.open(dir);
      filesOf(store).state.update((s) => s.avatars.push(newAvatarRecord('demo', 'console', 'embedded', 'scripted', false, new Date())));
      const game = new FakeGame('demo');
      await game.start();
      const loop = new GoalLoop({
        avatar: 'demo', goals: recordsOf(store).portOf('demo'), news: new AvatarNews(), game, engine: new TestEngine(() => 'STATUS: working'), task: new TaskFile(join(dir, 'avatars', 'demo'), 'demo'),
        log: capture(out).child({ avatar: 'demo' }), checkGoal: () => ({ checkable: false }), onSelfStop: () => {},
        syncTask: async () => {}, pacing: { baseMs: 10, maxMs: 20 },
      });
      loop.start();
      await loop.pause('test over');
      await store.flush();
      expect(out.some((l) => l.includes('"msg":"loop stopped"'))).toBe(true);
      for (const line of out) expect(line.match(/"avatar":/g)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
