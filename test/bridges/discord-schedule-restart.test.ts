/**
 * At a restart, goals are taken in the order they were given: a message
 * written while mindlink was down, older than a scheduled run made up at
 * start, comes first, and the scheduled goal is parked behind it (as the run
 * would have parked it). Real core, real store on disk, real discord.js,
 * fake Discord.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser } from '../fakes/discord-api.ts';
import type { Script } from '../fakes/test-engine.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

/** mindlink's clock, after the restart, runs this far ahead: a message written "now" is older than a run it made up ten minutes ago. */
const AHEAD_MS = 30 * 60_000;

/** Works on every goal and finishes none, so the goals stay where the test puts them. */
const script: Script = (req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working');

describe('a restart with a scheduled run and an older message', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running | undefined;
  let alice: FakeUser;
  let general: FakeChannel;
  const env = (): Record<string, string> => ({ ADMINS: `discord:${alice.id}` });

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    const home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-sched-restart-'));
    ml = await startMindlink(fake, dir, env(), {}, { script });
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a daily run missed ten minutes ago and a Goal: written before it THEN the message\'s goal is taken and the scheduled one parked behind it', async () => {
    // A daily run ten minutes before the restart (UTC, alice's zone), of a schedule made yesterday.
    const slot = new Date(Math.floor((Date.now() + AHEAD_MS - 10 * 60_000) / 60_000) * 60_000);
    const at = `${String(slot.getUTCHours()).padStart(2, '0')}:${String(slot.getUTCMinutes()).padStart(2, '0')}`;
    const made = await fake.slash({ user: alice, channel: general, name: 'schedule', options: [option.string('text', `every day at ${at} collect 5 oak logs`)] }).reply();
    expect(made.content).toMatch(/^\[steve\] Schedule #1: collect 5 oak logs, every day at /);
    await ml?.core.stop();
    ml = undefined;
    const file = join(dir, 'schedules.json');
    const schedules = JSON.parse(await readFile(file, 'utf8')) as { schedules: { createdAt: string }[] };
    for (const s of schedules.schedules) s.createdAt = new Date(Date.now() - 24 * 3_600_000).toISOString();
    await writeFile(file, JSON.stringify(schedules));

    // Written while mindlink is down, about twenty minutes before the run; mindlink is back half an hour later.
    const goal = fake.sendMessage({ channel: general, author: alice, content: 'Goal: build a tower' });
    ml = await startMindlink(fake, dir, env(), {}, { script, now: () => new Date(Date.now() + AHEAD_MS) });
    const run = await fake.waitForPost((p) => p.content.startsWith('[steve] New goal from alice (schedule #1)'), 'the made-up run');
    expect(run.content).toBe('[steve] New goal from alice (schedule #1): collect 5 oak logs.');
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === goal.id, 'the answer to the older Goal:');
    expect(answer.content).toBe(
      '[steve] New goal from alice: build a tower. Your message came before the scheduled goal I was on (collect 5 oak logs), so that one is parked for later.',
    );
    const steve = ml.core.avatars.get('steve');
    expect(steve?.goal?.text).toBe('build a tower');
    expect(steve?.parked.map((p) => [p.text, p.reason])).toEqual([['collect 5 oak logs', "scheduled while I was on alice's goal"]]);
    expect(ml.core.store.record.data.goals.filter((g) => g.text === 'collect 5 oak logs').map((g) => g.outcome)).toEqual(['parked']);
  });

  it('GIVEN a message written after the scheduled goal was set THEN it replaces that goal as any Goal: does', async () => {
    const later = fake.sendMessage({ channel: general, author: alice, content: 'Goal: collect 5 oak logs' });
    await fake.waitForPost((p) => p.body.message_reference?.message_id === later.id);
    const next = fake.sendMessage({ channel: general, author: alice, content: 'Goal: dig a moat' });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === next.id);
    expect(answer.content).toBe('[steve] New goal from alice: dig a moat.');
    expect(ml?.core.avatars.get('steve')?.parked).toEqual([]);
  });
});
