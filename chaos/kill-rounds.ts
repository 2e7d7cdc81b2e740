/**
 * kill -9 at random moments while goals, directions and posts are being
 * written and delivered, then a restart on the same DATA_DIR, round after
 * round. Counts what the promise "a restart loses nothing, nothing is posted
 * twice" allows to be zero.
 */
import type { Message } from 'grammy/types';
import { startPostgres, type TestPostgres } from '../test/postgres-server.ts';
import {
  evidence,
  ALICE,
  ALICE_DM,
  startTelegram,
  kill9,
  polling,
  readStored,
  repliesTo,
  rng,
  startProcess,
  stopGracefully,
  telegramEnv,
  tempDir,
  until,
  type OutboxView,
  type Proc,
  type RecordView,
  type StateView,
} from './harness.ts';

/** The figures of one kill -9 run. */
export interface KillFigures {
  rounds: number;
  /** Starts that did not reach "ready" (a store that failed to load, or a crash). */
  unloadable: number;
  goalsAcked: number;
  goalsLost: number;
  directionsAcked: number;
  directionsLost: number;
  /** An acknowledged direction stored more than once. */
  directionsDoubled: number;
  /** Inbound messages that got more than one reply, the first copy accepted well before a kill. */
  postsDoubled: number;
  /** Doubles whose first copy the platform accepted in the last instant before a kill (still pending in the outbox on disk after it). */
  postsResentAfterKill: number;
  /** Inbound messages that never got a reply, after the final settle. */
  postsNeverDelivered: number;
  /** Messages Telegram was told were received (the bot polled past them) that left no trace: no change, no reply. */
  messagesLost: number;
  /** Questions whose answering turn a kill cut short (no post was ever made for them; not a lost post). */
  questionsUnanswered: number;
  /** Processes mindlink had started that outlived it (killed by the harness). */
  orphans: number;
}

/**
 * Run `rounds` rounds of: start → a burst of goals, directions and questions
 * from the admin over Telegram → kill -9 after a random delay. Then one last
 * start that settles everything, and the checks. With `db`, the store is in a
 * real PostgreSQL this run starts and stops (`DATABASE_URL`), read from there.
 */
export async function killRounds(opts: { rounds: number; seed: number; db?: boolean; log?: (line: string) => void }): Promise<KillFigures> {
  const random = rng(opts.seed);
  const say = opts.log ?? (() => undefined);
  const db: TestPostgres | undefined = opts.db ? await startPostgres() : undefined;
  if (db) evidence.secrets.add(db.password);
  const tg = await startTelegram();
  const dataDir = await tempDir('kill');
  const env = telegramEnv(tg, dataDir, { LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000', ...(db ? { DATABASE_URL: db.url } : {}) });
  const figures: KillFigures = {
    rounds: opts.rounds,
    unloadable: 0,
    goalsAcked: 0,
    goalsLost: 0,
    directionsAcked: 0,
    directionsLost: 0,
    directionsDoubled: 0,
    postsDoubled: 0,
    postsResentAfterKill: 0,
    postsNeverDelivered: 0,
    questionsUnanswered: 0,
    messagesLost: 0,
    orphans: 0,
  };
  // When each kill happened, and which replies were still pending on disk right after it.
  const kills: number[] = [];
  const pendingAfterKill: { at: number; replyTo: Set<string> }[] = [];
  const inbound: Message[] = [];
  const directionTexts: string[] = [];
  let lastGoalAcked: string | null = null;
  let serial = 0;

  const start = async (): Promise<Proc | null> => {
    const callsBefore = tg.calls.length;
    const proc = startProcess(env);
    try {
      await proc.line(/^\[mindlink\] ready/, 90_000);
      await polling(tg, callsBefore, 60_000);
      return proc;
    } catch (err) {
      figures.unloadable += 1;
      say(`start failed: ${(err as Error).message.split('\n')[0]}`);
      await kill9(proc);
      return null;
    }
  };

  try {
    // Round 0 links demo to Alice's DM; it is not killed, so every later round starts linked.
    const first = await start();
    if (!first) throw new Error('chaos: the first start failed');
    const link = tg.sendText({ chat: ALICE_DM, from: ALICE, text: '/link demo' });
    await tg.waitForMessage((m) => m.chat_id === ALICE_DM.id && m.reply_to === link.message_id, { timeoutMs: 30_000 });
    await stopGracefully(first);

    for (let round = 1; round <= opts.rounds; round += 1) {
      const proc = await start();
      if (!proc) continue;
      const burst = 2 + Math.floor(random() * 5);
      for (let i = 0; i < burst; i += 1) {
        serial += 1;
        const pick = random();
        const text =
          pick < 0.3 ? `Goal: collect ${100 + serial} oak logs` : pick < 0.8 ? `keep away from lava, note ${serial}` : 'where are you?';
        inbound.push(tg.sendText({ chat: ALICE_DM, from: ALICE, text }));
        if (random() < 0.5) await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
      }
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      kills.push(Date.now());
      const { orphans } = await kill9(proc);
      // What the restart will see: the posts still pending on disk right after the kill.
      const onDisk = await readStored<OutboxView>(dataDir, 'outbox', db?.url);
      pendingAfterKill.push({ at: Date.now(), replyTo: new Set(onDisk.ok ? onDisk.value.pending.map((p) => p.replyTo ?? '') : []) });
      figures.orphans += orphans;
      say(`round ${round}/${opts.rounds}: ${burst} messages, killed`);
    }

    // The settle: one more start delivers whatever was pending; then a graceful stop flushes the store.
    const last = await start();
    if (last) {
      await until(
        () => inbound.every((m) => repliesTo(tg, ALICE_DM.id, m.message_id).length > 0 || !isAnswerable(m)),
        'every message to be answered',
        120_000,
      ).catch((err: unknown) => say((err as Error).message));
      await stopGracefully(last);
    }
  } finally {
    await tg.close();
  }
  const state = await readStored<StateView>(dataDir, 'state', db?.url);
  const record = await readStored<RecordView>(dataDir, 'record', db?.url);
  await db?.close();

  // What was acknowledged, from the replies the platform accepted.
  const unanswered: Message[] = [];
  for (const m of inbound) {
    const replies = repliesTo(tg, ALICE_DM.id, m.message_id);
    if (replies.length === 0) {
      if (isAnswerable(m)) unanswered.push(m);
      else figures.questionsUnanswered += 1;
    }
    if (replies.length > 1) {
      // A re-send is allowed only when the platform took the post in the last instant before a kill, that is,
      // when the outbox on disk after that kill still held it as pending; anything else is a double.
      const firstAt = replies[0]?.acceptedAt ?? 0;
      const pendingAtKill = pendingAfterKill.some((k) => k.at >= firstAt && k.replyTo.has(String(m.message_id)));
      if (pendingAtKill && replies.length === 2) figures.postsResentAfterKill += 1;
      else figures.postsDoubled += replies.length - 1;
      say(`${replies.length} replies to "${m.text}" (${pendingAtKill ? 'still pending on disk at a kill' : 'not pending at any kill'})`);
    }
    const ack = replies[0]?.plain ?? '';
    if (/^\[demo\] New goal from|^New goal from/.test(ack) && m.text?.startsWith('Goal:')) {
      figures.goalsAcked += 1;
      lastGoalAcked = m.text.slice('Goal:'.length).trim();
    }
    if (/Noted as direction #\d+/.test(ack)) {
      figures.directionsAcked += 1;
      directionTexts.push(m.text ?? '');
    }
  }

  if (!state.ok || !record.ok) {
    figures.unloadable += 1;
    return figures;
  }
  const demo = state.value.avatars.find((a) => a.name === 'demo');
  const storedTexts = [...(demo?.directions.open ?? []), ...(demo?.directions.done ?? [])].map((d) => d.text);
  const stored = storedTexts;
  // The book keeps the 12 newest open directions: an older one may have dropped out by design.
  directionTexts.forEach((text, i) => {
    const copies = stored.filter((s) => s === text).length;
    const newer = directionTexts.length - 1 - i;
    if (copies === 0 && newer < 12) figures.directionsLost += 1;
    if (copies > 1) figures.directionsDoubled += 1;
  });
  // An unanswered message whose change is in the store lost its reply; one whose change is not was lost whole.
  for (const m of unanswered) {
    const text = m.text ?? '';
    const goal = text.startsWith('Goal:') ? text.slice('Goal:'.length).trim() : null;
    const stored = goal
      ? demo?.goal?.text === goal || record.value.goals.some((g) => g.text === goal) || (demo?.parked.some((p) => p.text === goal) ?? false)
      : storedTexts.includes(text);
    if (stored) figures.postsNeverDelivered += 1;
    else figures.messagesLost += 1;
    say(`no reply to "${text}" (${stored ? 'its change is stored' : 'nothing of it is stored'})`);
  }
  if (lastGoalAcked) {
    const known =
      demo?.goal?.text === lastGoalAcked ||
      demo?.parked.some((p) => p.text === lastGoalAcked) ||
      record.value.goals.some((g) => g.avatar === 'demo' && g.text === lastGoalAcked);
    if (!known) figures.goalsLost += 1;
  }
  return figures;
}

/** A question is answered by the avatar's own turn, which may be cut short by a kill; everything else is answered at once. */
function isAnswerable(m: Message): boolean {
  return !(m.text ?? '').endsWith('?');
}
