/**
 * The real mindlink process against the fake Telegram, killed -9 the instant Telegram is told it received a
 * `Goal:` (the `getUpdates` whose offset moves past it), then started again on the same DATA_DIR: what was
 * confirmed must be stored and answered, each exactly once. Telegram never sends a confirmed update again, so a
 * message confirmed before its change is on disk would be lost whole. Once with the store's files, once with the
 * store in a real PostgreSQL (`DATABASE_URL`).
 */
import { readdirSync } from 'node:fs';
import type { Message } from 'grammy/types';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import {
  ALICE,
  ALICE_DM,
  alive,
  kill9,
  readStored,
  removeEvidence,
  repliesTo,
  startProcess,
  startTelegram,
  stopGracefully,
  telegramEnv,
  tempDir,
  until,
  type Proc,
  type RecordView,
  type StateView,
} from '../../chaos/harness.ts';

afterAll(removeEvidence);

describe.each([
  { store: 'files', available: true },
  { store: 'PostgreSQL', available: PG_BIN !== undefined },
])('a kill -9 the instant Telegram is told a message was received (the store in $store)', ({ store, available }) => {
  it.skipIf(!available)('GIVEN a Goal: behind /link and two directions in one poll WHEN mindlink is killed as the poll past them goes out THEN after a restart each is stored and answered exactly once', async () => {
    const db: TestPostgres | undefined = store === 'PostgreSQL' ? await startPostgres() : undefined;
    const tg = await startTelegram();
    const dataDir = await tempDir('tgkill');
    // No world to start: an external server that is not there (the avatar keeps trying to join; chat works).
    const env = telegramEnv(tg, dataDir, { EMBEDDED: 'off', MC_HOST: '127.0.0.1', MC_PORT: '1', MC_VERSION: '1.21.4', ...(db ? { DATABASE_URL: db.url } : {}) });
    const procs: Proc[] = [];
    try {
      // Written while mindlink is down, so its first poll gets them together: the goal is handled after the others.
      const texts = ['/link demo', 'keep away from lava', 'stay near the spawn', 'Goal: collect 7 oak logs'];
      const inbound: Message[] = texts.map((text) => tg.sendText({ chat: ALICE_DM, from: ALICE, text }));
      const goalUpdate = tg.lastUpdateId;
      // No reply reaches Telegram before the kill: each one stays in the outbox, sent once after the restart.
      tg.failSendsUntil({ kind: 'error', code: 502, description: 'Bad Gateway' }, Number.POSITIVE_INFINITY);

      const first = startProcess(env);
      procs.push(first);
      let killedAt: number | null = null;
      const off = tg.onConfirmed((upTo) => {
        if (upTo < goalUpdate || killedAt !== null) return;
        killedAt = upTo;
        // Before the fake answers this poll: nothing mindlink does after sending it counts.
        if (alive(first.pid)) process.kill(first.pid, 'SIGKILL');
      });
      await until(() => killedAt !== null || first.exitCode !== null, 'the poll that confirms the goal', 120_000);
      off();
      expect(killedAt).toBeGreaterThanOrEqual(goalUpdate);
      await kill9(first);
      tg.failSendsUntil(null);

      const second = startProcess(env);
      procs.push(second);
      await second.line(/^\[mindlink\] ready/, 90_000);
      const answered = (): boolean => inbound.every((m) => repliesTo(tg, ALICE_DM.id, m.message_id).length > 0);
      // On a lost message this wait runs out; the checks below then say what is missing.
      await until(answered, 'a reply to every message', 60_000).catch(() => undefined);
      expect(await stopGracefully(second)).toBe(0);

      const replies = inbound.map((m) => ({ text: m.text, replies: repliesTo(tg, ALICE_DM.id, m.message_id).map((r) => r.plain) }));
      expect(replies).toEqual([
        { text: '/link demo', replies: [expect.stringMatching(/demo/)] },
        { text: 'keep away from lava', replies: [expect.stringMatching(/Noted as direction #\d+/)] },
        { text: 'stay near the spawn', replies: [expect.stringMatching(/Noted as direction #\d+/)] },
        { text: 'Goal: collect 7 oak logs', replies: [expect.stringMatching(/New goal from Alice: collect 7 oak logs/)] },
      ]);
      const state = await readStored<StateView>(dataDir, 'state', db?.url);
      const record = await readStored<RecordView>(dataDir, 'record', db?.url);
      if (!state.ok || !record.ok) throw new Error('the data files did not load');
      const demo = state.value.avatars.find((a) => a.name === 'demo');
      const directions = [...(demo?.directions.open ?? []), ...(demo?.directions.done ?? [])].map((d) => d.text);
      expect(directions.filter((t) => t === 'keep away from lava' || t === 'stay near the spawn').sort()).toEqual(['keep away from lava', 'stay near the spawn']);
      const goals = [demo?.goal?.text, ...(demo?.parked ?? []).map((p) => p.text), ...record.value.goals.map((g) => g.text)];
      expect(goals.filter((g) => g === 'collect 7 oak logs')).toEqual(['collect 7 oak logs']);
      if (db) {
        // Nothing of the store went to the files, and the database's password reached no log line.
        expect(readdirSync(dataDir).filter((f) => f.endsWith('.json'))).toEqual([]);
        expect(procs.flatMap((p) => [...p.stdout, ...p.stderr]).join('\n')).not.toContain(db.password);
      }
    } finally {
      for (const p of procs) if (p.exitCode === null) await kill9(p);
      await tg.close();
      await db?.close();
    }
  }, 300_000);
});
