/**
 * The hybrid engine end to end: the real core (goal loop, store, console bridge), the real embedded world
 * with a real mineflayer avatar, the real skills and script sandbox, and the llm engine's real `openai`
 * client against our fake OpenAI-compatible server, scripted to act as a model would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { FakeOpenAI, lastMessage, lastUserText, textOf, type FakeScript, type RecordedRequest } from '../fakes/openai-api.ts';
import { startWorld, tempDataDir, testLogger, waitFor } from '../game/helpers.ts';
import { startCoreOnWorld } from '../game/core-on-world.ts';

const log = testLogger();
const CONSOLE: ChatContext = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null };

/** The script a model would write for a pillar: dirt enough, then a free spot a few blocks off, stacked up. */
const PILLAR_CODE = [
  'const want = params.height;',
  'const held = (await inventory()).dirt ?? 0;',
  "if (held < want) await collect({ item: 'dirt', count: want - held });",
  'const p = await position();',
  'const fx = Math.floor(p.x), fy = Math.floor(p.y), fz = Math.floor(p.z);',
  'for (const [dx, dz] of [[3, 0], [-3, 0], [0, 3], [0, -3], [3, 3], [-3, -3], [3, -3], [-3, 3]]) {',
  '  for (const y of [fy, fy + 1, fy - 1]) {',
  '    try {',
  "      await place({ item: 'dirt', x: fx + dx, y, z: fz + dz });",
  '    } catch (err) {',
  '      continue;',
  '    }',
  "    for (let i = 1; i < want; i++) await place({ item: 'dirt', x: fx + dx, y: y + i, z: fz + dz });",
  "    return `pillar at ${fx + dx} ${y} ${fz + dz}`;",
  '  }',
  '}',
  "throw new Error('no free spot for a pillar');",
].join('\n');

const PILLAR = 'build a pillar of 3 dirt';

/**
 * A model that builds pillars: without a skill for it, it looks, then writes one (`build_dirt_pillar`, whose
 * postcondition is the goal) and says done once it is kept; with the skill offered as a tool, it calls it and
 * says done. It writes a lesson when asked, and has nothing to do otherwise.
 */
const builder: FakeScript = (req) => {
  const text = lastUserText(req);
  const last = lastMessage(req);
  const tools = (req.body.tools ?? []).map((t) => t.function.name);
  if (last?.role === 'user' && text.includes('Write the lesson')) return { content: 'A pillar is one call once it is a skill.\nSTATUS: working' };
  if (!text.includes(`Goal (set by your owner): ${PILLAR}`)) return { content: 'Nothing for me here.\nSTATUS: working' };
  if (last?.role === 'tool') {
    const result = textOf(last.content);
    if (result.startsWith('ok: kept') || result.startsWith('ok done')) return { content: 'The pillar stands.\nSTATUS: done' };
    if (result.startsWith('pos ')) {
      return {
        toolCalls: [
          {
            name: 'write_skill',
            arguments: {
              name: 'build_dirt_pillar',
              description: 'Build a free-standing pillar of dirt blocks a few blocks away, collecting the dirt first',
              code: PILLAR_CODE,
              params: { type: 'object', properties: { height: { type: 'integer', description: 'blocks high' } }, required: ['height'] },
              trial_params: { height: 3 },
              postcondition: 'build a pillar of {height} dirt',
            },
          },
        ],
      };
    }
    return { content: `That failed: ${result.slice(0, 200)}\nSTATUS: blocked` };
  }
  if (tools.includes('build_dirt_pillar')) return { toolCalls: [{ name: 'build_dirt_pillar', arguments: { height: 3 } }] };
  return { toolCalls: [{ name: 'look', arguments: {} }] };
};

describe('hybrid engine end to end (core + embedded world + sandbox + openai client + fake endpoint)', () => {
  let world: EmbeddedWorld;
  const worldDir = tempDataDir('hybrid-world');
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    world = await startWorld(worldDir.dir, log);
  }, 60_000);

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
    worldDir.remove();
  }, 60_000);

  async function start(dataDir: string, llm: FakeOpenAI): Promise<{ core: Mindlink; lines: string[]; send(line: string): void; until(cond: () => boolean, what: string, ms?: number): Promise<void>; stop(): Promise<void> }> {
    // No ENGINE: with a model configured, new avatars (demo) are hybrid.
    const config = parseConfig({ DATA_DIR: dataDir, LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model', LOOP_PACE_MS: '100', LOOP_MAX_PACE_MS: '800' });
    const lines: string[] = [];
    const { core, stdin } = await startCoreOnWorld({ world: () => world, config, log, lines });
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      await core.stop();
    };
    cleanups.push(stop);
    const requests = (): string => llm.requests.map((r) => `#${r.n} ${lastMessage(r)?.role}: ${(lastMessage(r)?.content ?? JSON.stringify(lastMessage(r)?.tool_calls ?? '')).slice(0, 160)}`).join('\n');
    return {
      core,
      lines,
      send: (line) => stdin.write(`${line}\n`),
      until: async (cond, what, ms = 240_000) => {
        try {
          await waitFor(cond, ms, what);
        } catch (err) {
          throw new Error(`${(err as Error).message}\nchat:\n${lines.join('\n')}\nrequests:\n${requests()}`);
        }
      },
      stop,
    };
  }

  /** The requests from the n-th on that belong to the pillar goal (its prompt, its tool steps), the wrap-up's excepted. */
  const pillarRequests = (llm: FakeOpenAI, from: number): RecordedRequest[] => llm.requests.slice(from).filter((r) => lastUserText(r).includes(`Goal (set by your owner): ${PILLAR}`));

  it('GIVEN a hybrid avatar and "Goal: build a pillar of 3 dirt" THEN the model writes a skill that builds it and Done: is posted; "collect 3 oak logs" asks no model; after a restart /skills lists the skill and the same goal takes one request fewer through it', async () => {
    const data = tempDataDir('hybrid-e2e');
    cleanups.push(() => data.remove());
    const llm = await FakeOpenAI.start(builder);
    cleanups.push(() => llm.close());

    const first = await start(data.dir, llm);
    expect(first.core.avatars.get('demo')?.engine).toBe('hybrid');
    await first.until(() => first.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 60_000);
    // The scripted engine chooses and plays its own goals meanwhile: no model request.
    await first.until(() => first.lines.some((l) => l.startsWith('[demo] New goal (my choice): ')), 'a goal of its own');
    expect(llm.requests).toEqual([]);

    first.send(`Goal: ${PILLAR}`);
    await first.until(() => first.lines.includes(`[demo] Done: ${PILLAR}`), 'the pillar Done');
    const firstRun = pillarRequests(llm, 0);
    // On a mismatch, what each request ended with (the tool results say why a trial failed).
    const said = firstRun.map((r) => `${lastMessage(r)?.role}: ${textOf(lastMessage(r)?.content ?? '').slice(0, 300)}`).join('\n');
    expect(firstRun.map((r) => lastMessage(r)?.role), said).toEqual(['user', 'tool', 'tool']);
    expect(firstRun[0]?.body.tools?.map((t) => t.function.name)).toContain('write_skill');
    expect(lastUserText(firstRun[0]!)).toContain("This turn is yours: the goal is outside the scripted engine's language");
    expect(lastMessage(firstRun[2]!)?.content).toMatch(/^ok: kept build_dirt_pillar \(its trial: /);
    const kept = await first.core.learned.list('demo');
    expect(kept).toMatchObject([{ name: 'build_dirt_pillar', runs: 1, successes: 1, goal: PILLAR, postcondition: 'build a pillar of {height} dirt' }]);
    // The loop checked the claim against the world: a free-standing column of 3 dirt stands near demo.
    const columns = first.core.avatars.snapshot('demo')?.columns ?? [];
    expect(columns.some((c) => c.block === 'dirt' && c.height >= 3)).toBe(true);
    // The model worked on it, so the model writes its lesson; then the scripted engine chooses again.
    await first.until(() => llm.requests.some((r) => lastUserText(r).includes('Write the lesson')), 'the wrap-up by the model');
    await first.until(() => first.core.avatars.get('demo')?.goal?.setBy === 'self', 'a goal of its own again');

    const before = llm.requests.length;
    first.send('Goal: collect 3 oak logs');
    await first.until(() => first.lines.includes('[demo] Done: collect 3 oak logs'), 'the logs Done');
    await first.until(() => first.core.avatars.get('demo')?.goal?.setBy === 'self', 'the next goal of its own');
    expect(llm.requests.length).toBe(before);

    first.send('/usage');
    await first.until(() => first.lines.some((l) => l.startsWith('[demo] in all: ')), '/usage');
    expect(first.lines).toContain('[demo] Usage of demo (hybrid engine, fake-model):');
    const inAll = first.lines.find((l) => l.startsWith('[demo] in all: ')) ?? '';
    const turns = /· turns: (\d+) scripted, (\d+) model$/.exec(inAll);
    expect(turns, inAll).not.toBeNull();
    expect(Number(turns?.[2])).toBe(2);
    expect(Number(turns?.[1])).toBeGreaterThan(2);
    first.send('/status');
    await first.until(() => first.lines.some((l) => l.startsWith('[demo] last turn: ')), '/status');
    expect(first.lines).toContain('[demo] last turn: scripted · hybrid engine');
    // Where the platform shows /status as a card, the last turn is one of its fields.
    const card = (await first.core.router.answerCommand({ ...CONSOLE, name: 'status' })).card;
    expect(card?.fields).toContainEqual({ name: 'Last turn', value: 'scripted · hybrid engine' });
    await first.stop();

    const second = await start(data.dir, llm);
    second.send('/skills');
    await second.until(() => second.lines.some((l) => l.startsWith('[demo] - build_dirt_pillar — ')), '/skills');
    expect(second.lines.find((l) => l.startsWith('[demo] - build_dirt_pillar — '))).toMatch(/ · 1\/1 runs succeeded$/);
    await second.until(() => second.core.avatars.displayState('demo') !== 'waiting', 'demo to join again', 60_000);
    const resumed = llm.requests.length;
    second.send(`Goal: ${PILLAR}`);
    await second.until(() => second.lines.includes(`[demo] Done: ${PILLAR}`), 'the second pillar Done');
    const secondRun = pillarRequests(llm, resumed);
    expect(secondRun[0]?.body.tools?.map((t) => t.function.name)).toContain('build_dirt_pillar');
    expect(secondRun).toHaveLength(firstRun.length - 1);
    expect(await second.core.learned.list('demo')).toMatchObject([{ name: 'build_dirt_pillar', runs: 2, successes: 2 }]);
    // Every tool the model called (look, write_skill, the kept skill) was one its request offered.
    expect(llm.unoffered).toEqual([]);
  }, 600_000);

  it('GIVEN a hybrid avatar whose provider is out of credit THEN a goal outside the language gets one line saying so, the scripted engine plays on, and the avatar does not stop', async () => {
    const data = tempDataDir('hybrid-refused');
    cleanups.push(() => data.remove());
    const llm = await FakeOpenAI.start(() => ({ error: { status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' } }));
    cleanups.push(() => llm.close());
    const r = await start(data.dir, llm);
    await r.until(() => r.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 60_000);
    r.send(`Goal: ${PILLAR}`);
    const said = "[demo] The model provider refused (insufficient_quota: You exceeded your current quota, please check your plan and billing details.), so the scripted engine plays on; I'll ask the model again in 1 hour.";
    await r.until(() => r.lines.includes(said), 'the refusal line');
    // The scripted engine cannot build: it sets the goal aside and carries on with goals of its own.
    await r.until(() => r.core.avatars.get('demo')?.goal?.setBy === 'self', 'a goal of its own');
    expect(r.core.avatars.get('demo')?.parked.map((p) => p.text)).toContain(PILLAR);
    expect(r.core.avatars.displayState('demo')).not.toBe('stopped');
    expect(r.lines.filter((l) => l.includes('Stopped'))).toEqual([]);
    expect(r.lines.filter((l) => l === said)).toHaveLength(1);
    expect(llm.requests).toHaveLength(1);
  }, 300_000);
});
