#!/usr/bin/env node
// `npm run agents:install -- <engine…|all>`: installs the pinned agent CLIs that mindlink's agent engines drive
// (docs/agents.md), each in its own folder here (agents/<engine>/node_modules, git-ignored), never for everyone
// on `npm ci`. mindlink finds them here, or on PATH.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ENGINES = ['opencode', 'claude-code', 'pi'];
const asked = process.argv.slice(2);
const names = asked.includes('all') ? ENGINES : asked;
const unknown = names.filter((n) => !ENGINES.includes(n));
if (names.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) process.stderr.write(`unknown engine: ${unknown.join(', ')}\n`);
  process.stderr.write(`usage: npm run agents:install -- <${ENGINES.join('|')}|all> …\n`);
  process.exit(2);
}
for (const name of names) {
  const dir = join(here, name);
  const deps = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies;
  const what = Object.entries(deps).map(([pkg, version]) => `${pkg}@${version}`).join(', ');
  process.stdout.write(`installing ${what} into agents/${name}/node_modules …\n`);
  // Its own folder and package.json: the CLI's dependencies never mix with mindlink's. npm resolves the CLI's
  // per-platform binary here, on the machine that runs it.
  // A CLI's install script may make its folders under the XDG base directories (opencode does): here, not in $HOME.
  const xdg = (sub) => join(dir, '.install-home', sub);
  const env = { ...process.env, XDG_CONFIG_HOME: xdg('config'), XDG_CACHE_HOME: xdg('cache'), XDG_DATA_HOME: xdg('data'), XDG_STATE_HOME: xdg('state') };
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { cwd: dir, stdio: 'inherit', env });
  if (r.status !== 0) {
    process.stderr.write(`installing ${what} failed (npm exited with ${r.status ?? r.signal})\n`);
    process.exit(1);
  }
}
