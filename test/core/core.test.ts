import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleBridge } from '../../bridges/console.ts';
import type { InboundMessage } from '../../src/chat.ts';
import { standInAgentsDir } from '../engines/agents/agent-helpers.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { StoreCorruptError, UserError } from '../../src/errors.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Avatar } from '../../src/store/schema.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine, type Script } from '../fakes/test-engine.ts';
import { consoleStreams } from './console-harness.ts';
import { filesOf } from '../../src/store/files.ts';

interface Running {
  core: Mindlink;
  stdin: PassThrough;
  lines: string[];
  engines: Map<string, TestEngine>;
  games: Map<string, FakeGame>;
  /** Resolves with the first stdout line matching, waiting for it if needed. */
  line(re: RegExp): Promise<string>;
  send(text: string): void;
}

const dirs: string[] = [];
const running: Mindlink[] = [];

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'mindlink-core-'));
  dirs.push(d);
  return d;
}

const defaultScript: Script = (req) => {
  if (req.kind === 'question') return `You asked: ${req.message}\nSTATUS: working`;
  if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
  return 'STATUS: working';
};

async function startCore(dataDir: string, opts: { console?: boolean; script?: Script; env?: Record<string, string> } = {}): Promise<Running> {
  const config = parseConfig({ DATA_DIR: dataDir, LOOP_PACE_MS: '50', LOOP_MAX_PACE_MS: '200', ...opts.env });
  const engines = new Map<string, TestEngine>();
  const games = new Map<string, FakeGame>();
  const core = await Mindlink.start({
    config,
    skills: createSkillRegistry,
    commands: createDispatcher(),
    log: silentLogger(),
    games: {
      create: (avatar) => {
        const g = new FakeGame(avatar.name);
        games.set(avatar.name, g);
        return g;
      },
      close: async () => {},
    },
    engines: (kind, ctx) => {
      if (kind === 'llm') throw new UserError('llm_not_configured', 'The llm engine is not available in this test.');
      const e = new TestEngine(opts.script ?? defaultScript);
      engines.set(ctx.avatar, e);
      return e;
    },
  });
  running.push(core);
  const io = consoleStreams();
  if (opts.console !== false) await core.addBridge(new ConsoleBridge(io.stdin, io.stdout, silentLogger()));
  return {
    core,
    stdin: io.stdin,
    lines: io.lines,
    engines,
    games,
    line: io.line,
    send: io.send,
  };
}

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('core over the console bridge', () => {
  it('GIVEN a first start THEN demo exists, is playing and linked to the console', async () => {
    const r = await startCore(await tempDir());
    expect(r.core.avatars.all().map((a) => [a.name, a.playing, a.engine])).toEqual([['demo', true, 'scripted']]);
    expect(r.core.store.state.data.links).toMatchObject([{ avatar: 'demo', dest: 'console', mode: 'control' }]);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
  });

  it('GIVEN Goal:, a question, a direction and /status on stdin THEN each gets its reply line', async () => {
    const r = await startCore(await tempDir());
    r.send('Goal: collect 3 oak logs');
    await r.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    r.send('how many logs do you have?');
    await r.line(/^\[demo\] You asked: how many logs do you have\?$/);
    r.send('stay near the village');
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    r.send('/direction');
    await r.line(/^\[demo\] #1 \(\d{4}-\d{2}-\d{2}\) stay near the village$/);
    r.send('/status');
    await r.line(/^\[demo\] (working|choosing|wrapup) · goal: collect 3 oak logs \(set by console\)$/);
    await r.line(/^\[demo\] position 0 64 0 \(overworld\) · health 20\/20 · food 20\/20$/);
    expect(r.lines.every((l) => /^\[(demo|mindlink)\] /.test(l))).toBe(true);
  });

  it('GIVEN 1990 emoji (two UTF-16 units each) THEN the message is within the 2000-character limit and becomes a direction', async () => {
    const r = await startCore(await tempDir());
    r.send(`stay ${'🪓'.repeat(1990)}`);
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    expect(r.core.avatars.get('demo')?.directions.open[0]?.text).toBe(`stay ${'🪓'.repeat(1990)}`);
  });

  it('GIVEN a 2500-character message THEN it is refused and nothing is stored', async () => {
    const r = await startCore(await tempDir());
    r.send(`Goal: ${'x'.repeat(2500)}`);
    await r.line(/^\[mindlink\] That message is 2506 characters; the limit is 2000\. Nothing was stored/);
    r.send(`${'y'.repeat(2500)}`);
    await r.line(/That message is 2500 characters/);
    const demo = r.core.avatars.get('demo');
    expect(demo?.goal?.text ?? '').not.toContain('xxx');
    expect(demo?.directions.open).toEqual([]);
  });

  it('GIVEN a lone "stop" THEN the avatar stops with no engine call, keeps its goal, and /play resumes it', async () => {
    const r = await startCore(await tempDir());
    r.send('Goal: explore');
    await r.line(/New goal from console: explore/);
    const engine = r.engines.get('demo') as TestEngine;
    const before = engine.requests.length;
    r.send('stop');
    await r.line(/^\[demo\] Stopped\. My goal is kept: \/play resumes it\.$/);
    expect(engine.requests.filter((q) => q.kind === 'question' || /stop/.test(q.message ?? ''))).toEqual([]);
    expect(engine.requests.length).toBeLessThanOrEqual(before + 1); // at most the turn already under way
    expect(r.core.avatars.displayState('demo')).toBe('stopped');
    expect(r.games.get('demo')?.stops).toBe(1);
    r.send('where are you?');
    await r.line(/^\[demo\] I'm stopped, so I can't look around\. \/play demo starts me\.$/);
    r.send('/status');
    await r.line(/^\[demo\] stopped · goal: explore/);
    const beforePlay = engine.requests.length;
    r.send('/play');
    await r.line(/^\[demo\] Playing\. Resuming my goal: explore$/);
    await engine.nextTurn(beforePlay + 1).then((q) => expect(q.kind).toBe('resume'));
  });

  it('GIVEN a chat with two avatars THEN a message needs a name, and "name: …" addresses one', async () => {
    const r = await startCore(await tempDir());
    r.send('/avatar create steve');
    await r.line(/^\[steve\] Created steve on embedded \(scripted engine\), linked to this chat\./);
    r.send('Goal: explore');
    await r.line(/^\[mindlink\] Several avatars here: demo, steve\. Name one/);
    r.send('steve: Goal: go to 1 64 1');
    await r.line(/^\[steve\] New goal from console: go to 1 64 1\. I'm stopped: \/play steve starts me\.$/);
    r.send('/status steve');
    await r.line(/^\[steve\] stopped · goal: go to 1 64 1/);
    r.send('/goal collect 5 dirt demo');
    await r.line(/^\[demo\] New goal from console: collect 5 dirt\.$/);
    r.send('/avatars');
    await r.line(/^\[mindlink\] steve: stopped \(owner console, scripted\)/);
  });

  it('GIVEN an unknown engine THEN /avatar create offers only the engines that can run here (no llm without LLM_MODEL, an agent engine once its CLI is installed), and stores nothing', async () => {
    const r = await startCore(await tempDir(), { env: { AGENTS_DIR: await tempDir() } });
    r.send('/avatar create bob engine:bogus');
    await r.line(/^\[mindlink\] There is no "bogus" engine here; engines: scripted\.$/);
    expect(r.core.avatars.get('bob')).toBeUndefined();
    const withPi = await startCore(await tempDir(), { env: { AGENTS_DIR: standInAgentsDir(await tempDir()) } });
    withPi.send('/avatar create bob engine:bogus');
    await withPi.line(/^\[mindlink\] There is no "bogus" engine here; engines: scripted, pi\.$/);
  });

  it('GIVEN an engine that cannot be built THEN /avatar create refuses and stores nothing', async () => {
    const r = await startCore(await tempDir());
    r.send('/avatar create bob engine:llm');
    await r.line(/^\[mindlink\] The llm engine is not available in this test\.$/);
    expect(r.core.avatars.get('bob')).toBeUndefined();
    expect(r.core.store.state.data.links.filter((l) => l.avatar === 'bob')).toEqual([]);
  });

  it('GIVEN unknown commands and bad arguments THEN clear one-line refusals', async () => {
    const r = await startCore(await tempDir());
    r.send('/fly');
    await r.line(/^\[mindlink\] There is no \/fly command\. \/help lists them\.$/);
    r.send('/avatar create x');
    await r.line(/^\[mindlink\] An avatar name is 3–16 letters/);
    r.send('/avatar create watcher1');
    await r.line(/^\[watcher1\] Created watcher1/);
    r.send('watcher1: Goal:   ');
    await r.line(/^\[watcher1\] Say what the goal is/);
    r.send('/link');
    await r.line(/^\[mindlink\] avatar: .*Usage: \/link <avatar> \[control\|watch\]$/);
    r.send('/help');
    await r.line(/^\[mindlink\] \/goal <text> \[avatar\] — /);
  });
});

describe('rights', () => {
  const tg = (from: string, text: string, dest = `telegram:${from.split(':')[1]}`): InboundMessage => ({
    platform: 'telegram',
    from,
    fromName: `user${from}`,
    dest,
    chatKind: dest === `telegram:${from.split(':')[1]}` ? 'private' : 'group',
    messageId: '1',
    text,
  });

  const TOKEN = { TELEGRAM_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi' };

  it('GIVEN a stranger THEN every message gets one refusal that names no avatar', async () => {
    const r = await startCore(await tempDir(), { console: false, env: TOKEN });
    await r.core.router.handleMessage(tg('telegram:99', 'Goal: collect 3 oak logs'));
    await r.core.router.handleMessage(tg('telegram:99', 'demo: where are you?'));
    await r.core.router.runCommand({ ...tg('telegram:99', ''), name: 'status', argsText: 'demo' });
    await r.core.router.runCommand({ ...tg('telegram:99', ''), name: 'avatars', argsText: '' });
    const posts = r.core.outbox.pending('telegram');
    expect(posts).toHaveLength(4);
    for (const p of posts) {
      expect(p.text).toMatch(/^I don't know you yet\./);
      expect(p.text).not.toMatch(/demo/);
    }
    expect(r.core.avatars.get('demo')?.goal?.text ?? null).not.toBe('collect 3 oak logs');
  });

  it('GIVEN a watcher in a linked group THEN questions and /status work but goals are refused', async () => {
    const r = await startCore(await tempDir(), { console: false, env: TOKEN });
    r.core.links.link('demo', 'telegram:-100', 'control');
    await r.core.router.handleMessage(tg('telegram:5', 'Goal: explore', 'telegram:-100'));
    await r.core.router.runCommand({ ...tg('telegram:5', '', 'telegram:-100'), name: 'status', argsText: '' });
    const posts = r.core.outbox.pending('telegram');
    expect(posts[0]?.text).toBe("You can't control demo: ask its owner.");
    expect(posts[1]?.text).toMatch(/^(working|choosing|waiting|wrapup) · /);
  });

  it('GIVEN a stranger, a watcher and the console admin THEN /help lists only the commands each may run, and no description repeats its usage', async () => {
    const r = await startCore(await tempDir(), { console: false, env: TOKEN });
    r.core.links.link('demo', 'telegram:-100', 'watch');
    const helpOf = async (chat: InboundMessage): Promise<string[]> => {
      await r.core.router.runCommand({ ...chat, name: 'help', argsText: '' });
      const reply = r.core.outbox.pending(chat.platform).at(-1)?.text ?? '';
      return reply.split('\n').filter((l) => l.startsWith('/')).map((l) => l.split(' ')[0] ?? '');
    };
    expect(await helpOf(tg('telegram:99', ''))).toEqual(['/pair', '/help']);
    expect(await helpOf(tg('telegram:5', '', 'telegram:-100'))).toEqual(['/status', '/direction', '/skills', '/skill', '/places', '/avatars', '/owner', '/web', '/pair', '/help']);
    const consoleChat: InboundMessage = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null, text: '' };
    const admin = await r.core.router.runCommand({ ...consoleChat, name: 'help', argsText: '' }).then(() => r.core.outbox.all().at(-1)?.text ?? '');
    expect(admin).toMatch(/^\/avatar create <name> \[server\] \[engine\] — Create an avatar, stopped until \/play \(admins\)$/m);
    expect(admin).toMatch(/^\/avatar move <name> <server> — Move a stopped avatar to another Minecraft server \(admins\)$/m);
    expect(admin).toMatch(/^\/server add <name> <host\[:port\]> \[version\] \[auth:offline\|microsoft\] — Add a Minecraft server once a ping finds it playable \(admins\)$/m);
    for (const line of admin.split('\n').filter((l) => l.startsWith('/'))) {
      const [usage, description] = line.split(' — ');
      expect(description, line).not.toContain(usage);
      expect(description, line).not.toMatch(/\/\w+ [<[]/);
    }
  });

  it('GIVEN a goal with markup, a secret and many words THEN /avatars shows it as /status does: plain, scrubbed, cut on a word', async () => {
    const r = await startCore(await tempDir(), { console: false });
    const goal = `**build** a <b>house</b> with ${TOKEN.TELEGRAM_TOKEN} and ${'more words '.repeat(12)}`;
    r.core.avatars.setGoal('demo', goal, 'console');
    const consoleChat: InboundMessage = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null, text: '' };
    await r.core.router.runCommand({ ...consoleChat, name: 'avatars', argsText: '' });
    const line = r.core.outbox.all().at(-1)?.text ?? '';
    expect(line).toMatch(/^demo: \w+ \(owner console, scripted\) — build a house with \[redacted\] and more words( more words)*…$/);
    expect(line.split(' — ')[1]?.length).toBeLessThanOrEqual(80);
  });

  it('GIVEN an ADMINS identity THEN it controls every avatar', async () => {
    const r = await startCore(await tempDir(), { console: false, env: { ADMINS: 'telegram:7' } });
    await r.core.router.handleMessage(tg('telegram:7', 'demo: Goal: collect 2 dirt'));
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('collect 2 dirt');
  });

  it('GIVEN a platform without its bridge configured THEN nothing is queued for it', async () => {
    const r = await startCore(await tempDir(), { console: false });
    r.core.links.link('demo', 'telegram:-100', 'control');
    r.core.poster.about('demo', 'info', 'hello', null);
    await r.core.router.handleMessage(tg('telegram:5', 'where are you?', 'telegram:-100'));
    expect(r.core.outbox.pending('telegram')).toEqual([]);
  });

  it('GIVEN posts waiting for a group WHEN the platform says the group moved THEN its links and its waiting posts follow it at once', async () => {
    const r = await startCore(await tempDir(), { console: false, env: { TELEGRAM_TOKEN: '123:secret-token' } });
    r.core.links.link('demo', 'telegram:-4200', 'control');
    r.core.poster.about('demo', 'info', 'hello', null);
    r.core.router.chatMoved('telegram:-4200', 'telegram:-1004200');
    expect([r.core.links.isLinkedTo('demo', 'telegram:-4200'), r.core.links.isLinkedTo('demo', 'telegram:-1004200')]).toEqual([false, true]);
    expect(r.core.outbox.pending('telegram').map((p) => [p.dest, p.text])).toEqual([['telegram:-1004200', 'hello']]);
  });

  it('GIVEN a pairing code THEN a wrong code is refused and rate-limited, the right one makes an admin once', async () => {
    const r = await startCore(await tempDir(), { console: false, env: TOKEN });
    const code = r.core.pairing.code as string;
    expect(code).toMatch(/^[0-9a-f]{10}$/);
    for (let i = 0; i < 6; i++) await r.core.router.runCommand({ ...tg('telegram:8', ''), name: 'pair', argsText: 'nope' });
    await r.core.router.runCommand({ ...tg('telegram:8', ''), name: 'pair', argsText: code });
    const texts = r.core.outbox.pending('telegram').map((p) => p.text);
    expect(texts.slice(0, 5)).toEqual(Array(5).fill('That pairing code is not valid.'));
    expect(texts[5]).toMatch(/Too many wrong codes/);
    expect(texts[6]).toMatch(/Too many wrong codes/);
    await r.core.router.runCommand({ ...tg('telegram:9', ''), name: 'pair', argsText: code });
    expect(r.core.outbox.pending('telegram').at(-1)?.text).toMatch(/^Paired: usertelegram:9 is now an admin/);
    await r.core.router.runCommand({ ...tg('telegram:10', ''), name: 'pair', argsText: code });
    expect(r.core.outbox.pending('telegram').at(-1)?.text).toBe('That pairing code is not valid.');
    expect(r.core.pairing.code).toBeNull();
  });
});

describe('restart', () => {
  it('GIVEN a goal and a post not yet delivered WHEN mindlink restarts THEN the goal resumes and the post is delivered exactly once', async () => {
    const dir = await tempDir();
    const first = await startCore(dir, { console: false });
    first.core.avatars.setGoal('demo', 'collect 3 oak logs', 'console');
    first.core.poster.about('demo', 'info', 'a post written before the restart', null);
    await first.core.stop();
    running.splice(running.indexOf(first.core), 1);

    const second = await startCore(dir);
    await second.line(/^\[demo\] a post written before the restart$/);
    const engine = second.engines.get('demo') as TestEngine;
    const req = await engine.nextTurn(1);
    expect(req.kind).toBe('resume');
    expect(req.goal?.text).toBe('collect 3 oak logs');
    await second.core.idle();
    await second.core.stop();
    running.splice(running.indexOf(second.core), 1);

    const third = await startCore(dir);
    await third.core.idle();
    expect(third.lines.filter((l) => l.includes('a post written before the restart'))).toEqual([]);
    expect(second.lines.filter((l) => l.includes('a post written before the restart'))).toHaveLength(1);
  });

  it('GIVEN a stored avatar whose engine cannot be built THEN the others still start and it stays stopped', async () => {
    const dir = await tempDir();
    const first = await startCore(dir, { console: false });
    filesOf(first.core.store).state.update((s) => {
      s.avatars.push({ ...(s.avatars[0] as Avatar), name: 'bob', engine: 'llm', playing: true, goal: null });
    });
    await first.core.stop();
    running.splice(running.indexOf(first.core), 1);
    const second = await startCore(dir, { console: false });
    expect(second.core.avatars.get('bob')).toMatchObject({ playing: false, state: 'stopped' });
    expect(second.core.avatars.displayState('demo')).not.toBe('stopped');
    await second.core.router.runCommand({ platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null, name: 'avatars', argsText: '' });
    const reply = second.core.outbox.pending('console').find((p) => p.kind === 'reply');
    expect(reply?.text).toMatch(/^demo: .*\nbob: stopped \(owner console, llm\)$/);
  });

  it('GIVEN a corrupt state.json THEN start-up stops with an error naming the file, which is left untouched', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'state.json'), '{"version":1,"avatars":[{"name":');
    await expect(startCore(dir)).rejects.toThrow(StoreCorruptError);
    await expect(startCore(dir)).rejects.toThrow(/state\.json/);
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe('{"version":1,"avatars":[{"name":');
  });
});
