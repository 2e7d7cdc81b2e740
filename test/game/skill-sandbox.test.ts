/**
 * Skills an avatar writes, on a real avatar host beside two avatars at work
 * (docs/skills.md): eve writes skills that attack the sandbox while demo and
 * bob, on the same host, collect logs through their goal loops. Each attack is
 * refused or terminated with a clear error for whoever wrote it; the host, its
 * other avatars and their loops go on. Then a skill that works is tried, kept,
 * counted, and read again by a library started anew on the same files.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillRegistry, skills as skillList } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { GameServer } from '../../src/game/game.ts';
import type { HostedGame } from '../../src/game/hosts/hosted-game.ts';
import { HOST_ENTRY } from '../../src/game/hosts/hosted-provider.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import { hostedSkills } from '../../src/game/hosts/remote-skills.ts';
import { EMBEDDED_CAPABILITIES } from '../../src/game/mineflayer-game.ts';
import { SCRIPT_HEAP_MB } from '../../src/game/sandbox/script-api.ts';
import type { SkillRegistry } from '../../src/game/skill.ts';
import { learnedSkills, type LearnedSkills, type WriteSkillResult } from '../../src/learned/learned-skills.ts';
import { SkillLibrary } from '../../src/learned/library.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';
import { startWorld, tempDataDir } from './helpers.ts';

const SERVER: GameServer = { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' };
/** The loop attack's time-out. */
const LOOP_TIMEOUT_MS = 5000;

/** One attack: the script, what the writer hears, and (for what the first look refuses) what the sandbox says when the script is run as it is. */
interface Attack {
  what: string;
  code: string;
  heard: { code: string; message: RegExp; line?: number };
  sandbox?: RegExp;
}

const ATTACKS: Attack[] = [
  {
    what: "calls require('fs')",
    code: "const fs = require('fs');\nreturn fs.readFileSync('/etc/passwd', 'utf8');",
    heard: { code: 'bad_code', message: /^require: a skill cannot load modules/, line: 1 },
    sandbox: /^line 1: require is not a function \(a skill has only: collect, goTo, .*sleep, and plain JavaScript\)$/,
  },
  {
    what: 'reaches process through constructor.constructor',
    code: "const P = say.constructor.constructor('return process')();\nreturn P.env;",
    heard: { code: 'script_error', message: /^line 1: Function\.prototype\.constructor is not a valid constructor\. \(a skill cannot make functions from strings\)$/, line: 1 },
  },
  {
    what: 'imports a module',
    code: "const fs = await import('node:fs');\nreturn fs.readdirSync('.');",
    heard: { code: 'bad_code', message: /^a skill cannot import modules/, line: 1 },
    sandbox: /^line 1: a skill cannot import modules/,
  },
  {
    what: 'loops forever',
    code: 'let n = 0;\nfor (;;) n++;',
    heard: { code: 'timeout', message: /^the script ran longer than 5\.0 s and was stopped$/ },
  },
  {
    what: 'allocates without end',
    code: 'const hoard = [];\nfor (;;) hoard.push(new Array(100000).fill(1.5));',
    heard: { code: 'out_of_memory', message: new RegExp(`^the script used more than its ${SCRIPT_HEAP_MB} MB of memory and was stopped$`) },
  },
  {
    what: 'allocates without end outside the heap',
    code: 'const hoard = [];\nfor (;;) hoard.push(new Uint8Array(100000000).fill(1));',
    heard: { code: 'script_error', message: /^line 2: Uint8Array is not a constructor \(a skill has only: /, line: 2 },
  },
  {
    what: 'calls fetch',
    code: "const r = await fetch('http://127.0.0.1:9/');\nreturn r.status;",
    heard: { code: 'bad_code', message: /^fetch: a skill has no network$/, line: 1 },
    sandbox: /^line 1: fetch is not a function \(a skill has only: /,
  },
  {
    what: "tries to read another avatar's files",
    code: "const fs = globalThis.process?.getBuiltinModule?.('fs');\nreturn fs.readFileSync('../demo/TASK.md', 'utf8');",
    heard: { code: 'script_error', message: /^line 2: Cannot read properties of undefined \(reading 'readFileSync'\)$/, line: 2 },
  },
  {
    what: 'changes Object.prototype',
    code: "Object.prototype.polluted = 'yes';\nreturn 1;",
    heard: { code: 'script_error', message: /^line 1: Cannot add property polluted, object is not extensible \(JavaScript's own objects, params and answers are frozen in a skill\)$/, line: 1 },
  },
];

describe('skills an avatar writes, on an avatar host beside two avatars at work', () => {
  const { log, lines, until } = witness();
  const data = tempDataDir('skill-sandbox');
  let world: EmbeddedWorld;
  let pool: HostPool;
  let core: Mindlink;
  let eve: HostedGame;
  let eveSkills: SkillRegistry;
  let learned: LearnedSkills;
  const signal = new AbortController().signal;
  /** Each attack's figures, printed at the end. */
  const figures: string[] = [];

  beforeAll(async () => {
    process.env.LOG_LEVEL = process.env.TEST_LOG ?? 'silent';
    world = await startWorld(data.dir, log);
    await world.setMobSpawning({ animals: false, monsters: false });
    // One host: the attacker and the two working avatars share its process.
    pool = await HostPool.start({ count: 1, entry: HOST_ENTRY, world: { host: world.host, port: world.port, version: world.version }, log });
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    const started = await startCoreOnWorld({ world: () => world, config, log, lines, hosts: pool });
    core = started.core;
    started.stdin.write('/avatar create bob\n');
    await until(() => lines.some((l) => l.startsWith('[bob] Created bob')), 30_000, 'bob to be created');
    started.stdin.write('/play bob\n');
    eve = pool.game('eve', SERVER, EMBEDDED_CAPABILITIES);
    const joined = once(eve, 'connected');
    await eve.start();
    await joined;
    eveSkills = hostedSkills(skillList, createSkillRegistry)(eve);
    learned = learnedSkills(core.learned, { avatar: 'eve', game: eve, skills: eveSkills });
    await until(() => core.avatars.displayState('demo') !== 'waiting' && core.avatars.displayState('bob') !== 'waiting', 60_000, 'demo and bob to join');
  }, 180_000);

  afterAll(async () => {
    if (figures.length > 0) console.info(`skill sandbox figures:\n${figures.join('\n')}`);
    await core?.stop();
    await eve?.stop();
    await pool?.close();
    await world?.stop();
    data.remove();
  }, 120_000);

  it('GIVEN demo and bob collecting on the host WHEN eve writes each attack THEN each is refused or stopped with a clear error and its line, nothing is kept, and demo and bob finish their goals', async () => {
    core.avatars.setGoal('demo', 'collect 5 oak logs', 'console');
    core.avatars.setGoal('bob', 'collect 5 oak logs', 'console');
    await until(() => core.avatars.displayState('demo') === 'working' && core.avatars.displayState('bob') === 'working', 60_000, 'demo and bob at work');
    const hostPids = pool.pids();
    const chatBefore = lines.length;

    for (const attack of ATTACKS) {
      const t0 = performance.now();
      const writing = learned.writeSkill({ name: 'attack', description: attack.what, code: attack.code, goal: 'collect 5 oak logs', timeoutMs: LOOP_TIMEOUT_MS }, signal);
      if (attack.heard.code === 'timeout') {
        // The host's own thread answers while the script spins in its worker.
        const first = await Promise.race([pool.map(eve, 4).then(() => 'the host answered'), writing.then(() => 'the script ended')]);
        expect(first, 'the host answered a map request during the endless loop').toBe('the host answered');
      }
      const r: WriteSkillResult = await writing;
      const ms = Math.round(performance.now() - t0);
      expect(r.ok, attack.what).toBe(false);
      if (r.ok) continue;
      expect({ what: attack.what, code: r.code }).toEqual({ what: attack.what, code: attack.heard.code });
      expect(r.message, attack.what).toMatch(attack.heard.message);
      expect(r.line, attack.what).toBe(attack.heard.line);
      let figure = `${attack.what}: ${r.code} after ${ms} ms`;
      if (r.code === 'timeout') figure += ` (${ms - LOOP_TIMEOUT_MS} ms past its ${LOOP_TIMEOUT_MS} ms time-out)`;
      if (r.code === 'out_of_memory') figure += ` (heap limit ${SCRIPT_HEAP_MB} MB)`;
      if (attack.sandbox) {
        // What the first look refuses, the sandbox stops too when the script is run as it is.
        const t1 = performance.now();
        const raw = await eveSkills.run('run_script', { code: attack.code, timeoutMs: LOOP_TIMEOUT_MS }, signal);
        expect({ what: attack.what, ok: raw.ok, code: raw.code }).toEqual({ what: attack.what, ok: false, code: 'script_error' });
        expect(raw.detail, attack.what).toMatch(attack.sandbox);
        figure += `; run as it is: ${raw.code} after ${Math.round(performance.now() - t1)} ms`;
      }
      figures.push(figure);
      // The host goes on: the next script runs there, and no prototype anywhere was changed.
      const after = await eveSkills.run('run_script', { code: "const inv = await inventory();\nreturn typeof inv === 'object' && ({}).polluted === undefined;" }, signal);
      expect(after, `after "${attack.what}"`).toMatchObject({ ok: true, code: 'done', detail: expect.stringMatching(/it returned true$/) as unknown as string });
    }

    expect(await learned.list()).toEqual([]);
    expect(existsSync(join(core.learned.dir('eve'), 'attack.js'))).toBe(false);
    expect(eve.state).toBe('connected');
    await until(() => lines.some((l) => l === '[demo] Done: collect 5 oak logs') && lines.some((l) => l === '[bob] Done: collect 5 oak logs'), 300_000, 'demo and bob to finish');
    expect(pool.pids(), 'the host is the same process').toEqual(hostPids);
    const said = lines.slice(chatBefore);
    expect(said.filter((l) => /Stopped|went wrong|crash|host/i.test(l)), said.join('\n')).toEqual([]);
  }, 600_000);

  it('GIVEN a script that collects an oak log and checks the inventory WHEN eve writes it THEN it is tried, kept with its run counted, runs again, and a library started anew on the files reads it and counts on', async () => {
    const code = [
      "const before = (await inventory()).oak_log ?? 0;",
      "await collect({ item: 'oak_log', count: params.count });",
      'const now = (await inventory()).oak_log ?? 0;',
      "if (now < before + params.count) throw new Error(`only ${now - before} more oak logs`);",
      'return now;',
    ].join('\n');
    const request = {
      name: 'chop_oak_logs',
      description: 'Chop oak logs from the nearest trees',
      code,
      params: { type: 'object', properties: { count: { type: 'integer', description: 'how many logs' } }, required: ['count'] },
      trialParams: { count: 1 },
      goal: 'collect 3 oak logs',
      postcondition: 'collect {count} oak logs',
    };
    const written = await learned.writeSkill(request, signal);
    expect(written, JSON.stringify(written)).toMatchObject({ ok: true, skill: { name: 'chop_oak_logs', runs: 1, successes: 1, lastError: null } });
    expect(existsSync(join(core.learned.dir('eve'), 'chop_oak_logs.js'))).toBe(true);

    // A trial that fails its postcondition is not kept, and says why.
    const idle = await learned.writeSkill({ ...request, name: 'just_talk', code: "await say({ text: 'hello' });" }, signal);
    expect(idle).toMatchObject({ ok: false, code: 'check_failed', message: expect.stringMatching(/^the script finished, but its postcondition "collect 1 oak logs" is not met: /) as unknown as string });
    const broken = await learned.writeSkill({ ...request, name: 'broken_chop', code: "const a = 1;\nconst b = null;\nreturn b.count;" }, signal);
    expect(broken).toMatchObject({ ok: false, code: 'script_error', line: 3, message: "line 3: Cannot read properties of null (reading 'count')" });
    expect((await learned.list()).map((s) => s.name)).toEqual(['chop_oak_logs']);

    const again = await learned.runKept('chop_oak_logs', { count: 1 }, signal);
    expect(again, JSON.stringify(again)).toMatchObject({ ok: true, code: 'done' });
    expect(await learned.runKept('chop_oak_logs', { count: 'many' }, signal)).toMatchObject({ ok: false, code: 'bad_params' });

    // Started anew on the same files, as after a restart.
    const reread = learnedSkills(new SkillLibrary(data.dir, log), { avatar: 'eve', game: eve, skills: eveSkills });
    expect(await reread.list()).toMatchObject([{ name: 'chop_oak_logs', runs: 2, successes: 2, goal: 'collect 3 oak logs', postcondition: 'collect {count} oak logs' }]);
    expect((await reread.relevant('collect 10 oak logs', 3)).map((s) => s.name)).toEqual(['chop_oak_logs']);
    expect(await reread.relevant('go to 10 64 10', 3)).toEqual([]);
    expect(await reread.runKept('chop_oak_logs', { count: 1 }, signal)).toMatchObject({ ok: true });
    expect(await reread.list()).toMatchObject([{ runs: 3, successes: 3 }]);
  }, 300_000);
});
