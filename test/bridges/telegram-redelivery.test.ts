/**
 * Telegram sends an update again until the bot confirms it, and a bot killed before confirming gets it again at
 * its next start. The real core, store, grammy and fake Bot API: a message handled before a restart and delivered
 * again after it is neither applied nor answered twice, and one whose change reached the disk but whose reply did
 * not gets that reply, once. (The kill itself, on the real process: test/e2e/telegram-kill.e2e.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { FakeTelegram, privateChat, user } from '../fakes/telegram-api.ts';
import { FullDisk } from '../fakes/full-disk.ts';
import { startMindlink, type Running } from './telegram-helpers.ts';

const alice = user(1001, 'Alice');
const aliceDm = privateChat(alice);
const env = { ADMINS: `telegram:${alice.id}` };

describe('a Telegram message delivered again after a restart', () => {
  let tg: FakeTelegram | undefined;
  const dirs: string[] = [];
  const cores: Mindlink[] = [];

  afterEach(async () => {
    for (const core of cores.splice(0)) await core.stop().catch(() => undefined);
    await tg?.close();
    tg = undefined;
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  async function start(fake: FakeTelegram, dir: string, disk?: FullDisk): Promise<Running> {
    const ml = await startMindlink(fake, dir, env, disk ? { store: { adapter: disk.adapter } } : {});
    cores.push(ml.core);
    return ml;
  }

  /** Send updates again, as Telegram does at a start, and wait until they were accepted (the poll past them went out). */
  async function deliverAgain(fake: FakeTelegram, ...updates: number[]): Promise<void> {
    const since = fake.calls.length;
    for (const u of updates) fake.deliverAgain(u);
    const last = Math.max(...updates);
    await fake.waitForCall('getUpdates', (c) => Number(c.params.offset) > last, { since });
  }

  /** Every text `demo` was given as a direction, and every goal it had (now, parked, finished). */
  function storedOf(core: Mindlink): { directions: string[]; goals: string[] } {
    const demo = core.avatars.get('demo');
    const goals = [demo?.goal?.text, ...(demo?.parked ?? []).map((p) => p.text), ...core.store.record.data.goals.filter((g) => g.avatar === 'demo').map((g) => g.text)];
    return {
      directions: [...(demo?.directions.open ?? []), ...(demo?.directions.done ?? [])].map((d) => d.text),
      goals: goals.filter((g): g is string => g !== undefined),
    };
  }

  it('GIVEN a Goal: and a direction answered WHEN mindlink restarts and Telegram sends both again THEN neither is applied or answered again', async () => {
    const fake = await FakeTelegram.start();
    tg = fake;
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-again-'));
    dirs.push(dir);
    const first = await start(fake, dir);
    const goal = fake.sendText({ chat: aliceDm, from: alice, text: 'demo: Goal: collect 7 oak logs' });
    const goalUpdate = fake.lastUpdateId;
    const direction = fake.sendText({ chat: aliceDm, from: alice, text: 'demo: keep away from lava' });
    const directionUpdate = fake.lastUpdateId;
    await fake.waitForMessage((m) => m.reply_to === goal.message_id);
    await fake.waitForMessage((m) => m.reply_to === direction.message_id);
    await first.core.stop();
    const before = storedOf(first.core);
    expect(before.goals.filter((g) => g === 'collect 7 oak logs')).toHaveLength(1);
    expect(before.directions).toEqual(['keep away from lava']);

    const second = await start(fake, dir);
    const sentBefore = fake.sent.length;
    await deliverAgain(fake, goalUpdate, directionUpdate);
    await second.core.idle();

    expect(fake.sent.slice(sentBefore).map((m) => m.plain)).toEqual([]);
    expect(storedOf(second.core)).toEqual(before);
  });

  it('GIVEN a direction stored whose reply never reached the disk WHEN mindlink restarts and Telegram sends it again THEN it is stored once and answered once', async () => {
    const fake = await FakeTelegram.start();
    tg = fake;
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-again-'));
    dirs.push(dir);
    const disk = new FullDisk();
    const first = await start(fake, dir, disk);
    // The reply cannot be written, and Telegram takes no message, so it is not sent from memory either:
    // the disk holds the direction and not its reply, as a kill between the two writes leaves it.
    disk.fullFor.add('outbox.json');
    fake.failSendsUntil({ kind: 'error', code: 502, description: 'Bad Gateway' }, Number.POSITIVE_INFINITY);
    const direction = fake.sendText({ chat: aliceDm, from: alice, text: 'demo: keep away from lava' });
    const update = fake.lastUpdateId;
    // Accepted all the same (a disk that refuses does not hold back every chat): the direction is on disk.
    await fake.waitForConfirmed(update);
    expect(storedOf(first.core).directions).toEqual(['keep away from lava']);
    // Its last flush meets the refused outbox.
    await expect(first.core.stop()).rejects.toThrow();
    expect(fake.sent).toEqual([]);
    fake.failSendsUntil(null);

    const second = await start(fake, dir);
    expect(storedOf(second.core).directions).toEqual(['keep away from lava']);
    await deliverAgain(fake, update);
    await second.core.idle();

    expect(fake.sent.filter((m) => m.reply_to === direction.message_id).map((m) => m.plain)).toEqual(['[demo] Noted as direction #1.']);
    expect(storedOf(second.core).directions).toEqual(['keep away from lava']);
  });
});
