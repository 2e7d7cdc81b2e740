/**
 * Runs the real mindlink process (`src/main.ts` under tsx) for end-to-end tests
 * and reads its stdout line by line.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The count of one item in a `/status` inventory line (`inventory: dirt×3, oak_log×1`). */
export function held(line: string, item: string): number {
  return Number(new RegExp(`\\b${item}×(\\d+)`).exec(line)?.[1] ?? 0);
}

/** Pids of a process's children (`ps --ppid`). */
export function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Pids of the live processes whose environment has `DATA_DIR=dir` (mindlink and the processes it started). */
export function processesOn(dir: string): number[] {
  const wanted = `DATA_DIR=${dir}`;
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(wanted);
      } catch (err) {
        // Gone since the listing, or another user's: not one of this test's.
        if (['ENOENT', 'ESRCH', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) return false;
        throw err;
      }
    })
    .map(Number);
}

export interface MindlinkProcess {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  /** The first stdout line matching (already seen, from line index `from` on, or still to come), or a rejection after `timeoutMs`. */
  line(re: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** The first stderr (log) line matching, seen from now on, or a rejection after `timeoutMs`. */
  logLine(re: RegExp, timeoutMs?: number): Promise<string>;
  send(text: string): void;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Start mindlink with the given environment (on top of this one, with CONSOLE on): `node --import tsx src/main.ts`
 * (with `imports` loaded too), or, with `npm`, the README's `npm start --silent` (then `child` is npm, and
 * mindlink is npm's child).
 */
export function startMindlink(env: Record<string, string>, opts: { detached?: boolean; imports?: string[]; npm?: boolean } = {}): MindlinkProcess {
  const [command, args] = opts.npm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, ['--import', 'tsx', ...(opts.imports ?? []).flatMap((m) => ['--import', m]), 'src/main.ts']];
  const child = spawn(command, args, {
    cwd: ROOT,
    // The dashboard on a free port: e2e processes run side by side.
    // The avatars in mindlink's own process unless the environment or the test asks for avatar hosts.
    env: { ...process.env, CONSOLE: 'on', LOG_LEVEL: 'info', WEB_PORT: '0', AVATAR_HOSTS: process.env.AVATAR_HOSTS ?? '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  const logWaiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
    lines.push(l);
    for (const w of [...waiters]) {
      if (w.re.test(l)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => {
    stderr.push(l);
    if (stderr.length > 400) stderr.shift();
    for (const w of [...logWaiters]) {
      if (w.re.test(l)) {
        logWaiters.splice(logWaiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr,
    exited,
    send: (text) => child.stdin?.write(`${text}\n`),
    logLine: (re, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no stderr line matching ${re} within ${timeoutMs} ms.\nstdout:\n${lines.join('\n')}\nstderr (tail):\n${stderr.slice(-30).join('\n')}`));
        }, timeoutMs);
        logWaiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      }),
    line: (re, timeoutMs = 60_000, from = 0) => {
      const found = lines.find((l, i) => i >= from && re.test(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no stdout line matching ${re} within ${timeoutMs} ms.\nstdout:\n${lines.join('\n')}\nstderr (tail):\n${stderr.slice(-30).join('\n')}`));
        }, timeoutMs);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}

/** An avatar host run as `npm run host` runs it, for the NATS tests. */
export interface HostRun {
  child: ChildProcess;
  /** Every stderr line (its log), all of them. */
  stderr: string[];
  /** The first stderr line matching (already seen, or still to come), or a rejection after `timeoutMs`. */
  logLine(re: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/**
 * Start an avatar host over NATS: `node --import tsx src/avatar-host.ts <args>`, or with `npm`,
 * `npm run --silent host -- <args>` (then `child` is npm). In its own process group, so that the test can end
 * it and whatever it started.
 */
export function startHost(args: string[], env: Record<string, string>, opts: { npm?: boolean } = {}): HostRun {
  const [command, argv] = opts.npm ? ['npm', ['run', '--silent', 'host', '--', ...args]] : [process.execPath, ['--import', 'tsx', 'src/avatar-host.ts', ...args]];
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => {
    stderr.push(l);
    for (const w of [...waiters]) {
      if (w.re.test(l)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  return {
    child,
    stderr,
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    logLine: (re, timeoutMs = 60_000) => {
      const seen = stderr.find((l) => re.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no host log line matching ${re} within ${timeoutMs} ms; tail:\n${stderr.slice(-30).join('\n')}`)), timeoutMs);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}
