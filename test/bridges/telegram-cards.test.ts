/**
 * Cards and buttons over Telegram (docs/telegram.md "Cards and buttons"), typing while someone waits, and
 * the menus per kind of chat: the real core and the real grammy bot against the fake Bot API, whose people
 * press the buttons a message shows them and answer the ForceReply the bot asks with.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallbackQuery, Chat, Message, User } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandList, telegramMenus } from '../../commands/index.ts';
import { FakeTelegram, groupChat, privateChat, user, type CallbackAnswer, type MessageEdit, type SentMessage } from '../fakes/telegram-api.ts';
import { startMindlink, type Running } from './telegram-helpers.ts';

const alice = user(1001, 'Alice');
const carol = user(1003, 'Carol');
const aliceDm = privateChat(alice);
const group = groupChat(4300, 'builders');

/** The callback data of a message's buttons, row by row flattened. */
function buttons(m: { reply_markup?: unknown }): string[] {
  const markup = m.reply_markup as { inline_keyboard?: { callback_data?: string }[][] } | undefined;
  return (markup?.inline_keyboard ?? []).flat().map((b) => b.callback_data ?? '');
}

describe('cards and buttons over Telegram (real core, real grammy, fake Bot API)', () => {
  let tg: FakeTelegram;
  let dir: string;
  let ml: Running;
  const env = { ADMINS: 'telegram:1001' };

  /** `from` writes `text` in `chat`; resolves with mindlink's reply to that message. */
  async function say(chat: Chat, from: User, text: string, replyTo?: Message): Promise<SentMessage> {
    const m = tg.sendText({ chat, from, text, ...(replyTo ? { replyTo } : {}) });
    return tg.waitForMessage((s) => s.chat_id === chat.id && s.reply_to === m.message_id);
  }

  /** How the bot answered a press. */
  const answerOf = (q: CallbackQuery): Promise<CallbackAnswer> => tg.waitFor(() => tg.callbackAnswers.find((a) => a.callback_query_id === q.id), `the answer to ${q.data ?? ''}`);
  /** The next edit of a message, from `since` on. */
  const editOf = (m: SentMessage, since: number): Promise<MessageEdit> =>
    tg.waitFor(() => tg.edits.slice(since).find((e) => e.chat_id === m.chat_id && e.message_id === m.message.message_id), 'the edit of the card');
  const playing = (): boolean => ml.core.avatars.isPlaying('steve');

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-cards-'));
    ml = await startMindlink(tg, dir, env);
    expect((await say(aliceDm, alice, '/avatar create steve')).plain).toMatch(/^\[steve\] Created steve/);
    expect((await say(aliceDm, alice, '/play steve')).plain).toMatch(/^\[steve\] Playing/);
    expect((await say(group, alice, '/link steve')).plain).toBe('[steve] Linked to this chat (control).');
  });

  afterAll(async () => {
    await ml?.core.stop();
    await tg?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN the menus THEN a private chat offers every command, a group what its members use, and its administrators what sets an avatar up there too; /pair only in private', () => {
    const menus = telegramMenus(commandList('telegram'));
    const names = (scope: string): string[] => (tg.menu(scope) ?? []).map((c) => c.command);
    expect(names('all_private_chats')).toEqual(menus.private.map((e) => e.name));
    expect(names('all_private_chats')).toContain('pair');
    expect(names('all_group_chats')).toEqual(expect.arrayContaining(['play', 'stop', 'status', 'goal', 'help']));
    expect(names('all_group_chats')).not.toEqual(expect.arrayContaining(['pair']));
    expect(names('all_group_chats')).not.toContain('servers');
    expect(names('all_group_chats')).not.toContain('digest');
    expect(names('all_chat_administrators')).toEqual(expect.arrayContaining(['digest', 'schedule', 'servers', 'status']));
    expect(names('all_chat_administrators')).not.toContain('pair');
  });

  it('GIVEN /status THEN it carries Stop, Refresh and Goal…; Stop stops steve, the query is answered and the card is edited in place', async () => {
    const card = await say(aliceDm, alice, '/status');
    expect(card.plain).toMatch(/^\[steve\] (working|choosing)/);
    expect(buttons(card)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    const since = tg.edits.length;
    const q = tg.pressButton({ from: alice, message: card, data: 'stop:steve' });
    const edit = await editOf(card, since);
    expect(await answerOf(q)).toMatchObject({ show_alert: false, text: 'Alice pressed Stop: Stopped. My goal is kept: /play resumes it.' });
    expect(playing()).toBe(false);
    expect(edit.plain).toMatch(/^\[steve\] stopped/);
    expect(edit.plain).toMatch(/\n\nAlice pressed Stop: Stopped\. My goal is kept: \/play resumes it\.$/);
    expect(buttons(edit)).toEqual(['play:steve', 'refresh:steve', 'goal:steve']);
    // The card now shows Play; pressing it starts steve again.
    const again = tg.pressButton({ from: alice, message: card, data: 'play:steve' });
    await answerOf(again);
    expect(playing()).toBe(true);
  });

  it('GIVEN a card Telegram no longer lets the bot edit THEN a press sends the card as it is now under it instead', async () => {
    const card = await say(aliceDm, alice, '/status');
    tg.failNext('editMessageText', { kind: 'error', code: 400, description: "Bad Request: message can't be edited" });
    const q = tg.pressButton({ from: alice, message: card, data: 'refresh:steve' });
    const again = await tg.waitForMessage((m) => m.chat_id === alice.id && m.reply_to === card.message.message_id);
    await answerOf(q);
    expect(again.plain).toMatch(/^\[steve\] (working|choosing|wrapup)/);
    expect(buttons(again)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
  });

  it('GIVEN a card in the group WHEN a member who may only watch presses Stop or Goal… THEN she alone gets the refusal as an alert, and nothing changes', async () => {
    const card = await say(group, alice, '/status');
    expect(buttons(card)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    const edits = tg.edits.length;
    const sent = tg.sent.length;
    const stop = tg.pressButton({ from: carol, message: card, data: 'stop:steve' });
    expect(await answerOf(stop)).toEqual({ callback_query_id: stop.id, text: "[steve] You can't control steve: ask its owner.", show_alert: true });
    const goal = tg.pressButton({ from: carol, message: card, data: 'goal:steve' });
    expect(await answerOf(goal)).toMatchObject({ show_alert: true, text: "[steve] You can't control steve: ask its owner." });
    await ml.core.idle();
    expect(playing()).toBe(true);
    expect(tg.edits.length).toBe(edits);
    expect(tg.sent.length).toBe(sent);
  });

  it('GIVEN the Goal… button in a group THEN a ForceReply naming the presser asks for the goal, and her reply to it sets the goal', async () => {
    const card = await say(group, alice, '/status');
    const q = tg.pressButton({ from: alice, message: card, data: 'goal:steve' });
    const prompt = await tg.waitForMessage((m) => m.chat_id === group.id && m.reply_to === card.message.message_id);
    expect(await answerOf(q)).toMatchObject({ show_alert: false });
    expect(prompt.plain).toBe('[steve] Alice, what should my new goal be? Reply to this message with it.');
    expect(prompt.mentions).toEqual([alice.id]);
    expect(prompt.reply_markup).toMatchObject({ force_reply: true, selective: true });
    const ack = await say(group, alice, 'collect 5 dirt', prompt.message);
    expect(ack.plain).toBe('[steve] New goal from Alice: collect 5 dirt.');
    expect(ml.core.avatars.get('steve')?.goal?.text).toBe('collect 5 dirt');
  });

  it('GIVEN a Done: post THEN it carries New goal… and Status; Status answers with a card replying to it, New goal… asks as Goal… does', async () => {
    const since = tg.sent.length;
    await say(group, alice, 'Goal: get 3 logs');
    const done = await tg.waitForMessage((m) => m.chat_id === group.id && m.plain.includes('Done: get 3 logs'), { since });
    expect(buttons(done)).toEqual(['newgoal:steve', 'status:steve']);
    const q = tg.pressButton({ from: carol, message: done, data: 'status:steve' });
    const status = await tg.waitForMessage((m) => m.chat_id === group.id && m.reply_to === done.message.message_id);
    expect(await answerOf(q)).toMatchObject({ show_alert: false });
    expect(status.plain).toMatch(/^\[steve\] (working|choosing|wrapup)/);
    expect(buttons(status)).toEqual(['view:steve']);
    const asked = tg.pressButton({ from: alice, message: done, data: 'newgoal:steve' });
    await answerOf(asked);
    const prompt = await tg.waitForMessage((m) => m.chat_id === group.id && m.reply_to === done.message.message_id && m.plain.includes('new goal'));
    expect((await say(group, alice, 'build a house', prompt.message)).plain).toBe('[steve] New goal from Alice: build a house.');
  });

  it('GIVEN a card made before a restart THEN its buttons still work after it, on the avatar as it is now, edited in place', async () => {
    const card = await say(aliceDm, alice, '/status');
    expect(buttons(card)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    // Stopped another way: the card still shows Stop.
    await say(aliceDm, alice, '/stop');
    await ml.core.stop();
    ml = await startMindlink(tg, dir, env);
    expect(playing()).toBe(false);
    const since = tg.edits.length;
    const q = tg.pressButton({ from: alice, message: card, data: 'stop:steve' });
    const edit = await editOf(card, since);
    await answerOf(q);
    expect(edit.plain).toMatch(/^\[steve\] stopped[\s\S]*\n\nAlice pressed Stop: Already stopped\. \/play starts me again\.$/);
    expect(buttons(edit)).toEqual(['play:steve', 'refresh:steve', 'goal:steve']);
    const play = tg.pressButton({ from: alice, message: card, data: 'play:steve' });
    await answerOf(play);
    expect(playing()).toBe(true);
  });

  it('GIVEN a question THEN the chat shows typing before the answer; automatic turns after it show none', async () => {
    const engine = ml.engines.get('steve');
    if (!engine) throw new Error('no engine for steve');
    const actions = tg.chatActions.length;
    const m = tg.sendText({ chat: aliceDm, from: alice, text: 'where are you?' });
    const answer = await tg.waitForMessage((s) => s.chat_id === alice.id && s.reply_to === m.message_id);
    expect(answer.plain).toBe("[steve] I'm at 0 64 0, next to a birch.");
    const typed = tg.chatActions.slice(actions);
    expect(typed[0]).toMatchObject({ chat_id: alice.id, action: 'typing' });
    const answeredAt = tg.calls.findIndex(
      (c) => c.method === 'sendMessage' && c.params.chat_id === alice.id && (c.params.reply_parameters as { message_id?: number } | undefined)?.message_id === m.message_id,
    );
    expect(typed[0]?.call ?? Infinity).toBeLessThan(answeredAt);
    const upTo = tg.chatActions.length;
    await engine.nextTurn(engine.requests.length + 3);
    await ml.core.idle();
    expect(tg.chatActions.slice(upTo)).toEqual([]);
  });
});
