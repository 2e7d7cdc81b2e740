/**
 * A whole mindlink core on a real embedded world: production engines, skills and commands, each
 * avatar a real mineflayer game on the world, and a console bridge to type into and read from.
 * For the tests that follow avatars through the loop and the game together.
 */
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import { ConsoleBridge } from '../../bridges/console.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry, skills as skillList } from '../../skills/index.ts';
import type { Config } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { createEngineProvider } from '../../src/engines/index.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { HostPool } from '../../src/game/hosts/pool.ts';
import { hostedSkills } from '../../src/game/hosts/remote-skills.ts';
import { EMBEDDED_CAPABILITIES, type MineflayerGame } from '../../src/game/mineflayer-game.ts';
import type { Logger } from '../../src/logger.ts';
import { collectLines, waitFor, worldGame } from './helpers.ts';

/** How many log lines a {@link witness} keeps. */
const LOG_TAIL = 400;

/** A test's debug log kept in memory and its console's chat, to show when a wait fails. */
export interface Witness {
  /** A debug logger into {@link Witness.logLines} (with TEST_LOG set, on stderr too). */
  log: Logger;
  /** The last log lines, as JSON. */
  logLines: string[];
  /** The console's chat lines. */
  lines: string[];
  /** Wait for `cond`; on time-out the error shows the chat and the log's tail. */
  until(cond: () => boolean, ms: number, what: string): Promise<void>;
}

/**
 * @example
 * const { log, lines, until } = witness();
 * await until(() => lines.some((l) => l.startsWith('[demo] Done:')), 60_000, 'demo to finish');
 */
export function witness(onLine?: (line: string) => void): Witness {
  const logLines: string[] = [];
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = chunk.toString('utf8').trim();
      if (process.env.TEST_LOG) process.stderr.write(`${line}\n`);
      onLine?.(line);
      logLines.push(line);
      if (logLines.length > LOG_TAIL) logLines.shift();
      done();
    },
  });
  const log = pino({ level: process.env.TEST_LOG ?? 'debug' }, sink);
  const until = async (cond: () => boolean, ms: number, what: string): Promise<void> => {
    try {
      await waitFor(cond, ms, what);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchat:\n${lines.join('\n')}\nlog (tail):\n${logLines.slice(-40).join('\n')}`);
    }
  };
  return { log, logLines, lines, until };
}

/** What {@link startCoreOnWorld} is built from. */
export interface CoreOnWorldOptions {
  /** The world the avatars join, read at each join (a test that restarts its world hands the new one). */
  world: () => EmbeddedWorld;
  config: Config;
  log: Logger;
  /** The console's chat lines, as they come. */
  lines: string[];
  /** Each avatar's game as the core creates it (to watch its events). */
  onGame?(avatar: string, game: MineflayerGame): void;
  /** Avatar hosts to play on instead (their world is `world`): each avatar's game and skills run on a host of the pool. */
  hosts?: HostPool;
}

/**
 * @example
 * const { core, stdin } = await startCoreOnWorld({ world: () => world, config, log, lines });
 * stdin.write('Goal: collect 3 oak logs\n');
 */
export async function startCoreOnWorld({ world, config, log, lines, onGame, hosts }: CoreOnWorldOptions): Promise<{ core: Mindlink; stdin: PassThrough }> {
  const core = await Mindlink.start({
    config,
    log,
    games: {
      create: (avatar, server, avatarLog) => {
        if (hosts) return hosts.game(avatar.name, server, EMBEDDED_CAPABILITIES);
        const game = worldGame(world(), avatar.name, avatarLog);
        onGame?.(avatar.name, game);
        return game;
      },
      close: async () => {},
    },
    engines: createEngineProvider(config),
    skills: hosts ? hostedSkills(skillList, createSkillRegistry) : createSkillRegistry,
    commands: createDispatcher(),
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  collectLines(stdout, lines);
  await core.addBridge(new ConsoleBridge(stdin, stdout, log));
  return { core, stdin };
}
