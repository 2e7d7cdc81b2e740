/**
 * First start (README "Quickstart"): the console person, the servers the
 * environment names, and the `demo` avatar linked to the console. Runs at
 * every start; it adds only what is missing and keeps the environment's
 * server entries in step with it: the embedded world (unless `EMBEDDED=off`)
 * and the server `MC_HOST` names, which is the default server when set.
 * Servers added from chat are left as they are.
 */
import type { Config } from '../config.ts';
import { embeddedVersion } from '../game/embedded/world-start.ts';
import { EMBEDDED_ID, MC_HOST_ID } from '../servers/registry.ts';
import { newAvatarRecord, type Server, type Store } from '../store/store.ts';

/**
 * @example
 * seedStore(store, config, new Date());
 */
export function seedStore(store: Store, config: Config, now: Date): void {
  store.state.update((s) => {
    if (!s.persons.some((p) => p.identities.includes('console:local'))) {
      s.persons.push({ id: 'console', name: 'console', identities: ['console:local'], admin: true });
    }
    const put = (server: Server): void => {
      const i = s.servers.findIndex((x) => x.id === server.id);
      if (i < 0) s.servers.push(server);
      else s.servers[i] = server;
    };
    if (config.EMBEDDED) put({ id: EMBEDDED_ID, host: null, port: null, version: embeddedVersion(config), auth: 'offline' });
    if (config.MC_HOST) {
      const stored = s.servers.find((x) => x.id === MC_HOST_ID);
      // Without MC_VERSION the version is the one found before (by /server test), else found at each join.
      const same = stored?.host === config.MC_HOST && stored.port === (config.MC_PORT ?? 25565) ? stored : undefined;
      const version = config.MC_VERSION ?? same?.version ?? '';
      put({
        id: MC_HOST_ID,
        host: config.MC_HOST,
        port: config.MC_PORT ?? 25565,
        version,
        // Offline, as MC_HOST always was, unless `/server add default … auth:microsoft` changed it.
        auth: same?.auth ?? 'offline',
        ...(config.MC_VERSION ? { versionPinned: true } : {}),
        ...(same?.software ? { software: same.software } : {}),
        ...(same?.onlineMode !== undefined ? { onlineMode: same.onlineMode } : {}),
      });
    }
    const home = config.MC_HOST ? MC_HOST_ID : config.EMBEDDED ? EMBEDDED_ID : undefined;
    if (s.avatars.length === 0 && home) {
      s.avatars.push(newAvatarRecord('demo', 'console', home, config.ENGINE, true, now));
      s.links.push({ avatar: 'demo', dest: 'console', mode: 'control', createdAt: now.toISOString() });
    }
  });
}
