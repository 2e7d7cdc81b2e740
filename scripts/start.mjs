/**
 * `npm start`: mindlink from its build in dist/ (plain JavaScript: no TypeScript compiled at start-up, for
 * the core nor for the avatar hosts it starts).
 *
 * The build must be of the source as it is: when dist/ is missing, or a source file changed, was added or
 * removed since the build started (scripts/build.mjs writes when, and how many files), it is built again
 * first and that is said on stderr. So a stale build is never what runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, DIST, ROOT } from './build.mjs';
import { sourceFiles } from './sources.mjs';

/** Why the build cannot be used as it is, or null when it is current. */
function stale() {
  const stampFile = path.join(DIST, 'build.json');
  if (!existsSync(stampFile)) return 'there is no build yet';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return 'its build record is unreadable';
  }
  const files = sourceFiles(ROOT);
  if (files.length !== stamp.files) return 'source files were added or removed since the build';
  const changed = files.find((f) => f.mtimeMs >= stamp.startedAt);
  return changed ? `${changed.file} changed since the build` : null;
}

const why = stale();
if (why) {
  const started = Date.now();
  build();
  process.stderr.write(`mindlink: built dist/ first (${why}; ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
await import(pathToFileURL(path.join(DIST, 'src', 'main.js')).href);
