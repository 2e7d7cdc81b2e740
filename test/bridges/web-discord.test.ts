/**
 * `/web` on Discord (the real discord.js client against our fake): the sign-in link is shown to the
 * person alone, and a pilot's page has the pilot's rights from the guild it was asked in.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebBridge } from '../../bridges/web/web-bridge.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeDiscord, option, type FakeChannel, type FakeGuild, type FakeRole, type FakeUser } from '../fakes/discord-api.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

const LINK = /(http:\/\/127\.0\.0\.1:\d+)\/login#([A-Za-z0-9_-]+)/;

describe('/web on Discord', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let web: WebBridge;
  let alice: FakeUser;
  let bob: FakeUser;
  let home: FakeGuild;
  let pilots: FakeRole;
  let general: FakeChannel;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    home = fake.addGuild('Home', { owner: alice });
    pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-dc-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}`, DISCORD_GUILD_ID: home.id });
    web = new WebBridge({ access: ml.core.web, dashboard: ml.core.dashboard, log: silentLogger(), host: '127.0.0.1', port: 0 });
    await ml.core.addBridge(web);
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN /web as a slash command in a channel THEN only the sender sees the link; typed as a message THEN the link is not posted', async () => {
    const answer = await fake.slash({ user: alice, channel: general, name: 'web' }).reply();
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toMatch(LINK);
    // Messages in a guild channel are read where an avatar is linked.
    expect(await fake.slash({ user: alice, channel: general, name: 'link', options: [option.string('avatar', 'demo')] }).reply()).toMatchObject({ content: '[demo] Linked to this chat (control).' });
    const before = fake.posts.length;
    fake.sendMessage({ channel: general, author: alice, content: '/web' });
    const note = await fake.waitForPost((p) => p.channelId === general.id && /answer is for you alone/.test(String(p.body.content)), 'the note about /web');
    expect(String(note.body.content)).toContain('use the slash command here');
    expect(fake.posts.slice(before).filter((p) => LINK.test(String(p.body.content)))).toEqual([]);
  });

  it('GIVEN a pilot of the guild that shares demo THEN their page may steer demo, as in the guild', async () => {
    expect(await fake.slash({ user: alice, channel: general, name: 'share', options: [option.role('role', pilots), option.string('avatar', 'demo')] }).reply()).toMatchObject({ ephemeral: false });
    const answer = await fake.slash({ user: bob, channel: general, name: 'web' }).reply();
    const [, origin, token] = LINK.exec(answer.content ?? '') ?? [];
    const login = await fetch(`${origin}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin ?? '' }, body: JSON.stringify({ token }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const rows = (await (await fetch(`${origin}/api/rows`, { headers: { Cookie: cookie } })).json()) as Array<{ name: string; mayControl: boolean }>;
    expect(rows.map((r) => [r.name, r.mayControl])).toEqual([['demo', true]]);
  });

  it('GIVEN a pilot who opened the page from a channel where demo is not linked THEN each direction is cut short, as /direction there', async () => {
    const elsewhere = fake.addChannel(home, 'elsewhere');
    const long = 'stay near the village and never dig straight down, whatever happens at night or in the rain';
    expect((await fake.slash({ user: alice, channel: general, name: 'goal', options: [option.string('text', 'collect 3 oak logs')] }).reply()).content).toContain('demo');
    fake.sendMessage({ channel: general, author: alice, content: long });
    await fake.waitForPost((p) => p.channelId === general.id && /Noted as direction #\d+/.test(String(p.body.content)), 'the direction noted');
    const answer = await fake.slash({ user: bob, channel: elsewhere, name: 'web' }).reply();
    const [, origin, token] = LINK.exec(answer.content ?? '') ?? [];
    const login = await fetch(`${origin}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin ?? '' }, body: JSON.stringify({ token }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const details = (await (await fetch(`${origin}/api/avatars/demo`, { headers: { Cookie: cookie } })).json()) as { directions: { text: string }[] };
    const shown = details.directions.map((d) => d.text);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.some((t) => t === long)).toBe(false);
    expect(shown.every((t) => t.length <= 60)).toBe(true);
  });
});
