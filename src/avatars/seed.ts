/**
 * First start (SPEC "First start"): the console person, the configured
 * server, and the `demo` avatar linked to the console. Runs at every start;
 * it adds only what is missing and keeps the server entry in step with the
 * environment.
 */
import type { Config } from '../config.ts';
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
    const serverId = config.MC_HOST ? 'default' : 'embedded';
    const server: Server = {
      id: serverId,
      host: config.MC_HOST ?? null,
      port: config.MC_PORT ?? null,
      version: config.MC_VERSION,
      auth: 'offline',
    };
    const i = s.servers.findIndex((x) => x.id === serverId);
    if (i < 0) s.servers.push(server);
    else s.servers[i] = server;
    if (s.avatars.length === 0) {
      s.avatars.push(newAvatarRecord('demo', 'console', serverId, config.ENGINE, true, now));
      s.links.push({ avatar: 'demo', dest: 'console', mode: 'control', createdAt: now.toISOString() });
    }
  });
}
