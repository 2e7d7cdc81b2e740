/**
 * LLM engine benchmark: a scripted 50-turn run of the real core, the embedded world and the real
 * `openai` client against the fake OpenAI-compatible server (test/fakes/openai-api.ts). Prints the
 * characters of each kind of automatic request (the whole request: messages the model reads plus
 * the tool schemas' JSON; median and max), of the new user text per turn, and tokens per finished
 * goal (the fake counts characters / 4, as a tokenizer roughly would). Then the survival curriculum,
 * 20 goals each, once with the llm engine and once with the hybrid engine, both against a fake model
 * that plays the curriculum as the scripted planner would (bench/curriculum-model.ts): model requests
 * per finished goal, side by side. Asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ConsoleBridge } from '../bridges/console.ts';
import { createDispatcher } from '../commands/index.ts';
import { createSkillRegistry } from '../skills/index.ts';
import { parseConfig } from '../src/config.ts';
import { Mindlink } from '../src/core.ts';
import { createEngineProvider } from '../src/engines/index.ts';
import { systemPrompt } from '../src/engines/llm/prompts.ts';
import { EMBEDDED_CAPABILITIES } from '../src/game/mineflayer-game.ts';
import { toolSchemas } from '../src/engines/llm/tools.ts';
import { createGameProvider } from '../src/game/provider.ts';
import { silentLogger } from '../src/logger.ts';
import { Store } from '../src/store/store.ts';
import { FakeOpenAI, lastMessage, lastUserText, messagesChars, textOf, wholeChars, type FakeReply, type FakeScript, type RecordedRequest } from '../test/fakes/openai-api.ts';
import { FakeGame } from '../test/fakes/fake-game.ts';
import { curriculumModel, kindOf } from './curriculum-model.ts';

const TURNS = 50;
const log = silentLogger();

/** The goals the scripted model picks in turn: checked collects, walks, and one it cannot do (no such player). */
const GOALS = ['collect 2 oak logs', 'collect 3 dirt', 'go to 8 64 8', 'follow nobody_here', 'collect 1 oak log', 'go to -6 64 4'];

function act(goal: string): FakeReply {
  const collect = /^collect (\d+) (.+?)s?$/.exec(goal);
  if (collect) return { toolCalls: [{ name: 'collect', arguments: { item: (collect[2] ?? '').replace(/ /g, '_').replace(/^oak_log$/, 'oak_log'), count: Number(collect[1]) } }] };
  const go = /^go to (-?\d+) (-?\d+) (-?\d+)$/.exec(goal);
  if (go) return { toolCalls: [{ name: 'go_to', arguments: { x: Number(go[1]), y: Number(go[2]), z: Number(go[3]) } }] };
  const follow = /^follow (\w+)$/.exec(goal);
  if (follow) return { toolCalls: [{ name: 'follow', arguments: { player: follow[1], durationMs: 2000 } }] };
  return { toolCalls: [{ name: 'look', arguments: {} }] };
}

/** A plausible model: picks a goal, calls one skill for it, reports done or blocked, writes a lesson. */
function model(): FakeScript {
  let next = 0;
  return (req) => {
    const text = lastUserText(req);
    const last = lastMessage(req);
    if (last?.role === 'tool') {
      return textOf(last.content).startsWith('failed')
        ? { content: `That did not work: ${(textOf(last.content).split('\n')[0] ?? '').slice(0, 80)}.\nSTATUS: blocked` }
        : { content: 'That is done; the inventory shows it.\nSTATUS: done' };
    }
    const kind = kindOf(text);
    if (kind === 'question') return { content: 'I am near the spawn point, working on my goal.' };
    if (kind === 'wrapup') return { content: 'Lesson: one skill call with the full count is enough; trees stand near spawn.\nSTATUS: working' };
    if (kind === 'choose' || kind === 'blocked') {
      const goal = GOALS[next++ % GOALS.length] ?? 'collect 1 dirt';
      return { content: `Next I will ${goal}.\nGOAL: ${goal}\nSTATUS: working` };
    }
    const goal = /Goal \((?:set by your owner|your own choice)\): (.+)/.exec(text)?.[1]?.trim();
    return goal ? act(goal) : { content: 'Looking for something to do.\nSTATUS: working' };
  };
}

interface Core {
  core: Mindlink;
  send(line: string): void;
}

async function startCore(dataDir: string, llm: FakeOpenAI, engine: 'llm' | 'hybrid' = 'llm'): Promise<Core> {
  const config = parseConfig({ DATA_DIR: dataDir, ENGINE: engine, LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model', LOOP_PACE_MS: '100', LOOP_MAX_PACE_MS: '1000' });
  const games = await createGameProvider(config, log);
  const core = await Mindlink.start({ config, log, games, engines: createEngineProvider(config), skills: createSkillRegistry, commands: createDispatcher() });
  const stdin = new PassThrough();
  await core.addBridge(new ConsoleBridge(stdin, new PassThrough(), log));
  return { core, send: (line) => stdin.write(`${line}\n`) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? 0) : 0;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export default async function bench(): Promise<void> {
  await requestSizes();
  const llm = await curriculumRun('llm');
  const hybrid = await curriculumRun('hybrid');
  console.log(`survival curriculum, ${CURRICULUM_GOALS} goals per engine, against the fake model that plays it as the scripted planner does:`);
  console.log('engine   goals ended  done  model requests  requests per done goal  turns (scripted / model)  took');
  for (const r of [llm, hybrid]) {
    const per = r.done > 0 ? (r.requests / r.done).toFixed(2) : 'n/a';
    const turns = r.turns ? `${r.turns.scripted} / ${r.turns.model}` : 'all model';
    console.log(`${r.engine.padEnd(8)} ${String(r.ended).padStart(11)}  ${String(r.done).padStart(4)}  ${String(r.requests).padStart(14)}  ${per.padStart(22)}  ${turns.padStart(24)}  ${(r.ms / 1000).toFixed(0)} s`);
  }
  if (llm.done > 0 && hybrid.done > 0 && llm.requests > 0) {
    const ratio = hybrid.requests / hybrid.done / (llm.requests / llm.done);
    console.log(`hybrid / llm requests per done goal: ${ratio.toFixed(3)} (target ≤ 0.25)`);
  }
  for (const r of [llm, hybrid]) console.log(`${r.engine} goals: ${r.goals.join(' | ')}`);
  console.log(`tool calls to a tool the request did not offer: llm ${llm.unoffered}, hybrid ${hybrid.unoffered}`);
}

/** Goals each curriculum run plays. */
const CURRICULUM_GOALS = 20;
/** The longest a curriculum run may take before its figures are read as they are. */
const CURRICULUM_MAX_MS = 40 * 60_000;

/** One engine's curriculum run. */
interface CurriculumFigures {
  engine: 'llm' | 'hybrid';
  ended: number;
  done: number;
  requests: number;
  /** Tool calls the fake model made to a tool its request did not offer. */
  unoffered: number;
  turns: { scripted: number; model: number } | undefined;
  goals: string[];
  ms: number;
}

/** `demo` on a fresh world and data folder, with `engine`, until 20 of its goals ended (or the time cap). */
async function curriculumRun(engine: 'llm' | 'hybrid'): Promise<CurriculumFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), `mindlink-bench-${engine}-curriculum-`));
  let running: Core | undefined;
  const llm = await FakeOpenAI.start(curriculumModel(() => running?.core, 'demo'));
  const t0 = performance.now();
  try {
    running = await startCore(dir, llm, engine);
    const core = running.core;
    const ended = (): number => core.store.record.data.goals.filter((g) => g.avatar === 'demo').length;
    while (ended() < CURRICULUM_GOALS && performance.now() - t0 < CURRICULUM_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const ms = performance.now() - t0;
    const requests = llm.requests.length;
    await core.stop();
    const goals = core.store.record.data.goals.filter((g) => g.avatar === 'demo').slice(0, CURRICULUM_GOALS);
    return {
      engine,
      ended: goals.length,
      done: goals.filter((g) => g.outcome === 'done').length,
      requests,
      unoffered: llm.unoffered.length,
      turns: core.store.record.data.usage.demo?.turns,
      goals: goals.map((g) => `${g.outcome === 'done' ? '' : `(${g.outcome}) `}${g.text}`),
      ms,
    };
  } finally {
    await running?.core.stop();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The 50-turn run of the llm engine: what each kind of request costs in characters. */
async function requestSizes(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-bench-llm-'));
  const llm = await FakeOpenAI.start(model());
  const turnsSoFar = (): number => llm.requests.filter((r) => lastMessage(r)?.role === 'user').length;
  const waitTurns = async (n: number): Promise<void> => {
    while (turnsSoFar() < n) await new Promise((resolve) => llm.once('request', resolve));
  };
  let running: Core | undefined;
  try {
    running = await startCore(dir, llm);
    await waitTurns(8);
    running.send('stay near the spawn point and keep the area tidy; build only with dirt where the ground is flat');
    await waitTurns(16);
    running.send('where are you?');
    running.send('at night, stop digging and wait for daylight near the spawn point');
    await waitTurns(TURNS / 2);
    // A restart halfway: the next turn is a resume of the saved goal and conversation.
    await running.core.stop();
    running = await startCore(dir, llm);
    await waitTurns(TURNS);
    await running.core.stop();
    running = undefined;

    const requests = llm.requests.slice(0, llm.requests.length);
    // The turn each request belongs to: a request whose last message is the user's starts a turn.
    const byKind = new Map<string, { whole: number[]; messages: number[]; newText: number[]; steps: number }>();
    let kind = 'continue';
    /** Characters of the tool schemas each automatic request offered. */
    const offered: number[] = [];
    for (const r of requests) {
      const starts = lastMessage(r)?.role === 'user';
      if (starts) kind = kindOf(lastUserText(r));
      if (kind !== 'question') offered.push(JSON.stringify(r.body.tools ?? []).length);
      const k = byKind.get(kind) ?? { whole: [], messages: [], newText: [], steps: 0 };
      k.whole.push(wholeChars(r));
      k.messages.push(messagesChars(r));
      if (starts) k.newText.push(newTextOf(r));
      else k.steps++;
      byKind.set(kind, k);
    }
    const tools = JSON.stringify(toolSchemas(createSkillRegistry(new FakeGame()))).length;
    console.log(`${TURNS} automatic and chat turns, ${requests.length} requests; system prompt ${fmt(systemPrompt('demo', 8, EMBEDDED_CAPABILITIES).length)} chars`);
    console.log(`tool schemas (JSON): all ${fmt(tools)} chars; offered per automatic request (by state and kind of turn) median ${fmt(median(offered))}, max ${fmt(Math.max(...offered))}`);
    console.log('kind        turns  steps  whole request median / max   messages max   new user text median / max');
    const all: number[] = [];
    for (const [k, v] of [...byKind.entries()].sort()) {
      if (k !== 'question') all.push(...v.whole);
      console.log(
        `${k.padEnd(11)} ${String(v.newText.length).padStart(5)}  ${String(v.steps).padStart(5)}  ${fmt(median(v.whole)).padStart(12)} / ${fmt(Math.max(...v.whole)).padEnd(12)} ${fmt(Math.max(...v.messages)).padStart(10)}   ${fmt(median(v.newText)).padStart(10)} / ${fmt(Math.max(...v.newText))}`,
      );
    }
    console.log(`AUTOMATIC TURNS, every request (whole: messages + tool schemas): median ${fmt(median(all))}, max ${fmt(Math.max(...all))} characters (target median ≤ 3,600; mindcraft ≈ 10,500–11,500; budget for messages 16,000)`);
    console.log(`tool calls to a tool the request did not offer: ${llm.unoffered.length}${llm.unoffered.length ? ` (${llm.unoffered.slice(0, 5).join(', ')})` : ''}`);

    const check = await Store.open(dir);
    const done = check.record.data.goals.filter((g) => g.outcome === 'done' && g.usage);
    const totals = done.map((g) => (g.usage?.promptTokens ?? 0) + (g.usage?.completionTokens ?? 0));
    const overall = check.record.data.usage.demo;
    console.log(`finished goals: ${done.length} done of ${check.record.data.goals.length} ended; tokens per done goal (prompt + completion, fake count): median ${fmt(median(totals))}, max ${fmt(Math.max(0, ...totals))}`);
    if (overall) console.log(`all turns: ${fmt(overall.promptTokens)} prompt + ${fmt(overall.completionTokens)} completion tokens in ${fmt(overall.requests)} requests`);
    for (const g of done.slice(0, 6)) console.log(`  ${g.text}: ${fmt(g.usage?.promptTokens ?? 0)} + ${fmt(g.usage?.completionTokens ?? 0)} tokens in ${g.usage?.requests ?? 0} requests`);
  } finally {
    await running?.core.stop();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The new user text of a turn: its last user message without the condensed summary that may lead it. */
function newTextOf(r: RecordedRequest): number {
  const text = lastUserText(r);
  const i = text.startsWith('Earlier in this session') ? text.indexOf('\n\n') : -1;
  return i >= 0 ? text.length - i - 2 : text.length;
}
