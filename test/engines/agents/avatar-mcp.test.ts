/**
 * The per-avatar MCP server an agent CLI calls, tested with the MCP SDK's own
 * client over Streamable HTTP: the tools are the skill registry's (the llm
 * engine's list) and, on an acting turn, the avatar's own skills as the llm
 * engine offers them; a call acts on the real avatar in the embedded world
 * (a skill it wrote through the real script sandbox and library files), the
 * run's secret drives only its own avatar, and ending the run ends its calls.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Places } from '../../../src/avatars/places.ts';
import { avatarMcpSpec, resourceUris } from '../../../src/engines/agents/avatar-mcp.ts';
import type { TurnRequest } from '../../../src/engines/engine.ts';
import { learnedTools } from '../../../src/engines/llm/skill-tools.ts';
import { toolSchemas, type ToolOutcome } from '../../../src/engines/llm/tools.ts';
import { withPlaces } from '../../../src/engines/place-skills.ts';
import { placesOnFiles } from '../../avatars/places-helpers.ts';
import type { MineflayerGame } from '../../../src/game/mineflayer-game.ts';
import { learnedSkills, type LearnedSkills } from '../../../src/learned/learned-skills.ts';
import { SkillLibrary } from '../../../src/learned/library.ts';
import { McpEndpoint } from '../../../src/mcp/http-endpoint.ts';
import { TaskFile } from '../../../src/task/task-file.ts';
import { createSkillRegistry } from '../../../skills/index.ts';
import { teleportAndSettle, waitFor, worldPerFile } from '../../game/helpers.ts';

const w = worldPerFile('avatar-mcp');
const dir = mkdtempSync(join(tmpdir(), 'mindlink-mcp-'));
const closing: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A turn request as the loop would build it (the resources read goal and direction from it). */
function request(avatar: string, kind: TurnRequest['kind'] = 'continue', goal = 'collect 1 oak log'): TurnRequest {
  return {
    kind,
    avatar,
    goal: { text: goal, setBy: 'owner', baseline: {} },
    directionSummary: '',
    directions: [{ n: 3, text: 'stay near spawn', at: '2026-01-01' }],
    task: '',
    nudges: [],
    prompt: 'Goal (set by your owner): collect 1 oak log',
    completion: () => ({ checkable: false }),
  };
}

/** The places `avatar` remembers, kept by their owner in a store of its own on real files. */
async function placesOf(avatar: string): Promise<Places> {
  const made = await placesOnFiles(join(dir, `store-${avatar}`), [avatar]);
  closing.push(() => made.close());
  return made.places;
}

/** One avatar's endpoint, as an engine run starts it (with the places it remembers, the skills it keeps and the turn, when given). */
async function endpointFor(game: MineflayerGame, opts: { lookOnly?: boolean; run?: AbortController; places?: Places; library?: SkillLibrary; request?: TurnRequest } = {}) {
  const calls: { name: string; outcome: ToolOutcome }[] = [];
  const run = opts.run ?? new AbortController();
  const book = opts.places?.bookOf(game.username);
  const skills = book ? withPlaces(createSkillRegistry(game), book, game) : createSkillRegistry(game);
  const task = new TaskFile(join(dir, game.username), game.username);
  const learned: LearnedSkills | undefined = opts.library ? learnedSkills(opts.library, { avatar: game.username, game, skills }) : undefined;
  const spec = await avatarMcpSpec({
    avatar: game.username,
    host: { skills, game, task, ...(book ? { places: book } : {}), ...(learned ? { learned } : {}), now: () => new Date() },
    request: opts.request ?? request(game.username),
    signal: run.signal,
    lookOnly: opts.lookOnly ?? false,
    called: (name, outcome) => calls.push({ name, outcome }),
  });
  const endpoint = await McpEndpoint.start(spec, w.log);
  closing.push(() => endpoint.close());
  return { endpoint, calls, skills, task, run, learned };
}

/** The SDK's client on an endpoint, with a secret. */
async function client(url: string, secret: string | undefined): Promise<Client> {
  const headers: Record<string, string> = secret === undefined ? {} : { Authorization: `Bearer ${secret}` };
  const c = new Client({ name: 'test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  closing.push(() => c.close());
  return c;
}

describe("an avatar's MCP server (SDK client, Streamable HTTP)", () => {
  it('GIVEN an avatar THEN the tools listed are the skill registry with look, rewrite_task and lab_log, as the llm engine offers them, and goal, direction and TASK.md are resources', async () => {
    const { game } = await w.avatar('mcplist', 0, 0);
    const { endpoint, skills, task } = await endpointFor(game);
    const c = await client(endpoint.url, endpoint.secret);
    const { tools } = await c.listTools();
    const expected = toolSchemas(skills);
    expect(tools.map((t) => t.name)).toEqual(expected.map((t) => t.function.name));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['collect', 'go_to', 'craft', 'look', 'rewrite_task', 'lab_log']));
    for (const t of tools) {
      const same = expected.find((e) => e.function.name === t.name);
      expect(t.description).toBe(same?.function.description);
      expect(t.inputSchema).toEqual({ ...same?.function.parameters, type: 'object' });
    }
    const uris = resourceUris('mcplist');
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual([uris.goal, uris.direction, uris.task]);
    const text = async (uri: string): Promise<string> => {
      const r = await c.readResource({ uri });
      const first = r.contents[0];
      return first && 'text' in first ? String(first.text) : '';
    };
    expect(await text(uris.goal)).toBe('collect 1 oak log\n(set by your owner)');
    expect(await text(uris.direction)).toBe('#3 stay near spawn');
    expect(await text(uris.task)).toBe(await task.read());
  });

  it('GIVEN an avatar among trees WHEN the client calls collect 1 oak log THEN its inventory holds one more, the answer says ok, and the engine hears of the call', async () => {
    const { game } = await w.avatar('mcpcollect', 0, 0);
    const { endpoint, calls } = await endpointFor(game);
    const before = game.snapshot()?.inventory.oak_log ?? 0;
    const c = await client(endpoint.url, endpoint.secret);
    const r = await c.callTool({ name: 'collect', arguments: { item: 'oak_log', count: 1 } });
    const content = r.content as { type: string; text: string }[];
    expect(content[0]?.text).toMatch(/^ok done: /);
    expect(r.isError).toBeFalsy();
    expect(game.snapshot()?.inventory.oak_log ?? 0).toBeGreaterThanOrEqual(before + 1);
    expect(calls.map((x) => [x.name, x.outcome.action?.code])).toEqual([['collect', 'done']]);

    const bad = await c.callTool({ name: 'collect', arguments: { item: 42 } });
    expect(bad.isError).toBe(true);
    const unknown = await c.callTool({ name: 'rm_rf', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]?.text).toMatch(/^error: there is no tool called "rm_rf"/);
  });

  it("GIVEN two avatars' runs THEN A's secret cannot drive B (nor no secret, nor a wrong one), while B's own secret can", async () => {
    const a = await endpointFor((await w.avatar('mcpa', 4, 0)).game);
    const b = await endpointFor((await w.avatar('mcpb', 8, 0)).game);
    expect(a.endpoint.secret).not.toBe(b.endpoint.secret);
    await expect(client(b.endpoint.url, a.endpoint.secret)).rejects.toThrow(/401|unauthorized/i);
    await expect(client(b.endpoint.url, undefined)).rejects.toThrow(/401|unauthorized/i);
    const wrong = `${b.endpoint.secret.slice(0, -1)}${b.endpoint.secret.endsWith('0') ? '1' : '0'}`;
    await expect(client(b.endpoint.url, wrong)).rejects.toThrow(/401|unauthorized/i);
    const raw = await fetch(b.endpoint.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.endpoint.secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'look', arguments: {} } }),
    });
    expect(raw.status).toBe(401);
    expect(b.calls).toEqual([]);
    const own = await client(b.endpoint.url, b.endpoint.secret);
    const look = await own.callTool({ name: 'look', arguments: {} });
    expect((look.content as { text: string }[])[0]?.text).toMatch(/^pos /);
    expect(a.calls).toEqual([]);
  });

  it('GIVEN an avatar with places THEN remember_place keeps where it stands, look names it, go_to with that place walks back there, and an unknown place is refused naming the known ones', async () => {
    const { game } = await w.avatar('mcpplace', 3, -4);
    const places = await placesOf('mcpplace');
    const { endpoint, calls } = await endpointFor(game, { places });
    const c = await client(endpoint.url, endpoint.secret);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toContain('remember_place');
    expect(Object.keys((tools.find((t) => t.name === 'go_to')?.inputSchema.properties ?? {}) as object)).toEqual(['x', 'y', 'z', 'place', 'range']);
    const text = (r: Awaited<ReturnType<Client['callTool']>>): string => (r.content as { text: string }[])[0]?.text ?? '';

    expect(text(await c.callTool({ name: 'remember_place', arguments: { name: 'camp' } }))).toMatch(/^ok done: remembered camp at 3 64 -4\n/);
    expect(places.known('mcpplace').get('camp')).toEqual({ name: 'camp', x: 3, y: 64, z: -4, dimension: 'overworld' });
    expect(text(await c.callTool({ name: 'look', arguments: {} }))).toMatch(/\nplaces \(go_to place\): camp 1m$/);
    await teleportAndSettle(w.world, game, { x: 9.5, y: 64, z: 2.5 });
    const back = await c.callTool({ name: 'go_to', arguments: { place: 'camp' } }, undefined, { timeout: 120_000 });
    expect(text(back)).toMatch(/^ok done: arrived at camp \(3 64 -4\)/);
    const p = game.snapshot()?.position ?? { x: 99, y: 99, z: 99 };
    expect(Math.hypot(p.x - 3, p.y - 64, p.z + 4)).toBeLessThanOrEqual(2);
    const unknown = await c.callTool({ name: 'go_to', arguments: { place: 'bse' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^failed bad_params: I know no place called 'bse'; my places: camp/);
    const neither = await c.callTool({ name: 'go_to', arguments: { range: 2 } });
    expect(text(neither)).toMatch(/^failed bad_params: go_to: params give x, y and z, or a place/);
    expect(calls.map((x) => [x.name, x.outcome.action?.code])).toEqual([['remember_place', 'done'], ['look', undefined], ['go_to', 'done'], ['go_to', 'bad_params'], ['go_to', 'bad_params']]);
  });

  it('GIVEN an avatar with a skill library and a goal outside the goal language THEN write_skill is listed after the registry\'s tools; calling it tries the script in the sandbox and keeps it on file; the next turn lists the kept skill as the llm engine would, and calling it runs it and counts the run; a question and a wrap-up list neither', async () => {
    const { game } = await w.avatar('mcpkeep', -6, 2);
    const avatar = 'mcpkeep';
    const library = new SkillLibrary(join(dir, 'learned'), w.log);
    const goal = 'chop oak logs for the campfire';
    const text = (r: Awaited<ReturnType<Client['callTool']>>): string => (r.content as { text: string }[])[0]?.text ?? '';

    const first = await endpointFor(game, { library, request: request(avatar, 'continue', goal) });
    const c1 = await client(first.endpoint.url, first.endpoint.secret);
    const builtIn = toolSchemas(first.skills).map((t) => t.function.name);
    expect((await c1.listTools()).tools.map((t) => t.name)).toEqual([...builtIn, 'write_skill']);
    const code = "await collect({ item: 'oak_log', count: params.count });\nreturn inventory().oak_log;";
    const wrote = await c1.callTool(
      {
        name: 'write_skill',
        arguments: { name: 'chop_oak_logs', description: 'Chop oak logs', code, params: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] }, trial_params: { count: 1 }, postcondition: 'collect {count} oak logs' },
      },
      undefined,
      { timeout: 120_000 },
    );
    expect(wrote.isError).toBeFalsy();
    expect(text(wrote)).toMatch(/^ok: kept chop_oak_logs \(its trial: .*\); it is offered as a tool when a goal fits\nnow: pos /);
    expect(readFileSync(join(library.dir(avatar), 'chop_oak_logs.js'), 'utf8')).toBe(code);
    expect(await first.learned?.list()).toMatchObject([{ name: 'chop_oak_logs', goal, runs: 1, successes: 1 }]);
    expect(first.calls.map((x) => [x.name, x.outcome.action])).toEqual([['write_skill', { skill: 'write_skill', ok: true, code: 'kept' }]]);

    // The next turn: the kept skill is offered as the llm engine offers it (the same choice, name, words and schema).
    const next = request(avatar, 'continue', goal);
    const second = await endpointFor(game, { library, request: next });
    const c2 = await client(second.endpoint.url, second.endpoint.secret);
    const { tools } = await c2.listTools();
    expect(tools.map((t) => t.name)).toEqual([...builtIn, 'write_skill', 'chop_oak_logs']);
    const asLlm = (await learnedTools(second.learned, next, new Set(builtIn))).schemas;
    expect(asLlm.map((t) => t.function.name)).toEqual(['write_skill', 'chop_oak_logs']);
    for (const s of asLlm) {
      const listed = tools.find((t) => t.name === s.function.name);
      expect(listed?.description).toBe(s.function.description);
      expect(listed?.inputSchema).toEqual({ ...s.function.parameters, type: 'object' });
    }
    expect(tools.find((t) => t.name === 'chop_oak_logs')?.description).toBe('Your own skill: Chop oak logs (1/1 runs ok)');
    const before = game.snapshot()?.inventory.oak_log ?? 0;
    const ran = await c2.callTool({ name: 'chop_oak_logs', arguments: { count: 1 } }, undefined, { timeout: 120_000 });
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toMatch(/^ok done: /);
    expect(game.snapshot()?.inventory.oak_log ?? 0).toBeGreaterThanOrEqual(before + 1);
    const bad = await c2.callTool({ name: 'chop_oak_logs', arguments: { count: 'many' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^failed bad_params: chop_oak_logs: count /);
    expect(second.calls.map((x) => [x.name, x.outcome.action?.code])).toEqual([['chop_oak_logs', 'done'], ['chop_oak_logs', 'bad_params']]);
    expect(await second.learned?.list()).toMatchObject([{ name: 'chop_oak_logs', runs: 2, successes: 2 }]);

    // A question only looks, and a wrap-up writes its lesson: neither is offered the avatar's own skills.
    const asked = await endpointFor(game, { library, lookOnly: true, request: request(avatar, 'question', goal) });
    const c3 = await client(asked.endpoint.url, asked.endpoint.secret);
    expect((await c3.listTools()).tools.map((t) => t.name)).toEqual(['look']);
    const refused = await c3.callTool({ name: 'chop_oak_logs', arguments: { count: 1 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^error: there is no tool called "chop_oak_logs" here; use one of: look$/);
    const wrapup = await endpointFor(game, { library, request: request(avatar, 'wrapup', goal) });
    const c4 = await client(wrapup.endpoint.url, wrapup.endpoint.secret);
    expect((await c4.listTools()).tools.map((t) => t.name)).toEqual(builtIn);
    expect(asked.calls).toEqual([]);
    expect(await asked.learned?.list()).toMatchObject([{ name: 'chop_oak_logs', runs: 2, successes: 2 }]);
  }, 300_000);

  it('GIVEN a question run THEN only look is offered, and a skill call is refused without acting', async () => {
    const { game } = await w.avatar('mcpask', 12, 0);
    const { endpoint, calls } = await endpointFor(game, { lookOnly: true });
    const c = await client(endpoint.url, endpoint.secret);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['look']);
    const r = await c.callTool({ name: 'collect', arguments: { item: 'oak_log', count: 1 } });
    expect(r.isError).toBe(true);
    expect(calls).toEqual([]);
  });

  it('GIVEN a long skill running WHEN the run ends (owner stop) THEN the call comes back aborted and nothing runs after', async () => {
    const { game } = await w.avatar('mcpstop', 16, 0);
    const run = new AbortController();
    const { endpoint, calls } = await endpointFor(game, { run });
    const c = await client(endpoint.url, endpoint.secret);
    const far = c.callTool({ name: 'go_to', arguments: { x: 400, y: 64, z: 400 } }, undefined, { timeout: 120_000 });
    await waitFor(() => (game.bot?.entity.position.x ?? 16) > 17, 30_000, 'mcpstop walking');
    run.abort(new Error('owner stop'));
    const r = await far;
    expect((r.content as { text: string }[])[0]?.text).toMatch(/^failed aborted/);
    expect(calls.map((x) => x.outcome.action?.code)).toEqual(['aborted']);
  });

  it("GIVEN a kept skill running WHEN the run ends (owner stop) THEN the call comes back aborted, and the run is not counted against the skill", async () => {
    const { game } = await w.avatar('mcpkeptstop', 24, 4);
    const library = new SkillLibrary(join(dir, 'learned-stop'), w.log);
    const kept = await learnedSkills(library, { avatar: 'mcpkeptstop', game, skills: createSkillRegistry(game) }).writeSkill(
      { name: 'walk_east', description: 'Walk east along the row', code: 'await goTo({ x: params.x, y: 64, z: 4 });', params: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] }, trialParams: { x: 26 }, goal: 'walk east along the row' },
      new AbortController().signal,
    );
    expect(kept.ok).toBe(true);
    const run = new AbortController();
    const { endpoint, calls, learned } = await endpointFor(game, { library, run, request: request('mcpkeptstop', 'continue', 'walk east along the row') });
    const c = await client(endpoint.url, endpoint.secret);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('walk_east');
    const far = c.callTool({ name: 'walk_east', arguments: { x: 400 } }, undefined, { timeout: 120_000 });
    await waitFor(() => (game.bot?.entity.position.x ?? 26) > 28, 30_000, 'mcpkeptstop walking');
    run.abort(new Error('owner stop'));
    const r = await far;
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]?.text).toMatch(/^failed aborted/);
    expect(calls.map((x) => [x.name, x.outcome.action?.code])).toEqual([['walk_east', 'aborted']]);
    expect(await learned?.list()).toMatchObject([{ name: 'walk_east', runs: 1, successes: 1 }]);
  });

  it('GIVEN a long skill running WHEN the CLI goes away (its connection drops as the endpoint closes) THEN the skill is aborted', async () => {
    const { game } = await w.avatar('mcpdrop', 20, 0);
    const { endpoint, calls } = await endpointFor(game);
    const c = await client(endpoint.url, endpoint.secret);
    // The client waits for its answer (it would try to reconnect); closing it at the end settles the call.
    const far = c.callTool({ name: 'go_to', arguments: { x: -400, y: 64, z: 400 } }, undefined, { timeout: 120_000 }).then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await waitFor(() => (game.bot?.entity.position.x ?? 20) < 19, 30_000, 'mcpdrop walking');
    await endpoint.close();
    await waitFor(() => calls.length === 1, 30_000, 'the aborted call to be reported');
    expect(calls.map((x) => x.outcome.action?.code)).toEqual(['aborted']);
    // The client still waits for its answer (it would try to reconnect): closing it after the test settles the call.
    void far;
  });
});
