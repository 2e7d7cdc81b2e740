/**
 * An avatar host's entry point (docs/avatar-hosts.md): wiring only, like
 * `src/main.ts`. mindlink starts `AVATAR_HOSTS` of these as child processes;
 * each runs the games of the avatars placed on it, with the same skills and
 * reflexes as one process does, and talks to the core over its IPC channel.
 * It exits when the core tells it to, and at once when the core is gone.
 */
import { foreignClaim, shareClaims } from '../skills/claims.ts';
import { createSkillRegistry } from '../skills/index.ts';
import { Reflexes } from '../skills/reflexes.ts';
import { loadConfig } from './config.ts';
import type { CoreToHost, HostConfig, HostToCore } from './game/hosts/protocol.ts';
import { runHost } from './game/hosts/host-runtime.ts';
import { createGameProvider } from './game/provider.ts';
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
  const games = await createGameProvider(config, log, {
    world: host.world,
    // Reflexes (defend > eat > flee) act on every avatar's game with no engine call.
    attach: (game, gameLog) => {
      const reflexes = new Reflexes(game, gameLog);
      reflexes.start();
      return reflexes;
    },
  });
  const send = (m: HostToCore): void => {
    if (process.connected) process.send?.(m);
  };
  // Avatars collecting side by side spread out across hosts too: each host hears of the others' block claims.
  shareClaims((key, by, until) => send({ type: 'claim', key, by, until }));
  const runtime = runHost({ games, skills: createSkillRegistry, log, send, foreignClaim });
  let leaving = false;
  const leave = (why: string): void => {
    if (leaving) return;
    leaving = true;
    log.info({ why }, 'avatar host stopping');
    // Without its core there is no one to carry on for: a second at most to leave the games.
    const limit = setTimeout(() => process.exit(0), why === 'the core is gone' ? 1000 : 15_000);
    limit.unref();
    void runtime
      .shutdown()
      .catch((err: unknown) => log.warn({ err }, 'leaving the games failed'))
      .finally(() => process.exit(0));
  };
  process.on('message', (m: CoreToHost) => {
    if (m.type === 'shutdown') leave('asked by the core');
    else runtime.handle(m);
  });
  process.on('disconnect', () => leave('the core is gone'));
  process.on('SIGTERM', () => leave('SIGTERM'));
  process.on('SIGINT', () => leave('SIGINT'));
  process.send?.({ type: 'ready', pid: process.pid });
  log.info({ pid: process.pid }, 'avatar host ready');
}

main().catch((err: unknown) => {
  process.stderr.write(`mindlink avatar host: start-up failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
