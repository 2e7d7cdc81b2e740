/**
 * First start (README "Quickstart"): the console person, the servers the
 * environment names, and the `demo` avatar linked to the console. Runs at
 * every start; it adds only what is missing and keeps the environment's
 * server entries in step with it (see `ServerRegistry.putFromEnvironment`).
 * Each record is written by its owner; this only asks them.
 */
import type { AvatarRecords } from './avatars/avatar-records.ts';
import type { Config } from './config.ts';
import type { Links } from './people/links.ts';
import type { People } from './people/people.ts';
import type { ServerRegistry } from './servers/registry.ts';
import { newAvatarRecord } from './store/store.ts';

/** The owners first start asks. */
export interface FirstStartParts {
  config: Config;
  people: People;
  servers: ServerRegistry;
  records: AvatarRecords;
  links: Links;
}

/**
 * @example
 * firstStart({ config, people, servers: registry, records, links }, new Date());
 */
export function firstStart({ config, people, servers, records, links }: FirstStartParts, now: Date): void {
  people.ensureConsole();
  servers.putFromEnvironment();
  const home = servers.homeId();
  if (records.all().length > 0 || !home) return;
  records.add(newAvatarRecord('demo', 'console', home, config.ENGINE, true, now));
  links.link('demo', 'console', 'control');
}
