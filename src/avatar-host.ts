/**
 * An avatar host's entry point (docs/avatar-hosts.md): wiring only, like
 * `src/main.ts`. mindlink starts `AVATAR_HOSTS` of these as child processes;
 * each runs the games of the avatars placed on it, with the same skills and
 * reflexes as one process does, and talks to the core over its IPC channel.
 * It says it is ready as soon as it takes messages, and builds the games once
 * it knows where the embedded world is (told at once, or by a `world` message
 * when it was started while the world still started), warming up the
 * version's packet codecs meanwhile. It exits when the core tells it to, and
 * at once when the core is gone.
 */
import { foreignClaim, shareClaims } from '../skills/claims.ts';
import { createSkillRegistry } from '../skills/index.ts';
import { Reflexes } from '../skills/reflexes.ts';
import { loadConfig } from './config.ts';
import type { CoreToHost, HostConfig, HostToCore, WorldAddress } from './game/hosts/protocol.ts';
import { runHost, type HostRuntime } from './game/hosts/host-runtime.ts';
import { createGameProvider } from './game/provider.ts';
import { embeddedVersion } from './game/embedded/world-start.ts';
import { warmUp } from './game/warm-up.ts';
import { startHealthLog } from './health.ts';
import { readTickRates } from './game/tick-meter.ts';
import { createLogger, registerSecret } from './logger.ts';

async function main(): Promise<void> {
  process.umask(0o077);
  const host = JSON.parse(process.argv[2] ?? '{}') as HostConfig;
  const config = loadConfig();
  for (const secret of [config.TELEGRAM_TOKEN, config.DISCORD_TOKEN, config.LLM_API_KEY]) registerSecret(secret);
  const log = createLogger(config.LOG_LEVEL, { sync: true }).child({ avatarHost: host.index });
  startHealthLog(log, config.HEALTH_LOG_MS, 'host health', readTickRates);
  const send = (m: HostToCore): void => {
    if (process.connected) process.send?.(m);
  };
  let runtime: HostRuntime | undefined;
  /** What the core asked before the games could be built (the world was still starting). */
  const waiting: CoreToHost[] = [];
  let worldIs: (world: WorldAddress | null) => void = () => undefined;
  const worldKnown = host.world !== undefined ? Promise.resolve(host.world) : new Promise<WorldAddress | null>((resolve) => (worldIs = resolve));
  let leaving = false;
  const leave = (why: string): void => {
    if (leaving) return;
    leaving = true;
    log.info({ why }, 'avatar host stopping');
    // Without its core there is no one to carry on for: a second at most to leave the games.
    const limit = setTimeout(() => process.exit(0), why === 'the core is gone' ? 1000 : 15_000);
    limit.unref();
    void (runtime?.shutdown() ?? Promise.resolve())
      .catch((err: unknown) => log.warn({ err }, 'leaving the games failed'))
      .finally(() => process.exit(0));
  };
  process.on('message', (m: CoreToHost) => {
    if (m.type === 'shutdown') leave('asked by the core');
    else if (m.type === 'world') worldIs(m.world);
    else if (runtime) runtime.handle(m);
    else waiting.push(m);
  });
  process.on('disconnect', () => leave('the core is gone'));
  process.on('SIGTERM', () => leave('SIGTERM'));
  process.on('SIGINT', () => leave('SIGINT'));
  process.send?.({ type: 'ready', pid: process.pid });
  log.info({ pid: process.pid }, 'avatar host ready');
  // Alive while the games are not built yet (the runtime says so from then on).
  const alive = setInterval(() => send({ type: 'alive' }), 2000);
  alive.unref();
  // While the world starts (and the core loads), what the first join would wait for: on the first host, where the
  // first avatar is placed (the others would only take CPU from the world and the core now; theirs is done on their first join).
  if (config.EMBEDDED && host.index === 0) warmUp(embeddedVersion(config));
  const games = await createGameProvider(config, log, {
    world: await worldKnown,
    // Reflexes (defend > eat > flee) act on every avatar's game with no engine call.
    attach: (game, gameLog) => {
      const reflexes = new Reflexes(game, gameLog);
      reflexes.start();
      return reflexes;
    },
  });
  // Avatars collecting side by side spread out across hosts too: each host hears of the others' block claims.
  shareClaims((key, by, until) => send({ type: 'claim', key, by, until }));
  clearInterval(alive);
  if (leaving) return;
  runtime = runHost({ games, skills: createSkillRegistry, log, send, foreignClaim });
  for (const m of waiting.splice(0)) runtime.handle(m);
}

main().catch((err: unknown) => {
  process.stderr.write(`mindlink avatar host: start-up failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
