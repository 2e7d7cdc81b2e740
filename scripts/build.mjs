/**
 * The build: mindlink's TypeScript (src, bridges, commands, skills) compiled to plain JavaScript in dist/,
 * the same tree (dist/src/main.js …), so `npm start` runs with no TypeScript loader (scripts/start.mjs).
 * Run by `npm ci` / `npm install` (`prepare`) and by `npm run build`; `npm start` runs it again itself when
 * a source file changed since (see scripts/start.mjs). Writes dist/build.json: when the build started and
 * how many source files it read, so that check costs a few milliseconds.
 *
 * Type errors do not stop the build (TypeScript still writes the JavaScript): `npm run typecheck` is where
 * they are reported.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './sources.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');

/** Compile into dist/ (emptied first); throws when TypeScript wrote nothing. */
export function build({ quiet = false } = {}) {
  const startedAt = Date.now();
  const files = sourceFiles(ROOT).length;
  rmSync(DIST, { recursive: true, force: true });
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, encoding: 'utf8' });
  // 0: built; 2: built, with type errors (reported by `npm run typecheck`); anything else: nothing was written.
  if (run.status !== 0 && run.status !== 2) throw new Error(`the build failed (tsc exited ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
  if (run.status === 2 && !quiet) process.stderr.write('mindlink build: TypeScript reports type errors (see `npm run typecheck`); the JavaScript was written anyway.\n');
  mkdirSync(DIST, { recursive: true });
  // What the code reads beside itself at run time and TypeScript does not write: the web page's files, pi's
  // extension (pi compiles it itself), and the coding agents' folder (config.ts finds it next to src/).
  cpSync(path.join(ROOT, 'bridges', 'web', 'assets'), path.join(DIST, 'bridges', 'web', 'assets'), { recursive: true });
  cpSync(path.join(ROOT, 'src', 'engines', 'agents', 'pi-extension.ts'), path.join(DIST, 'src', 'engines', 'agents', 'pi-extension.ts'));
  symlinkSync(path.join('..', 'agents'), path.join(DIST, 'agents'), 'dir');
  writeFileSync(path.join(DIST, 'build.json'), `${JSON.stringify({ startedAt, files })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    build();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
