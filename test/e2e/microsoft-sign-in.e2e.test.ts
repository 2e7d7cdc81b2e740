/**
 * The Microsoft sign-in of an avatar, end to end: the real process, the real
 * prismarine-auth against a fake of Microsoft's services (reached through
 * `test/fakes/microsoft-redirect.ts`), the fake Telegram for the owner's DM and
 * a group, and a world started here. The code reaches the owner's DM only;
 * the token cache is its owner's alone and lets a restart join with no code;
 * an unused code is followed by one more, then the avatar stops; an account
 * without Minecraft is refused; no token shows anywhere but in its cache.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { FakeMicrosoft } from '../fakes/microsoft.ts';
import { FakeTelegram, groupChat, user } from '../fakes/telegram-api.ts';
import { testLogger } from '../game/helpers.ts';
import { startMindlink, type MindlinkProcess } from './process.ts';

const REDIRECT = path.resolve('test/fakes/microsoft-redirect.ts');
const owner = user(111, 'Ada');
const group = groupChat(100, 'friends');

/** Resolves once `name` is among the world's players (asked every 200 ms); throws after a minute. */
async function inWorld(world: EmbeddedWorld, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let players = await world.players();
  while (!players.includes(name)) {
    if (Date.now() > deadline) throw new Error(`${name} is not in the world: ${players.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
    players = await world.players();
  }
}

/** Resolves once `name` has left the world. */
async function notInWorld(world: EmbeddedWorld, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await world.players()).includes(name)) {
    if (Date.now() > deadline) throw new Error(`${name} is still in the world`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('GIVEN a server added with auth:microsoft and an avatar owned by a Telegram user', () => {
  let dir = '';
  let worldDir = '';
  let world: EmbeddedWorld;
  let ms: FakeMicrosoft;
  let tg: FakeTelegram;
  let m: MindlinkProcess | undefined;
  /** Every run's stdout and stderr, for the leak check. */
  const outputs: string[] = [];
  const start = async (): Promise<MindlinkProcess> => {
    const proc = startMindlink(
      {
        DATA_DIR: dir,
        EMBEDDED: 'off',
        TELEGRAM_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.apiRoot,
        LOOP_PACE_MS: '300',
        LOG_LEVEL: 'debug',
        MINDLINK_TEST_MICROSOFT_URL: ms.url,
      },
      { imports: [REDIRECT] },
    );
    await proc.line(/^\[mindlink\] ready/, 90_000);
    return proc;
  };
  const stop = async (): Promise<void> => {
    if (!m) return;
    m.child.kill('SIGTERM');
    expect(await m.exited).toBe(0);
    outputs.push(m.lines.join('\n'), m.stderr.join('\n'));
    m = undefined;
  };
  const dmsTo = (chatId: number, avatar: string): string[] => tg.sent.filter((s) => s.chat_id === chatId && s.plain.includes(`${avatar} join`)).map((s) => s.plain);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-msauth-'));
    worldDir = await mkdtemp(path.join(tmpdir(), 'mindlink-msworld-'));
    world = await EmbeddedWorld.start({ dataDir: worldDir, log: testLogger(), version: '1.21.4' });
    ms = await FakeMicrosoft.start({ expiresInS: 3, intervalS: 1 });
    tg = await FakeTelegram.start();
    m = await start();
    m.send(`/server add ms 127.0.0.1:${world.port} auth:microsoft`);
    await m.line(/^\[mindlink\] Added ms \(127\.0\.0\.1:\d+\): Minecraft 1\.21\.4, 0\/100 online, offline mode\. Avatars there sign in with Microsoft: at an avatar's first \/play there, its owner gets a code by DM\./);
    for (const name of ['bob', 'cid', 'dan']) {
      m.send(`/avatar create ${name} server:ms`);
      await m.line(new RegExp(`^\\[${name}\\] Created ${name} on ms `));
      m.send(`/owner ${name} telegram:111`);
      await m.line(new RegExp(`^\\[${name}\\] Owner is now .*\\(telegram:111\\)\\.$`));
    }
    // The owner follows bob in a group too: the code must never go there.
    tg.sendText({ chat: group, from: owner, text: '/link bob' });
    await tg.waitForMessage((s) => s.chat_id === group.id && /bob/.test(s.plain), { timeoutMs: 30_000 });
  }, 240_000);

  afterAll(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    await world?.stop();
    await tg?.close();
    await ms?.close();
    await rm(dir, { recursive: true, force: true });
    await rm(worldDir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN /play bob THEN the code goes to the owner\'s DM only, /status says it waits for the sign-in, and once signed in bob plays as its profile\'s name', async () => {
    const proc = m as MindlinkProcess;
    proc.send('/play bob');
    const code = await ms.nextCode(0);
    const dm = await tg.waitForMessage((s) => s.chat_id === owner.id && s.plain.includes(code), { timeoutMs: 60_000 });
    expect(dm.plain).toBe(
      `[bob] To let bob join ms, sign in at https://www.microsoft.com/link with code ${code} (valid 1 min) using the Microsoft account that owns the Minecraft profile bob should play as.`,
    );
    proc.send('/status bob');
    await proc.line(/^\[bob\] waiting \(signing in: code sent to the owner\) · no goal/);
    ms.approve(code, { id: randomUUID(), name: 'BobMC' });
    await proc.line(/^\[bob\] bob plays on ms as BobMC: the Minecraft name of the Microsoft account it signed in with\.$/, 60_000);
    await inWorld(world, 'BobMC');
    // prismarine-auth went the whole way: Microsoft, Xbox Live, Minecraft.
    expect(new Set(ms.hits)).toEqual(
      new Set([
        'login.live.com/oauth20_connect.srf',
        'login.live.com/oauth20_token.srf',
        'user.auth.xboxlive.com/user/authenticate',
        'device.auth.xboxlive.com/device/authenticate',
        'title.auth.xboxlive.com/title/authenticate',
        'xsts.auth.xboxlive.com/xsts/authorize',
        'api.minecraftservices.com/authentication/login_with_xbox',
        'api.minecraftservices.com/minecraft/profile',
        'api.minecraftservices.com/player/certificates',
      ]),
    );
    // The code went to the DM and nowhere else: not the group, not the console, not the log.
    expect(tg.sent.filter((s) => s.plain.includes(code)).map((s) => s.chat_id)).toEqual([owner.id]);
    expect(proc.lines.join('\n')).not.toContain(code);
    expect(proc.stderr.join('\n')).not.toContain(code);
    const cache = path.join(dir, 'accounts', 'bob.microsoft.json');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(cache)).mode & 0o777).toBe(0o700);
  }, 180_000);

  it('GIVEN bob signed in WHEN mindlink restarts THEN bob joins again from the cache, with no code and no repeated name line', async () => {
    const codes = ms.codes.length;
    await stop();
    await notInWorld(world, 'BobMC');
    m = await start();
    const proc = m;
    await inWorld(world, 'BobMC');
    expect(ms.codes.length).toBe(codes);
    expect(proc.lines.some((l) => l.includes('plays on ms as BobMC'))).toBe(false);
  }, 180_000);

  it('GIVEN /play cid and nobody uses the codes THEN a second code follows the first, then cid stops saying why', async () => {
    const proc = m as MindlinkProcess;
    const before = ms.codes.length;
    proc.send('/play cid');
    const first = await ms.nextCode(before);
    await tg.waitForMessage((s) => s.chat_id === owner.id && s.plain.includes(first), { timeoutMs: 60_000 });
    const second = await ms.nextCode(before + 1);
    const again = await tg.waitForMessage((s) => s.chat_id === owner.id && s.plain.includes(second), { timeoutMs: 60_000 });
    expect(again.plain).toMatch(/^\[cid\] The sign-in code for cid expired unused; here is a new one, the last: to let cid join ms, sign in at /);
    await proc.line(/^\[cid\] Stopped: cid could not join ms: nobody signed in with the 2 codes sent to its owner before they expired\. \/play cid sends a new code\.$/, 60_000);
    expect(dmsTo(owner.id, 'cid')).toHaveLength(2);
    proc.send('/status cid');
    await proc.line(/^\[cid\] stopped \(the Microsoft sign-in failed: nobody signed in with the 2 codes/);
  }, 180_000);

  it('GIVEN /play dan and the owner signs in with an account without Minecraft THEN dan stops with a clear refusal and its cache is gone', async () => {
    const proc = m as MindlinkProcess;
    const before = ms.codes.length;
    proc.send('/play dan');
    const code = await ms.nextCode(before);
    await tg.waitForMessage((s) => s.chat_id === owner.id && s.plain.includes(code), { timeoutMs: 60_000 });
    ms.approve(code, null);
    await proc.line(
      /^\[dan\] Stopped: dan could not join ms: the Microsoft account it was signed in with has no Minecraft: Java Edition profile \(it does not own the game\)\. \/play dan asks for a code again: sign in with the Microsoft account that owns Minecraft\.$/,
      60_000,
    );
    expect(filesUnder(path.join(dir, 'accounts')).map((f) => path.basename(f))).not.toContain('dan.microsoft.json');
  }, 180_000);

  it('GIVEN all of it THEN no token the fake handed out is in any stdout, stderr, post or data file but the token cache', async () => {
    await stop();
    expect(ms.tokens.length).toBeGreaterThan(5);
    const caches = new Set(filesUnder(path.join(dir, 'accounts')).filter((f) => f.endsWith('.microsoft.json')));
    const places: [string, string][] = [
      ...outputs.map((text, i): [string, string] => [`output ${i}`, text]),
      ...tg.sent.map((s, i): [string, string] => [`post ${i}`, s.text]),
      ...filesUnder(dir)
        .filter((f) => !caches.has(f) && !f.includes(`${path.sep}world${path.sep}`))
        .map((f): [string, string] => [f, readFileSync(f, 'latin1')]),
    ];
    const leaks = places.flatMap(([where, text]) => ms.tokens.filter((t) => text.includes(t)).map((t) => `${t.slice(0, 8)}… in ${where}`));
    expect(leaks).toEqual([]);
    // The tokens are where they belong.
    const bob = readFileSync(path.join(dir, 'accounts', 'bob.microsoft.json'), 'utf8');
    expect(ms.tokens.some((t) => bob.includes(t))).toBe(true);
  }, 60_000);
});
