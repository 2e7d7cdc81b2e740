/**
 * `npm run host -- --nats nats://… --id <name>`: an avatar host on any machine (docs/many-machines.md), run from
 * mindlink's build in dist/ as `npm start` runs the core (scripts/start.mjs): built first when the build is
 * missing or older than the source, and said so on stderr. Its arguments reach src/avatar-host.ts as given.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ensureBuilt } from './build.mjs';

const built = ensureBuilt();
if (built) process.stderr.write(`mindlink avatar host: built dist/ first (${built.why}; ${built.seconds.toFixed(1)} s)\n`);
await import(pathToFileURL(path.join(DIST, 'src', 'avatar-host.js')).href);
