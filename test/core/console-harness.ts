/**
 * The core with the console bridge on in-memory streams, fake games and a
 * chosen engine, for tests that talk to it line by line as a user would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach } from 'vitest';
import { ConsoleBridge } from '../../bridges/console.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink, type MindlinkOptions } from '../../src/core.ts';
import type { EngineProvider } from '../../src/engines/engine.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine } from '../fakes/test-engine.ts';

export interface ConsoleCore {
  core: Mindlink;
  lines: string[];
  games: Map<string, FakeGame>;
  /** Resolves with the first stdout line matching (already printed or still to come). */
  line(re: RegExp): Promise<string>;
  send(text: string): void;
}

/** In-memory stdin/stdout for a console bridge, with every stdout line kept and waited for. */
export interface ConsoleStreams {
  stdin: PassThrough;
  stdout: PassThrough;
  /** Every line written to stdout so far. */
  lines: string[];
  /** Resolves with the first stdout line matching (already printed or still to come). */
  line(re: RegExp): Promise<string>;
  /** Type a line on stdin. */
  send(text: string): void;
}

/**
 * @example
 * const io = consoleStreams();
 * await core.addBridge(new ConsoleBridge(io.stdin, io.stdout, silentLogger()));
 * io.send('/status');
 * await io.line(/^\[demo\] working/);
 */
export function consoleStreams(): ConsoleStreams {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let buf = '';
  stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const l = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(l);
      for (const w of [...waiters]) {
        if (w.re.test(l)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    }
  });
  return {
    stdin,
    stdout,
    lines,
    line: (re) => {
      const found = lines.find((l) => re.test(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ re, resolve }));
    },
    send: (text) => stdin.write(`${text}\n`),
  };
}

/** An engine that explores when asked to choose and keeps working otherwise. */
export const exploringEngine: EngineProvider = () =>
  new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working'));

/**
 * Start the core on `dataDir`; the caller stops it (`core.stop()`). Its `AGENTS_DIR` is an empty folder unless
 * `env` names one, so what it offers does not depend on the agent CLIs installed in the checkout.
 */
export async function startConsoleCore(
  dataDir: string,
  opts: { engines?: EngineProvider; env?: Record<string, string>; gameFactory?: (name: string) => FakeGame } & Pick<MindlinkOptions, 'store' | 'now'> = {},
): Promise<ConsoleCore> {
  const config = parseConfig({ DATA_DIR: dataDir, AGENTS_DIR: join(dataDir, 'no-agents'), LOOP_PACE_MS: '50', LOOP_MAX_PACE_MS: '200', ...opts.env });
  const games = new Map<string, FakeGame>();
  const core = await Mindlink.start({
    config,
    skills: createSkillRegistry,
    commands: createDispatcher(),
    log: silentLogger(),
    games: {
      create: (avatar) => {
        const g = opts.gameFactory ? opts.gameFactory(avatar.name) : new FakeGame(avatar.name);
        games.set(avatar.name, g);
        return g;
      },
      close: async () => {},
    },
    engines: opts.engines ?? exploringEngine,
    ...(opts.store ? { store: opts.store } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const io = consoleStreams();
  await core.addBridge(new ConsoleBridge(io.stdin, io.stdout, silentLogger()));
  return {
    core,
    lines: io.lines,
    games,
    line: io.line,
    send: io.send,
  };
}

/**
 * For a test file whose tests each start their own core on a fresh folder: `start()` starts one (the given
 * engine, or one that explores) and waits for demo's first goal; every core is stopped and every folder
 * removed after each test.
 */
export function coresPerTest(prefix: string, engines?: EngineProvider): () => Promise<ConsoleCore> {
  const dirs: string[] = [];
  const running: Mindlink[] = [];
  afterEach(async () => {
    for (const c of running.splice(0)) await c.stop();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), `mindlink-${prefix}-`));
    dirs.push(dir);
    const r = await startConsoleCore(dir, engines ? { engines } : {});
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    return r;
  };
}
