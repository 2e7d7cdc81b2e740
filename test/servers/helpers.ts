/**
 * The real core with the real game provider (no embedded world unless asked: the tests start their own
 * servers), the console on in-memory streams, and waiting for its replies.
 */
import { ConsoleBridge } from '../../bridges/console.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { createEngineProvider } from '../../src/engines/index.ts';
import { createGameProvider } from '../../src/game/provider.ts';
import { silentLogger } from '../../src/logger.ts';
import { consoleStreams, type ConsoleStreams } from '../core/console-harness.ts';
import { testLogger } from '../game/helpers.ts';

/** A running core and its console. */
export interface Running {
  core: Mindlink;
  io: ConsoleStreams;
}

/** The core on `dir` with the real game provider; `env` adds configuration (the embedded world is off unless it says so). */
export async function startCore(dir: string, env: Record<string, string> = {}): Promise<Running> {
  const config = parseConfig({ DATA_DIR: dir, EMBEDDED: 'off', LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000', ...env });
  const log = testLogger();
  const games = await createGameProvider(config, log);
  const core = await Mindlink.start({ config, log, games, engines: createEngineProvider(config), skills: createSkillRegistry, commands: createDispatcher() });
  const io = consoleStreams();
  await core.addBridge(new ConsoleBridge(io.stdin, io.stdout, silentLogger()));
  return { core, io };
}

/** The first stdout line matching, from the `from`-th line on, or a rejection naming what was seen. */
export async function lineAfter(io: ConsoleStreams, from: number, re: RegExp, ms = 120_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = io.lines.slice(from).find((l) => re.test(l));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no line matching ${re}; saw:\n${io.lines.slice(from).join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Send a command and wait for the reply that matches. */
export async function ask(io: ConsoleStreams, text: string, re: RegExp, ms?: number): Promise<string> {
  const from = io.lines.length;
  io.send(text);
  return lineAfter(io, from, re, ms);
}

