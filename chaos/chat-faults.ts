/**
 * Chat faults while avatars post: for a while, Telegram answers every send
 * with 429 (Retry-After), then 5xx, then drops the connection, round and
 * round, and long polls are dropped now and then; Telegram's own rate limits
 * are enforced throughout. Afterwards every message must have exactly one
 * reply, and no send may come before a Retry-After has passed.
 */
import type { Message, User } from 'grammy/types';
import {
  type FakeTelegram,
  startTelegram,
  polling,
  privateChat,
  repliesTo,
  rng,
  startProcess,
  stopGracefully,
  tempDir,
  until,
  user,
} from './harness.ts';

/** The figures of one chat-fault run. */
export interface ChatFaultFigures {
  messages: number;
  lost: number;
  doubled: number;
  /** 429s injected by the outages (each tells the bot how long to wait). */
  injected429: number;
  /** Sends that came before an earlier 429's Retry-After had passed. */
  retryAfterIgnored: number;
  /** 429s for going over Telegram's limits (our own pacing should leave none). */
  pacing429: number;
}

const ADMINS = Array.from({ length: 4 }, (_, i) => user(1301 + i, `Pilot${i + 1}`));

/** Run the faults for `faultMs`, with `ADMINS` sending directions all along. */
export async function chatFaults(opts: { faultMs: number; seed: number; log?: (line: string) => void }): Promise<ChatFaultFigures> {
  const random = rng(opts.seed);
  const say = opts.log ?? (() => undefined);
  const tg = await startTelegram();
  tg.enforceRateLimits({ perChatMs: 900, groupPerMinute: 20, globalPerSecond: 30 });
  const dataDir = await tempDir('chat');
  const proc = startProcess({
    DATA_DIR: dataDir,
    TELEGRAM_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    ADMINS: ADMINS.map((a) => `telegram:${a.id}`).join(','),
  });
  const sent: { from: User; message: Message }[] = [];
  try {
    const callsBefore = tg.calls.length;
    await proc.line(/^\[mindlink\] ready/, 90_000);
    await polling(tg, callsBefore);
    for (const a of ADMINS) {
      const m = tg.sendText({ chat: privateChat(a), from: a, text: '/link demo' });
      await tg.waitForMessage((s) => s.chat_id === m.chat.id && s.reply_to === m.message_id, { timeoutMs: 30_000 });
    }
    const injectedBefore = tg.rateLimited.injected;
    const ignoredBefore = tg.retryAfterIgnored;
    const pacingBefore = tg.rateLimited.pacing;

    const phases = [
      { name: '429', failure: { kind: 'rate_limit', retryAfter: 1 } as const },
      { name: '5xx', failure: { kind: 'error', code: 502, description: 'Bad Gateway' } as const },
      { name: 'drop', failure: { kind: 'drop' } as const },
    ];
    const end = Date.now() + opts.faultMs;
    const senders = ADMINS.map(async (a, i) => {
      let k = 0;
      while (Date.now() < end) {
        k += 1;
        sent.push({ from: a, message: tg.sendText({ chat: privateChat(a), from: a, text: `mind the creepers, note ${i}.${k}` }) });
        await new Promise((r) => setTimeout(r, 600 + Math.floor(random() * 800)));
      }
    });
    const faults = (async () => {
      let p = 0;
      while (Date.now() < end) {
        const phase = phases[p % phases.length] ?? phases[0];
        if (!phase) break;
        const length = Math.min(end - Date.now(), 2000 + Math.floor(random() * 4000));
        say(`chat faults: ${phase.name} for ${length} ms`);
        tg.failSendsUntil(phase.failure, Date.now() + length);
        if (random() < 0.5) tg.failNext('getUpdates', { kind: 'drop' });
        await new Promise((r) => setTimeout(r, length));
        // A quiet spell between outages, as real ones come and go.
        tg.failSendsUntil(null);
        await new Promise((r) => setTimeout(r, 1000 + Math.floor(random() * 2000)));
        p += 1;
      }
    })();
    await Promise.all([...senders, faults]);
    tg.failSendsUntil(null);
    await until(() => sent.every(({ from, message }) => repliesTo(tg, from.id, message.message_id).length > 0), 'every message to be answered', 180_000).catch(
      (err: unknown) => say((err as Error).message),
    );
    const fig: ChatFaultFigures = {
      messages: sent.length,
      lost: 0,
      doubled: 0,
      injected429: tg.rateLimited.injected - injectedBefore,
      retryAfterIgnored: tg.retryAfterIgnored - ignoredBefore,
      pacing429: tg.rateLimited.pacing - pacingBefore,
    };
    if (fig.pacing429 > 0 || fig.retryAfterIgnored > 0) for (const a of ADMINS) say(`sends to ${a.first_name}: ${sendTimeline(tg, a.id)}`);
    for (const { from, message } of sent) {
      const n = repliesTo(tg, from.id, message.message_id).length;
      if (n === 0) fig.lost += 1;
      if (n > 1) fig.doubled += n - 1;
    }
    return fig;
  } finally {
    await stopGracefully(proc);
    await tg.close();
  }
}

/** The sends to one chat as a timeline (for a failing run's log): ms since the first, and what the fake answered. */
export function sendTimeline(tg: FakeTelegram, chatId: number): string {
  const sends = tg.calls.filter((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === chatId);
  const t0 = sends[0]?.at ?? 0;
  return sends.map((c) => `${c.at - t0}:${c.outcome ?? '?'}`).join(' ');
}
