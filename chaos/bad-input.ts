/**
 * Generated bad input through the console and Telegram, from admins with a
 * linked chat and from strangers: every input gets exactly one reply, nothing
 * crashes, no store file is corrupted, nothing pings, and no reply to a
 * stranger names an avatar or a coordinate.
 */
import path from 'node:path';
import type { Message, User } from 'grammy/types';
import { COORDINATES, generateInputs, RAW_CONTROL, type Input } from './inputs.ts';
import {
  startTelegram,
  polling,
  privateChat,
  readJson,
  repliesTo,
  rng,
  startProcess,
  stopGracefully,
  tempDir,
  until,
  user,
  type OutboxView,
  type Proc,
  type StateView,
} from './harness.ts';

/** The figures of one bad-input run. */
export interface BadInputFigures {
  inputs: number;
  crashes: number;
  /** Telegram inputs with no reply / more than one; console inputs with no reply line. */
  missingReplies: number;
  extraReplies: number;
  /** Replies to strangers that name an avatar or print a coordinate. */
  leaks: number;
  /** Replies that notify anyone (a mention), or carry raw control characters. */
  pings: number;
  rawControl: number;
  corruptStores: number;
  /** The first few failures, for the log. */
  examples: string[];
}

const ADMINS = Array.from({ length: 8 }, (_, i) => user(1101 + i, `Admin${i + 1}`));
const STRANGERS = Array.from({ length: 12 }, (_, i) => user(2201 + i, `Stranger${i + 1}`));

/** Run `count` generated inputs (about 60 % from admins, 25 % from strangers, 15 % on the console). */
export async function badInput(opts: { count: number; seed: number; log?: (line: string) => void }): Promise<BadInputFigures> {
  const random = rng(opts.seed);
  const say = opts.log ?? (() => undefined);
  const inputs = generateInputs(opts.count, random);
  const fig: BadInputFigures = {
    inputs: inputs.length,
    crashes: 0,
    missingReplies: 0,
    extraReplies: 0,
    leaks: 0,
    pings: 0,
    rawControl: 0,
    corruptStores: 0,
    examples: [],
  };
  const fail = (what: string, input: Input, detail = ''): void => {
    if (fig.examples.length < 12) fig.examples.push(`${what}: ${JSON.stringify(input.text.slice(0, 80))} (${input.template}) ${detail}`.trim());
  };
  const tg = await startTelegram();
  const dataDir = await tempDir('input');
  const env = {
    DATA_DIR: dataDir,
    TELEGRAM_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    ADMINS: ADMINS.map((a) => `telegram:${a.id}`).join(','),
    LOOP_PACE_MS: '500',
  };
  let proc: Proc | undefined;
  const sentByTelegram: { input: Input; from: User; message: Message; stranger: boolean }[] = [];
  try {
    const callsBefore = tg.calls.length;
    proc = startProcess(env);
    await proc.line(/^\[mindlink\] ready/, 90_000);
    await polling(tg, callsBefore);
    // Each admin links demo to their DM, as a new admin would.
    for (const admin of ADMINS) {
      const m = tg.sendText({ chat: privateChat(admin), from: admin, text: '/link demo' });
      await tg.waitForMessage((s) => s.chat_id === m.chat.id && s.reply_to === m.message_id, { timeoutMs: 30_000 });
    }
    say(`${ADMINS.length} admins linked demo to their DMs`);
    let done = 0;
    const progress = (): void => {
      done += 1;
      if (done % 10 === 0) say(`${done}/${inputs.length} inputs answered`);
    };

    // Deal the inputs out: the console takes none of the questions (their answers come later, from a turn).
    const queues = new Map<string, Input[]>();
    const consoleQueue: Input[] = [];
    for (const input of inputs) {
      const roll = random();
      if (roll < 0.15 && !input.text.trimEnd().endsWith('?') && !input.text.includes('\n')) consoleQueue.push(input);
      else {
        const who = roll < 0.4 ? STRANGERS[Math.floor(random() * STRANGERS.length)] : ADMINS[Math.floor(random() * ADMINS.length)];
        const key = String(who?.id);
        queues.set(key, [...(queues.get(key) ?? []), input]);
      }
    }
    const running = proc;
    const people = [...ADMINS, ...STRANGERS];
    const telegramRuns = [...queues.entries()].map(async ([id, list]) => {
      const from = people.find((p) => String(p.id) === id) as User;
      const stranger = STRANGERS.includes(from);
      for (const input of list) {
        if (running.exitCode !== null) return;
        const message = tg.sendText({ chat: privateChat(from), from, text: input.text });
        sentByTelegram.push({ input, from, message, stranger });
        await tg
          .waitForMessage((s) => s.chat_id === from.id && s.reply_to === message.message_id, { timeoutMs: 90_000 })
          .catch(() => say(`no reply in 90 s to ${JSON.stringify(input.text.slice(0, 60))}`));
        progress();
      }
    });
    const consoleRun = (async () => {
      let k = 0;
      for (const input of consoleQueue) {
        if (running.exitCode !== null) return;
        k += 1;
        // Command names are letters only: the sentinel's number is spelt in letters.
        const tag = [...String(k)].map((d) => 'abcdefghij'[Number(d)]).join('');
        const before = running.stdout.length;
        running.send(input.text);
        running.send(`/zzsentinel${tag}`);
        const sentinel = await running.line(new RegExp(`no /zzsentinel${tag} command`), 90_000).catch(() => { say(`console: no sentinel after ${JSON.stringify(input.text.slice(0, 60))}`); return null; });
        progress();
        if (!sentinel) continue;
        const between = running.stdout.slice(before, running.stdout.indexOf(sentinel));
        // An empty line (or one that is only blanks) is not a message: mindlink may say nothing about it.
        if (between.length === 0 && input.text.trim() !== '') {
          fig.missingReplies += 1;
          fail('console: no reply', input);
        }
      }
    })();
    await Promise.all([...telegramRuns, consoleRun]);
    // Let whatever is still queued be delivered, so extra replies show.
    await until(() => {
      const outbox = readJson<OutboxView>(path.join(dataDir, 'outbox.json'));
      return outbox.ok && outbox.value.pending.length === 0;
    }, 'the outbox to drain', 120_000).catch((err: unknown) => say((err as Error).message));

    if (running.exitCode !== null) {
      fig.crashes += 1;
      say(`mindlink exited (${running.exitCode}) during the input run; stderr tail:\n${running.stderr.slice(-10).join('\n')}`);
    }
  } finally {
    if (proc && proc.exitCode === null) {
      const code = await stopGracefully(proc);
      if (code !== 0) fig.crashes += 1;
    }
  }

  // The store must load again.
  const again = startProcess(env);
  const loaded = await again.line(/^\[mindlink\] ready/, 90_000).then(
    () => true,
    () => false,
  );
  if (!loaded) fig.corruptStores += 1;
  await stopGracefully(again);
  await tg.close();

  const state = readJson<StateView>(path.join(dataDir, 'state.json'));
  if (!state.ok) fig.corruptStores += 1;
  const avatarNames = state.ok ? state.value.avatars.map((a) => a.name) : ['demo'];
  const nameRe = new RegExp(`\\b(${avatarNames.join('|')})\\b`, 'i');

  for (const { input, from, message, stranger } of sentByTelegram) {
    const replies = repliesTo(tg, from.id, message.message_id);
    if (replies.length === 0) {
      fig.missingReplies += 1;
      fail('telegram: no reply', input);
    }
    if (replies.length > 1) {
      fig.extraReplies += replies.length - 1;
      fail('telegram: several replies', input, replies.map((r) => JSON.stringify(r.plain.slice(0, 60))).join(' / '));
    }
    for (const r of replies) {
      if (r.mentions.length > 0) {
        fig.pings += 1;
        fail('telegram: a reply mentions someone', input, r.plain.slice(0, 80));
      }
      if (RAW_CONTROL.test(r.text)) {
        fig.rawControl += 1;
        fail('telegram: raw control characters in a reply', input);
      }
      if (stranger && (nameRe.test(r.plain) || COORDINATES.test(r.plain))) {
        fig.leaks += 1;
        fail('telegram: a stranger learnt something', input, r.plain.slice(0, 80));
      }
    }
  }
  // The console is a terminal: no line of the run may carry a raw control character.
  const rawLines = (proc?.stdout ?? []).filter((l) => RAW_CONTROL.test(l));
  if (rawLines.length > 0) {
    fig.rawControl += rawLines.length;
    if (fig.examples.length < 12) fig.examples.push(`console: raw control characters in ${JSON.stringify(rawLines[0])}`);
  }
  return fig;
}
