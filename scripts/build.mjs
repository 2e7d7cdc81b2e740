/**
 * The build: mindlink's TypeScript (src, bridges, commands, skills) compiled to plain JavaScript in dist/,
 * the same tree (dist/src/main.js …), so `npm start` runs with no TypeScript loader (scripts/start.mjs).
 * Run by `npm ci` / `npm install` (`prepare`) and by `npm run build`; `npm start` runs it again itself when
 * a source file changed since (see {@link ensureBuilt}). Writes dist/build.json: when the build started and
 * how many source files it read, so that check costs a few milliseconds.
 *
 * One build at a time per checkout: a build holds a lock (a folder beside dist/, with its pid); another
 * launcher waits for it and then finds the build current, so two `npm start`s after an edit build once and
 * neither runs a half-written dist/. A lock whose process is gone is taken over.
 *
 * Type errors do not stop the build (TypeScript still writes the JavaScript): `npm run typecheck` is where
 * they are reported.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './sources.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
const LOCK = path.join(ROOT, 'dist.lock');
const LOCK_POLL_MS = 100;

/** Compile into dist/ (emptied first); throws when TypeScript wrote nothing. */
function compile({ quiet }) {
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
  writeCodecs();
}

/**
 * The packet codecs of the embedded world's version, both directions and every state, written to the codec cache
 * (src/game/codec-cache.cjs) so that the first start finds them. Without them (this failed) the first start
 * writes them itself.
 */
function writeCodecs() {
  const script = `
    import { createRequire } from 'node:module';
    const dist = process.argv[1];
    const require = createRequire(dist + '/');
    const { DefaultEmbeddedWorldOptions } = await import(dist + '/src/game/embedded/embedded-world.js');
    const mineflayer = require.resolve('mineflayer');
    require(dist + '/src/game/lean-protocol.cjs').leanProtocol(mineflayer);
    const protocol = createRequire(mineflayer)('minecraft-protocol');
    for (const state of Object.values(protocol.states)) {
      for (const isServer of [false, true]) protocol.createSerializer({ state, isServer, version: DefaultEmbeddedWorldOptions.version });
    }`;
  spawnSync(process.execPath, ['--input-type=module', '-e', script, DIST], { cwd: ROOT, stdio: 'ignore' });
}

/** Whether process `pid` still runs. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as someone else.
    return err.code === 'EPERM';
  }
}

/**
 * Run `work` holding the build lock: waits while another live process holds it, takes over a dead one's. The lock
 * is a folder with its holder's pid in it, put in place whole (made aside, then renamed), so it is never without one.
 */
function locked(work) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const mine = `${LOCK}.${process.pid}`;
  let said = false;
  for (;;) {
    mkdirSync(mine, { recursive: true });
    writeFileSync(path.join(mine, 'pid'), String(process.pid));
    try {
      renameSync(mine, LOCK);
      break;
    } catch (err) {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    }
    rmSync(mine, { recursive: true, force: true });
    let holder;
    try {
      holder = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    } catch (err) {
      // Released between the two: try again at once.
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    if (!alive(holder)) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (!said) {
      process.stderr.write(`mindlink: waiting for the build under way (pid ${holder})\n`);
      said = true;
    }
    Atomics.wait(sleeper, 0, 0, LOCK_POLL_MS);
  }
  try {
    return work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Why dist/ cannot be run as it is (missing, or older than the source), or null when it is current. */
export function staleReason() {
  const stampFile = path.join(DIST, 'build.json');
  if (!existsSync(stampFile)) return 'there is no build yet';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch (err) {
    return `its build record is unreadable (${err.message})`;
  }
  const files = sourceFiles(ROOT);
  if (files.length !== stamp.files) return 'source files were added or removed since the build';
  const changed = files.find((f) => f.mtimeMs >= stamp.startedAt);
  return changed ? `${changed.file} changed since the build` : null;
}

/** Build dist/ (waiting for a build under way first). */
export function build({ quiet = false } = {}) {
  locked(() => compile({ quiet }));
}

/**
 * Build dist/ when it is stale; returns why and how long it took (s), or null when it was current (also when
 * another process built it while this one waited for it).
 */
export function ensureBuilt() {
  if (staleReason() === null) return null;
  return locked(() => {
    const why = staleReason();
    if (why === null) return null;
    const started = Date.now();
    compile({ quiet: false });
    return { why, seconds: (Date.now() - started) / 1000 };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    build();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
