/**
 * `npm start`: mindlink from its build in dist/ (plain JavaScript: no TypeScript compiled at start-up, for
 * the core nor for the avatar hosts it starts), run in this same process.
 *
 * The build must be of the source as it is: when dist/ is missing, or a source file changed, was added or
 * removed since the build started (scripts/build.mjs writes when, and how many files), it is built again
 * first and that is said on stderr. So a stale build is never what runs.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ensureBuilt } from './build.mjs';

const built = ensureBuilt();
if (built) process.stderr.write(`mindlink: built dist/ first (${built.why}; ${built.seconds.toFixed(1)} s)\n`);
await import(pathToFileURL(path.join(DIST, 'src', 'main.js')).href);
