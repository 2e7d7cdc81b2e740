/**
 * The fake Bot API itself, with plain HTTP calls: the behaviours grammy relies on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTelegram, privateChat, user } from '../fakes/telegram-api.ts';

interface ApiAnswer {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

describe('FakeTelegram', () => {
  let tg: FakeTelegram;
  const ann = user(11, 'Ann');

  beforeEach(async () => {
    tg = await FakeTelegram.start();
  });
  afterEach(async () => {
    await tg.close();
  });

  const call = async (method: string, body: Record<string, unknown> = {}, token = tg.token): Promise<ApiAnswer> => {
    const res = await fetch(`${tg.apiRoot}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as ApiAnswer;
  };

  it('GIVEN a wrong token THEN every method answers 401', async () => {
    expect(await call('getMe', {}, '1:nope')).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
  });

  it('GIVEN a long poll THEN it is held until an update arrives, and a missing timeout answers at once', async () => {
    expect(await call('getUpdates')).toEqual({ ok: true, result: [] });
    const poll = call('getUpdates', { timeout: 30 });
    await tg.waitForCall('getUpdates', (c) => c.params.timeout === 30);
    const update = tg.pushUpdate({ message: { message_id: 1, date: 0, chat: privateChat(ann), from: ann, text: 'hi' } } as never);
    const answer = await poll;
    expect(answer.result).toEqual([update]);
  });

  it('GIVEN an offset THEN the updates below it are confirmed and never sent again', async () => {
    const a = tg.sendText({ chat: privateChat(ann), from: ann, text: 'a' });
    tg.sendText({ chat: privateChat(ann), from: ann, text: 'b' });
    const all = (await call('getUpdates')).result as { update_id: number; message: { text: string } }[];
    expect(all.map((u) => u.message.text)).toEqual(['a', 'b']);
    const rest = (await call('getUpdates', { offset: (all[0]?.update_id ?? 0) + 1 })).result as { message: { text: string } }[];
    expect(rest.map((u) => u.message.text)).toEqual(['b']);
    expect(tg.confirmedUpTo).toBe(all[0]?.update_id);
    expect(a.text).toBe('a');
  });

  it('GIVEN a pending long poll WHEN the fake closes THEN the poll is answered empty', async () => {
    const poll = call('getUpdates', { timeout: 30 });
    await tg.waitForCall('getUpdates');
    await tg.close();
    expect(await poll).toEqual({ ok: true, result: [] });
    tg = await FakeTelegram.start(); // afterEach closes this one
  });

  it('GIVEN injected failures THEN they answer in order, then the method works again', async () => {
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 3 });
    tg.failNext('sendMessage', { kind: 'blocked' });
    tg.failNext('sendMessage', { kind: 'drop' });
    expect(await call('sendMessage', { chat_id: 11, text: 'x' })).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 3 } });
    expect(await call('sendMessage', { chat_id: 11, text: 'x' })).toMatchObject({ ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    await expect(call('sendMessage', { chat_id: 11, text: 'x' })).rejects.toThrow();
    expect(await call('sendMessage', { chat_id: 11, text: 'x' })).toMatchObject({ ok: true, result: { message_id: 1, text: 'x' } });
    expect(tg.sent.length).toBe(1);
  });

  it('GIVEN unescaped HTML or an overlong text THEN sendMessage refuses it like Telegram', async () => {
    expect(await call('sendMessage', { chat_id: 11, text: 'a <x> b', parse_mode: 'HTML' })).toMatchObject({ ok: false, error_code: 400 });
    expect(await call('sendMessage', { chat_id: 11, text: 'a & b', parse_mode: 'HTML' })).toMatchObject({ ok: false, error_code: 400 });
    expect(await call('sendMessage', { chat_id: 11, text: 'y'.repeat(4097) })).toMatchObject({ ok: false, description: 'Bad Request: message is too long' });
    expect(await call('sendMessage', { chat_id: 11, text: '<b>ok</b> &lt;', parse_mode: 'HTML' })).toMatchObject({ ok: true, result: { text: 'ok <' } });
  });

  it('GIVEN setMyCommands with and without a scope THEN each menu is kept under its scope, the default one as commands', async () => {
    expect(await call('setMyCommands', { commands: [{ command: 'goal', description: 'Set a goal' }] })).toEqual({ ok: true, result: true });
    expect(await call('setMyCommands', { commands: [{ command: 'help', description: 'Help' }], scope: { type: 'all_group_chats' } })).toEqual({ ok: true, result: true });
    expect(tg.commands).toEqual([{ command: 'goal', description: 'Set a goal' }]);
    expect(tg.menu('all_group_chats')).toEqual([{ command: 'help', description: 'Help' }]);
  });

  it('GIVEN a callback query nobody pressed THEN answering it is refused as Telegram refuses an old or unknown query', async () => {
    expect(await call('answerCallbackQuery', { callback_query_id: '1' })).toMatchObject({ ok: false, error_code: 400, description: expect.stringMatching(/query ID is invalid/) });
  });

  it('GIVEN a keyboard button with callback data over 64 bytes THEN sendMessage refuses it; a pressed button is answered once', async () => {
    const long = { inline_keyboard: [[{ text: 'Stop', callback_data: `stop:${'é'.repeat(31)}` }]] };
    expect(await call('sendMessage', { chat_id: 11, text: 'card', reply_markup: long })).toMatchObject({ ok: false, description: 'Bad Request: BUTTON_DATA_INVALID' });
    const sent = await call('sendMessage', { chat_id: 11, text: 'card', reply_markup: { inline_keyboard: [[{ text: 'Stop', callback_data: 'stop:steve' }]] } });
    expect(sent).toMatchObject({ ok: true, result: { reply_markup: { inline_keyboard: [[{ callback_data: 'stop:steve' }]] } } });
    const query = tg.pressButton({ from: ann, message: tg.sent[0] ?? expect.fail('no card'), data: 'stop:steve' });
    expect(() => tg.pressButton({ from: ann, message: tg.sent[0] ?? expect.fail('no card'), data: 'play:steve' })).toThrow(/shows no button "play:steve"/);
    expect(await call('answerCallbackQuery', { callback_query_id: query.id, text: 'Stopped.' })).toEqual({ ok: true, result: true });
    expect(await call('answerCallbackQuery', { callback_query_id: query.id })).toMatchObject({ ok: false, error_code: 400 });
    // An edit that changes nothing is refused; one that does is kept, keyboard and all.
    const same = { chat_id: 11, message_id: 1, text: 'card', reply_markup: { inline_keyboard: [[{ text: 'Stop', callback_data: 'stop:steve' }]] } };
    expect(await call('editMessageText', same)).toMatchObject({ ok: false, description: expect.stringMatching(/message is not modified/) });
    expect(await call('editMessageText', { ...same, text: 'card, stopped' })).toMatchObject({ ok: true, result: { text: 'card, stopped' } });
    expect(await call('editMessageText', { ...same, message_id: 99 })).toMatchObject({ ok: false, description: 'Bad Request: message to edit not found' });
    expect(tg.edits).toEqual([{ method: 'editMessageText', chat_id: 11, message_id: 1, plain: 'card, stopped', reply_markup: same.reply_markup }]);
  });
});
