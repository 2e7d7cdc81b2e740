/**
 * The game's chat over Telegram, for real: the real core, grammy against the fake Bot API, an avatar that is
 * a real mineflayer game on the embedded world, and a player who is a raw mineflayer bot there.
 */
import { once } from 'node:events';
import type { Chat, User } from 'grammy/types';
import mineflayer, { type Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameProvider } from '../../src/game/game.ts';
import { FakeTelegram, groupChat, user, type SentMessage } from '../fakes/telegram-api.ts';
import { tempDataDir, waitFor, worldGame, worldPerFile } from '../game/helpers.ts';
import { startMindlink, type Running } from './telegram-helpers.ts';

const w = worldPerFile('relay-tg');
const alice = user(1001, 'Alice');
const bob = user(1002, 'Bob');
const group = groupChat(4300, 'miners');

describe('the game’s chat over Telegram (real world, real grammy, fake Bot API)', () => {
  const data = tempDataDir('relay-tg-data');
  const games: GameProvider = { create: (avatar, _server, log) => worldGame(w.world, avatar.name, log), close: async () => {} };
  let tg: FakeTelegram;
  let ml: Running;
  let ann: Bot;
  const annHeard: string[] = [];

  /** `from` writes `text` in `chat`; resolves with mindlink's reply, threaded to that message. */
  async function send(chat: Chat, from: User, text: string): Promise<SentMessage> {
    const m = tg.sendText({ chat, from, text });
    return tg.waitForMessage((s) => s.chat_id === chat.id && s.reply_to === m.message_id, { timeoutMs: 30_000 });
  }

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    ml = await startMindlink(tg, data.dir, { ADMINS: `telegram:${alice.id}` }, { games });
    expect((await send(group, alice, '/avatar create digger')).plain).toMatch(/^\[digger\] Created digger/);
    await send(group, alice, '/play digger');
    await waitFor(() => ml.core.avatars.game('digger')?.state === 'connected', 60_000, 'digger in the game');
    ann = mineflayer.createBot({ username: 'ann', host: w.world.host, port: w.world.port, version: w.world.version, auth: 'offline', hideErrors: true });
    ann.on('messagestr', (text) => {
      annHeard.push(text);
    });
    await once(ann, 'spawn');
  }, 180_000);

  afterAll(async () => {
    if (ann) {
      const ended = once(ann, 'end');
      ann.quit();
      await ended;
    }
    await ml?.core.stop();
    await tg?.close();
    data.remove();
  }, 60_000);

  it('GIVEN the group’s menu and /help THEN /relay and /say are offered to who may run them', async () => {
    expect((tg.menu('all_group_chats') ?? []).map((c) => c.command)).toEqual(expect.arrayContaining(['relay', 'say']));
    const help = (await send(group, alice, '/help')).plain;
    expect(help).toMatch(/^\/relay on\|off \[avatar\] — /m);
    expect(help).toMatch(/^\/say <text> \[avatar\] — /m);
    // Bob is only in the linked group: he watches digger and may run neither.
    const bobHelp = (await send(group, bob, '/help')).plain;
    expect(bobHelp).not.toMatch(/^\/(relay|say) /m);
    expect((await send(group, bob, '/say hi')).plain).toMatch(/can't control digger/);
  }, 60_000);

  it('GIVEN /relay on in the linked group THEN a player’s line, @everyone and all, arrives as plain text mentioning nobody; /say reaches the game', async () => {
    expect((await send(group, alice, '/relay on')).plain).toMatch(/^\[digger\] Relaying the game's chat here: /);
    ann.chat('@everyone come see the cave');
    const post = await tg.waitForMessage((m) => m.chat_id === group.id && m.plain.includes('<ann> @everyone come see the cave'), { timeoutMs: 30_000 });
    expect(post.plain).toBe('[digger] <ann> @everyone come see the cave');
    expect(post.mentions).toEqual([]);
    expect((await send(group, alice, '/say on my way')).plain).toBe('[digger] Said in the game: on my way');
    await waitFor(() => annHeard.includes('<digger> on my way'), 20_000, 'ann to hear digger');
    expect((await send(group, alice, '/relay off')).plain).toBe("[digger] No more of the game's chat here.");
  }, 60_000);
});
