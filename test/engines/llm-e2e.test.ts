/**
 * The llm engine end to end: the real core (goal loop, store, console bridge),
 * the real embedded world with a real mineflayer avatar, the real skills, and
 * the real `openai` client against our fake OpenAI-compatible server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { FakeOpenAI, lastMessage, lastUserText, messagesChars, textOf, wholeChars, type FakeScript } from '../fakes/openai-api.ts';
import { startWorld, tempDataDir, testLogger, waitFor } from '../game/helpers.ts';
import { startCoreOnWorld } from '../game/core-on-world.ts';

const log = testLogger();

interface Running {
  core: Mindlink;
  llm: FakeOpenAI;
  lines: string[];
  send(line: string): void;
  until(cond: () => boolean, what: string, ms?: number): Promise<void>;
  stop(): Promise<void>;
}

describe('llm engine end to end (core + embedded world + openai client + fake endpoint)', () => {
  let world: EmbeddedWorld;
  const worldDir = tempDataDir('llm-world');
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

  /** A core whose demo avatar plays with the llm engine against a fresh fake endpoint (or the one given). */
  async function start(script: FakeScript, opts: { dataDir?: string; env?: Record<string, string>; llm?: FakeOpenAI } = {}): Promise<Running> {
    const llm = opts.llm ?? (await FakeOpenAI.start(script));
    llm.script = script;
    const data = opts.dataDir ? undefined : tempDataDir('llm-e2e');
    const dataDir = opts.dataDir ?? (data as { dir: string }).dir;
    const config = parseConfig({
      DATA_DIR: dataDir,
      ENGINE: 'llm',
      LLM_BASE_URL: llm.baseURL,
      LLM_MODEL: 'fake-model',
      LOOP_PACE_MS: '100',
      LOOP_MAX_PACE_MS: '800',
      ...opts.env,
    });
    const lines: string[] = [];
    const { core, stdin } = await startCoreOnWorld({ world: () => world, config, log, lines });
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      await core.stop();
    };
    cleanups.push(async () => {
      await stop();
      if (!opts.llm) await llm.close();
      data?.remove();
    });
    return {
      core,
      llm,
      lines,
      send: (line) => stdin.write(`${line}\n`),
      until: async (cond, what, ms = 120_000) => {
        try {
          await waitFor(cond, ms, what);
        } catch (err) {
          const asked = llm.requests.map((r) => `#${r.n} ${lastMessage(r)?.role}: ${(lastMessage(r)?.content ?? '').slice(0, 120)}`);
          throw new Error(`${(err as Error).message}\nchat:\n${lines.join('\n')}\nrequests:\n${asked.join('\n')}`);
        }
      },
      stop,
    };
  }

  /** A model that collects 2 oak logs when that is the owner's goal, then reports done; a lesson on wrap-up; idles otherwise. */
  const collector: FakeScript = (req) => {
    const text = lastUserText(req);
    if (lastMessage(req)?.role === 'tool') return { content: 'I have the two oak logs.\nSTATUS: done' };
    if (/lab log/.test(text)) return { content: 'Oak trees stand close to spawn; one collect call fetched both logs.\nSTATUS: working' };
    if (text.includes('Goal (set by your owner): collect 2 oak logs')) return { toolCalls: [{ name: 'collect', arguments: { item: 'oak_log', count: 2 } }] };
    return { content: 'Waiting for a goal.\nSTATUS: working' };
  };

  it('GIVEN "Goal: collect 2 oak logs" (streamed replies) THEN the model calls collect, the world changes, it says done, the check passes, Done: is posted, and /usage and /status show the tokens', async () => {
    const r = await start(collector, { env: { LLM_PRICE_IN: '0.15', LLM_PRICE_OUT: '0.6', LLM_STREAM: 'on' } });
    await r.until(() => r.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 30_000);
    const before = r.core.avatars.snapshot('demo')?.inventory.oak_log ?? 0;
    r.send('Goal: collect 2 oak logs');
    await r.until(() => r.lines.some((l) => l === '[demo] Done: collect 2 oak logs'), 'Done');
    expect(r.core.avatars.snapshot('demo')?.inventory.oak_log ?? 0).toBeGreaterThanOrEqual(before + 2);
    const call = r.llm.requests.find((q) => lastMessage(q)?.role === 'tool');
    expect(lastMessage(call ?? r.llm.requests[0]!)?.content).toMatch(/^ok done: /);

    expect(r.llm.requests.every((q) => q.body.stream === true && q.body.stream_options?.include_usage === true)).toBe(true);
    const entry = r.core.store.record.data.goals.find((g) => g.text === 'collect 2 oak logs');
    expect(entry?.outcome).toBe('done');
    expect(entry?.usage?.requests).toBe(2);
    expect(entry?.usage?.promptTokens).toBeGreaterThan(0);
    r.send('/usage');
    await r.until(() => r.lines.some((l) => l.startsWith('[demo] - done: collect 2 oak logs — ')), '/usage');
    expect(r.lines).toContain('[demo] Usage of demo (llm engine, fake-model):');
    expect(r.lines.find((l) => l.startsWith('[demo] in all: '))).toMatch(/^\[demo\] in all: [\d,]+ in \+ [\d,]+ out tokens \(\d+ requests\) ≈ \$\d+\.\d+$/);

    r.send('Goal: collect 2 oak logs');
    await r.until(() => r.lines.filter((l) => l === '[demo] Done: collect 2 oak logs').length === 2, 'the second Done');
    r.send('Goal: collect 64 oak logs');
    await r.until(() => r.core.avatars.get('demo')?.goal?.usage !== undefined, 'tokens on the new goal');
    r.send('/status');
    await r.until(() => r.lines.some((l) => /^\[demo\] tokens this goal: [\d,]+ in \+ [\d,]+ out tokens \(\d+ requests?\) ≈ \$/.test(l)), '/status tokens');
    // Every tool the model called was one its request offered.
    expect(r.llm.unoffered).toEqual([]);
  }, 300_000);

  it('GIVEN a model that claims done before collecting THEN the loop answers "continue: the check says …" and posts no Done:', async () => {
    const liar: FakeScript = (req) =>
      lastUserText(req).includes('collect 2 oak logs') ? { content: 'All done, trust me.\nSTATUS: done' } : { content: 'Waiting.\nSTATUS: working' };
    const r = await start(liar);
    await r.until(() => r.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 30_000);
    r.send('Goal: collect 2 oak logs');
    await r.until(() => r.llm.requests.some((q) => lastUserText(q).includes('Not done yet. Continue: the check says')), 'the check failure in a prompt');
    const refused = r.llm.requests.find((q) => lastUserText(q).includes('Not done yet. Continue: the check says'));
    expect(lastUserText(refused!)).toMatch(/the check says you hold \d+ of the 2 more oak logs needed/);
    await r.stop();
    expect(r.lines.filter((l) => l.includes('Done:'))).toEqual([]);
  }, 180_000);

  it.each([
    ['insufficient_quota (429)', { status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' }, '[demo] Stopped: the model provider refused: insufficient_quota: You exceeded your current quota, please check your plan and billing details.'],
    ['402', { status: 402, message: 'Insufficient credits.' }, '[demo] Stopped: the model provider refused: 402: Insufficient credits.'],
  ])('GIVEN the provider answers %s THEN the avatar stops with its line after one request, and sends no more', async (_name, error, line) => {
    const r = await start(() => ({ error }));
    await r.until(() => r.lines.includes(line), 'the stop line', 60_000);
    expect(r.core.avatars.get('demo')?.playing).toBe(false);
    expect(r.core.avatars.displayState('demo')).toBe('stopped');
    await r.stop();
    expect(r.llm.requests).toHaveLength(1);
  }, 120_000);

  it('GIVEN a transient 429 with Retry-After THEN the request is retried and the turn completes', async () => {
    const r = await start((req) =>
      req.n === 1
        ? { error: { status: 429, code: 'rate_limit_exceeded', type: 'requests', message: 'Rate limit reached for requests', retryAfter: '1' } }
        : lastUserText(req).includes('You have no goal')
          ? { content: 'I will greet the world.\nGOAL: say hello to everyone\nSTATUS: working' }
          : { content: 'Saying hello.\nSTATUS: working' },
    );
    await r.until(() => r.lines.includes('[demo] New goal (my choice): say hello to everyone'), 'the chosen goal', 60_000);
    expect(r.llm.requests[1]?.body.messages).toEqual(r.llm.requests[0]?.body.messages);
    expect(r.lines.filter((l) => l.includes('Stopped'))).toEqual([]);
  }, 120_000);

  it('GIVEN a restart THEN the first request continues the same conversation and the same goal', async () => {
    const data = tempDataDir('llm-restart');
    cleanups.push(() => data.remove());
    const llm = await FakeOpenAI.start();
    cleanups.push(() => llm.close());
    const marker: FakeScript = (req) => ({ content: `Still chopping (note ${req.n}).\nSTATUS: working` });
    const first = await start(marker, { dataDir: data.dir, llm });
    await first.until(() => first.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 30_000);
    first.send('Goal: collect 20 oak logs');
    await first.until(() => first.llm.requests.some((q) => lastUserText(q).includes('Goal (set by your owner): collect 20 oak logs')), 'a turn on the goal');
    await first.until(() => first.core.avatars.get('demo')?.goal?.usage !== undefined, 'a finished turn on the goal');
    const goalTurn = llm.requests.find((q) => lastUserText(q).includes('Goal (set by your owner): collect 20 oak logs'))!.n;
    await first.stop();
    const before = llm.requests.length;

    const second = await start(marker, { dataDir: data.dir, llm });
    await second.until(() => llm.requests.length > before, 'the first request after the restart', 60_000);
    const resumed = llm.requests[before]!;
    expect(lastUserText(resumed)).toContain('back in the game after a restart');
    expect(lastUserText(resumed)).toContain('Goal (set by your owner): collect 20 oak logs');
    // The reply to the goal's turn (or a later one) is in the resumed conversation, word for word.
    const kept = resumed.body.messages.flatMap((m) => (m.role === 'assistant' ? [/^Still chopping \(note (\d+)\)\.\nSTATUS: working$/.exec(textOf(m.content))] : []));
    expect(kept.some((m) => m !== null && Number(m[1]) >= goalTurn)).toBe(true);
    expect(second.core.avatars.get('demo')?.goal?.text).toBe('collect 20 oak logs');
  }, 240_000);

  it('GIVEN a 20-turn run with tool calls and owner direction THEN no request passes the 16,000-character budget, the median whole request stays under 3,600 characters and every tool called was offered', async () => {
    const worker: FakeScript = (req) => {
      const last = lastMessage(req);
      // It digs where its request offers collect (a wrap-up only writes the lesson, and offers no skill).
      const offered = (req.body.tools ?? []).some((t) => t.function.name === 'collect');
      if (last?.role === 'tool' && textOf(last.content).startsWith('pos ') && offered) return { toolCalls: [{ name: 'collect', arguments: { item: 'dirt', count: 1 } }] };
      if (last?.role === 'tool') return { content: `Dug some dirt and kept going; the plan in TASK.md still holds (request ${req.n}).\nSTATUS: working` };
      if (lastUserText(req).includes('You have no goal')) return { content: 'Dirt is useful for a shelter.\nGOAL: collect 40 dirt\nSTATUS: working' };
      return { toolCalls: [{ name: 'look', arguments: {} }] };
    };
    const r = await start(worker);
    await r.until(() => r.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 30_000);
    const turns = (): number => r.llm.requests.filter((q) => lastMessage(q)?.role === 'user').length;
    r.send('stay near spawn and keep the base tidy, please; build with dirt only where the ground is flat');
    await r.until(() => turns() >= 8, 'eight turns', 240_000);
    r.send('when it gets dark, stop digging and wait for daylight near the spawn point');
    await r.until(() => turns() >= 20, 'twenty turns', 300_000);
    await r.stop();
    const over = r.llm.requests.filter((q) => messagesChars(q) > 16_000);
    expect(over).toEqual([]);
    expect(r.llm.unoffered).toEqual([]);
    const firstOfTurn = r.llm.requests.filter((q) => lastMessage(q)?.role === 'user').map(wholeChars).sort((a, b) => a - b);
    const median = firstOfTurn[Math.floor(firstOfTurn.length / 2)] ?? Infinity;
    expect(median, `first requests of each turn (characters): ${firstOfTurn.join(', ')}`).toBeLessThanOrEqual(3600);
  }, 600_000);
});
