/**
 * `stop` at every moment of an avatar's first seconds in the game, as a user
 * who changes their mind sends it: the real process (embedded world, scripted
 * engine), over the console and over Discord (real discord.js against our fake).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser } from '../fakes/discord-api.ts';
import { startMindlink, type MindlinkProcess } from './process.ts';

/** The moments after `/play` at which the goal and its stop are sent: every 250 ms of the first 5 s. */
const MOMENTS_MS = Array.from({ length: 21 }, (_, k) => k * 250);
/** A stop not answered within this counts as never answered (a wedged chat never answers at all). */
const NO_ANSWER_MS = 15_000;

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `answer`, or a rejection naming what did not come and what was seen so far. */
async function answered<T>(answer: Promise<T>, what: string, seen: readonly string[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${NO_ANSWER_MS} ms; seen so far:\n${seen.join('\n')}`)), NO_ANSWER_MS);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('stop in the first seconds after start-up (the real process)', () => {
  let dir = '';
  let m: MindlinkProcess;
  let fake: FakeDiscord;
  let alice: FakeUser;
  let general: FakeChannel;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: 'fake-discord-bot-token-for-tests' });
    alice = fake.addUser('alice');
    const home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-stop-'));
    m = startMindlink({ DATA_DIR: dir, DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, ADMINS: `discord:${alice.id}` });
    await m.line(/^\[mindlink\] ready/, 120_000);
  }, 150_000);

  afterAll(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGTERM');
      await m.exited;
    }
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  /**
   * Send `Goal:` to `avatar` and, the moment it is acknowledged, `stop`; resolves with how long the stop took to be
   * answered, once `/status` (sent right after) says stopped.
   */
  async function goalThenStop(avatar: string, what: string): Promise<number> {
    let from = m.lines.length;
    m.send(`${avatar}: Goal: collect 40 oak logs`);
    await m.line(new RegExp(`^\\[${avatar}\\] New goal from console: collect 40 oak logs\\.`), NO_ANSWER_MS, from);
    from = m.lines.length;
    m.send(`${avatar}: stop`);
    const sent = Date.now();
    await m.line(new RegExp(`^\\[${avatar}\\] (Stopped\\.|Already stopped)`), NO_ANSWER_MS, from).catch((err: Error) => {
      throw new Error(`the stop ${what} was not answered: ${err.message}`);
    });
    const took = Date.now() - sent;
    from = m.lines.length;
    m.send(`/status ${avatar}`);
    await m.line(new RegExp(`^\\[${avatar}\\] stopped · `), NO_ANSWER_MS, from).catch((err: Error) => {
      throw new Error(`/status after the stop ${what} did not say stopped: ${err.message}`);
    });
    return took;
  }

  it('GIVEN a fresh DATA_DIR WHEN Goal: comes right after demo posts its first goal and stop right after its acknowledgement THEN the stop is answered and /status says stopped', async () => {
    await m.line(/^\[demo\] New goal \(my choice\): /, 60_000);
    const took = await goalThenStop('demo', 'right after the first goal');
    process.stderr.write(`stop right after the first goal: answered after ${took} ms\n`);
    const from = m.lines.length;
    m.send('/play demo');
    await m.line(/^\[demo\] Playing\. Resuming my goal: collect 40 oak logs$/, NO_ANSWER_MS, from);
  }, 120_000);

  it('GIVEN a fresh avatar WHEN Goal: and stop come at each moment of its first 5 s after /play THEN each stop is answered and /status says stopped right after', async () => {
    const seen: string[] = [];
    for (const moment of MOMENTS_MS) {
      const name = `st${moment}`;
      const from = m.lines.length;
      m.send(`/avatar create ${name}`);
      m.send(`/play ${name}`);
      await m.line(new RegExp(`^\\[${name}\\] Playing\\. Choosing my first goal\\.$`), NO_ANSWER_MS, from);
      const played = Date.now();
      await pause(moment);
      seen.push(`${Date.now() - played} ms after /play: answered after ${await goalThenStop(name, `${moment} ms after /play`)} ms`);
    }
    // The figures of this run, for whoever reads the output.
    process.stderr.write(`console stops:\n${seen.join('\n')}\n`);
  }, 600_000);

  it('GIVEN demo linked to a Discord channel WHEN /goal and /stop come at each moment of its first 5 s after /play THEN each /stop is answered and /status says stopped right after', async () => {
    const seen: string[] = [];
    const slash = (name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) =>
      answered(fake.slash({ user: alice, channel: general, name, options }).reply(), `answer to /${name}`, seen);
    expect(await slash('link', [option.string('avatar', 'demo')])).toMatchObject({ content: '[demo] Linked to this chat (control).' });
    for (const moment of MOMENTS_MS) {
      expect((await slash('play')).content).toMatch(/^\[demo\] (Playing\.|Already playing)/);
      const played = Date.now();
      await pause(moment);
      expect((await slash('goal', [option.string('text', 'collect 40 oak logs')])).content).toMatch(/^\[demo\] New goal from alice: collect 40 oak logs\./);
      const sent = Date.now();
      const stopped = await slash('stop');
      seen.push(`${sent - played} ms after /play: answered after ${Date.now() - sent} ms`);
      expect(stopped.content, `the /stop ${moment} ms after /play`).toMatch(/^\[demo\] (Stopped\.|Already stopped)/);
      // On Discord /status is a card: its title is the avatar, its description the state line.
      const card = ((await slash('status')).body as { embeds?: { title?: string; description?: string }[] }).embeds?.[0];
      expect(card?.title, `/status after the /stop ${moment} ms after /play`).toBe('demo');
      expect(card?.description, `/status after the /stop ${moment} ms after /play`).toMatch(/^stopped\b/);
    }
    process.stderr.write(`discord stops:\n${seen.join('\n')}\n`);
  }, 600_000);
});
