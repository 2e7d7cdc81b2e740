/**
 * Two real mindlink processes on one PostgreSQL store and one (fake) Telegram bot: only the holder of the front
 * end's lease polls Telegram and runs; the other stands by. Killing the active one (-9) lets the standby take over
 * once the lease lapses, and every message — answered before the kill, waiting in the outbox at the kill, or sent
 * while no core ran — is answered exactly once and stored once.
 */
import type { Message } from 'grammy/types';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_DM,
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
  type StateView,
} from '../../chaos/harness.ts';
import { PG_BIN, startPostgres } from '../postgres-server.ts';

afterAll(removeEvidence);

describe.skipIf(!PG_BIN)('two cores on one PostgreSQL store: one runs, the other stands by', () => {
  it('GIVEN core A running and core B standing by WHEN A is killed -9 with a reply in its outbox THEN B takes over once the lease lapses, and every message is answered and stored exactly once', async () => {
    const pg = await startPostgres();
    const tg = await startTelegram();
    const procs: Proc[] = [];
    try {
      // No world to start: an external server that is not there (the avatar keeps trying to join; chat works).
      const extra = { EMBEDDED: 'off', MC_HOST: '127.0.0.1', MC_PORT: '1', MC_VERSION: '1.21.4', DATABASE_URL: pg.url, LEASE_MS: '3000' };
      const a = startProcess(telegramEnv(tg, await tempDir('front-a'), extra));
      procs.push(a);
      await a.line(/^\[mindlink\] ready/, 120_000);
      const b = startProcess(telegramEnv(tg, await tempDir('front-b'), extra));
      procs.push(b);
      await until(() => b.stderr.some((l) => /standing by: another core .* runs mindlink on this database/.test(l)), 'B standing by', 120_000);
      expect(b.stdout.some((l) => /ready/.test(l))).toBe(false);

      const inbound: Message[] = [];
      const say = (text: string): Message => {
        const m = tg.sendText({ chat: ALICE_DM, from: ALICE, text });
        inbound.push(m);
        return m;
      };
      const link = say('/link demo');
      await until(() => repliesTo(tg, ALICE_DM.id, link.message_id).length > 0, 'A answering /link', 60_000);

      // A stores the direction and its reply, but Telegram refuses the reply: it waits in A's outbox, in the database.
      tg.failSendsUntil({ kind: 'error', code: 502, description: 'Bad Gateway' }, Number.POSITIVE_INFINITY);
      const calls = tg.calls.length;
      const lava = say('keep away from lava');
      const repliesToLava = (c: { params: Record<string, unknown> }): boolean => (c.params.reply_parameters as { message_id?: number } | undefined)?.message_id === lava.message_id;
      await tg.waitForCall('sendMessage', repliesToLava, { since: calls, timeoutMs: 60_000 });
      await kill9(a);
      tg.failSendsUntil(null);
      // Sent while no core polls.
      say('stay near the spawn');
      say('Goal: collect 7 oak logs');

      await b.line(/^\[mindlink\] ready/, 120_000);
      await until(() => inbound.every((m) => repliesTo(tg, ALICE_DM.id, m.message_id).length > 0), 'a reply to every message', 120_000).catch(() => undefined);
      expect(await stopGracefully(b)).toBe(0);

      expect(inbound.map((m) => ({ text: m.text, replies: repliesTo(tg, ALICE_DM.id, m.message_id).map((r) => r.plain) }))).toEqual([
        { text: '/link demo', replies: [expect.stringMatching(/demo/)] },
        { text: 'keep away from lava', replies: [expect.stringMatching(/Noted as direction #\d+/)] },
        { text: 'stay near the spawn', replies: [expect.stringMatching(/Noted as direction #\d+/)] },
        { text: 'Goal: collect 7 oak logs', replies: [expect.stringMatching(/New goal from Alice: collect 7 oak logs/)] },
      ]);
      const state = await readStored<StateView>('', 'state', pg.url);
      if (!state.ok) throw new Error(state.error);
      const demo = state.value.avatars.find((av) => av.name === 'demo');
      const directions = [...(demo?.directions.open ?? []), ...(demo?.directions.done ?? [])].map((d) => d.text).sort();
      expect(directions).toEqual(['keep away from lava', 'stay near the spawn']);
      expect(demo?.goal?.text ?? demo?.parked.map((p) => p.text).join()).toMatch(/collect 7 oak logs/);
      // The database's password never reached either core's output.
      for (const p of procs) expect([...p.stdout, ...p.stderr].join('\n')).not.toContain(pg.password);
    } finally {
      for (const p of procs) if (p.exitCode === null) await kill9(p);
      await tg.close();
      await pg.close();
    }
  }, 400_000);
});
