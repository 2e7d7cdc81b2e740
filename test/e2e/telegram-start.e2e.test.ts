import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTelegram, privateChat, user } from '../fakes/telegram-api.ts';
import { freePort } from '../free-port.ts';
import { processesOn, startMindlink, type MindlinkProcess } from './process.ts';

describe('the real process with Telegram configured', () => {
  let dir = '';
  let m: MindlinkProcess | undefined;
  let tg: FakeTelegram | undefined;

  afterEach(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    await tg?.close();
    tg = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN Telegram unreachable at start THEN the console is ready anyway, and the bot connects once Telegram is back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-tgstart-'));
    const port = await freePort();
    const admin = user(42, 'Ada');
    const token = '7000001:FAKE-test-token-' + 'x'.repeat(30);
    m = startMindlink({ DATA_DIR: dir, TELEGRAM_TOKEN: token, TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`, ADMINS: 'telegram:42' });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    m.send('/status');
    await m.line(/^\[demo\] (choosing|working|waiting|wrapup) · /);

    tg = await FakeTelegram.start({ port });
    expect(tg.token).toBe(token);
    tg.sendText({ chat: privateChat(admin), from: admin, text: '/avatars' });
    const reply = await tg.waitForMessage((msg) => msg.chat_id === 42, { timeoutMs: 60_000 });
    expect(reply.text).toMatch(/demo: /);
    expect(m.stderr.join('\n')).not.toContain('FAKE-test-token');
    m.child.kill('SIGTERM');
    expect(await m.exited).toBe(0);
  }, 180_000);

  it('GIVEN a token Telegram refuses THEN start-up stops with one line naming TELEGRAM_TOKEN, without the token, and nothing it started is left running', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-tgbad-'));
    tg = await FakeTelegram.start();
    m = startMindlink({ DATA_DIR: dir, TELEGRAM_TOKEN: '999:WRONGwrongWRONGwrong', TELEGRAM_API_ROOT: tg.apiRoot, LOG_LEVEL: 'silent' });
    expect(await m.exited).toBe(1);
    const lines = m.stderr.filter((l) => l.trim());
    expect(lines).toEqual([expect.stringMatching(/^config: TELEGRAM_TOKEN was not accepted: .*401/)]);
    expect(lines.join('\n')).not.toContain('WRONGwrong');
    // The world it started was stopped before it exited: nothing is left writing into DATA_DIR.
    expect(processesOn(dir)).toEqual([]);
  }, 120_000);
});
