/**
 * What every chaos scenario needs: the real mindlink process (`src/main.ts`
 * under tsx, in its own process group so a kill reaches everything it
 * started), a fake Telegram Bot API, a seeded random source, and readers of
 * the data files a scenario checks after the fact.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { openDatabase } from '../src/db/connect.ts';
import { layoutOf, type FileLayout } from '../src/store/pg/layout.ts';
import { PgDataFile } from '../src/store/pg/pg-file.ts';
import { FakeTelegram, privateChat, user, type SentMessage } from '../test/fakes/telegram-api.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The admin who drives the scenarios from Telegram. */
export const ALICE = user(1001, 'Alice');
export const ALICE_DM = privateChat(ALICE);
/** A stranger: knows nobody, may see nothing. */
export const MALLORY = user(6666, 'Mallory');
export const MALLORY_DM = privateChat(MALLORY);

/**
 * What every scenario leaves behind for the secrets check: the processes it
 * ran (their stdout and stderr), the data directories, the fakes (the posts
 * they accepted), and the secrets it handed to mindlink.
 */
export const evidence = {
  procs: [] as Proc[],
  dirs: [] as string[],
  fakes: [] as FakeTelegram[],
  secrets: new Set<string>(),
};

/** A model key that no log, file or post may ever show (handed to every process; the scripted engine ignores it). */
export const CHAOS_LLM_KEY = 'sk-chaos-0123456789abcdefghijklmnopqrstuvwxyz';
evidence.secrets.add(CHAOS_LLM_KEY);

/** Start a fake Telegram whose token and posts the secrets check will look at. */
export async function startTelegram(): Promise<FakeTelegram> {
  const tg = await FakeTelegram.start();
  evidence.fakes.push(tg);
  evidence.secrets.add(tg.token);
  return tg;
}

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A promise that settles when `test` is true, checking it at each of `events` or every `everyMs`. */
export async function until(test: () => boolean, what: string, timeoutMs = 60_000, everyMs = 50): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > timeoutMs) throw new Error(`chaos: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** One run of the real mindlink process. */
export interface Proc {
  child: ChildProcess;
  pid: number;
  stdout: string[];
  stderr: string[];
  exitCode: number | null;
  exited: Promise<number | null>;
  send(line: string): void;
  /** The first stdout line matching, seen or still to come. */
  line(re: RegExp, timeoutMs?: number): Promise<string>;
}

/**
 * Start mindlink in its own process group (as a terminal would run it); `nodeArgs` go to node before the script (a
 * profiler's flags). It runs from source under tsx, or with `build` as `npm start` runs it: from its build in dist/
 * (built first when the source changed since).
 */
export function startProcess(env: Record<string, string>, nodeArgs: readonly string[] = [], opts: { build?: boolean } = {}): Proc {
  const script = opts.build ? ['scripts/start.mjs'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, [...nodeArgs, ...script], {
    cwd: ROOT,
    // One process for the avatars unless the environment or the scenario asks for avatar hosts.
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', CONSOLE: 'on', WEB_PORT: '0', LLM_API_KEY: CHAOS_LLM_KEY, AVATAR_HOSTS: process.env.AVATAR_HOSTS ?? '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
    stdout.push(l);
    for (const w of [...waiters]) {
      if (w.re.test(l)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => stderr.push(l));
  const proc: Proc = {
    child,
    pid: child.pid ?? -1,
    stdout,
    stderr,
    exitCode: null,
    exited: new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        proc.exitCode = code ?? (signal ? 128 : null);
        resolve(proc.exitCode);
      }),
    ),
    send: (l) => {
      if (child.stdin && !child.stdin.destroyed) child.stdin.write(`${l}\n`);
    },
    line: (re, timeoutMs = 60_000) => {
      const seen = stdout.find((l) => re.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`chaos: no stdout line ${re} in ${timeoutMs} ms; stderr tail:\n${stderr.slice(-15).join('\n')}`)), timeoutMs);
        void proc.exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`chaos: mindlink exited (${proc.exitCode}) before ${re}; stderr tail:\n${stderr.slice(-15).join('\n')}`));
        });
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
  child.stdin?.on('error', () => undefined); // a killed process closes its stdin; nothing to report
  evidence.procs.push(proc);
  return proc;
}

/** Every process whose parent chain leads to `pid` (read from /proc). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended while the table was read: it is nobody's descendant any more.
      continue;
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const [child, parent] of parents) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Whether a process with this pid still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * kill -9 the mindlink process alone, as `kill -9 <pid>` does. Returns the
 * processes it had started (the embedded world) that were still alive a
 * moment later: those are orphans, which are then killed too.
 */
export async function kill9(proc: Proc): Promise<{ orphans: number }> {
  const kids = descendants(proc.pid);
  if (alive(proc.pid)) process.kill(proc.pid, 'SIGKILL');
  await proc.exited;
  // A child that watches its parent leaves within a second or two; give it that long.
  const deadline = Date.now() + 5000;
  while (kids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const orphans = kids.filter(alive);
  for (const p of orphans) process.kill(p, 'SIGKILL');
  return { orphans: orphans.length };
}

/** Stop the process gracefully (SIGTERM) and wait for it; kill what is left after `timeoutMs`. */
export async function stopGracefully(proc: Proc, timeoutMs = 30_000): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode;
  process.kill(proc.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const p of [proc.pid, ...descendants(proc.pid)]) if (alive(p)) process.kill(p, 'SIGKILL');
  }, timeoutMs);
  const code = await proc.exited;
  clearTimeout(timer);
  return code;
}

/** A fresh temp directory for DATA_DIR. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `mindlink-chaos-${prefix}-`));
  evidence.dirs.push(dir);
  return dir;
}

/** Remove every data directory the run made (once the secrets check has read them) and forget the evidence. */
export async function removeEvidence(): Promise<void> {
  const dirs = evidence.dirs.splice(0);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  evidence.procs.length = 0;
  evidence.fakes.length = 0;
}

/** A data file parsed, or the error that kept it from parsing. */
export function readJson<T>(file: string): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(readFileSync(file, 'utf8')) as T };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * One data file as stored now, parsed, or the error that kept it from reading: the file in `dataDir`, or, with
 * `databaseUrl`, the rows of the store in PostgreSQL (read as the store reads them, in one snapshot).
 */
export async function readStored<T>(dataDir: string, file: FileLayout['name'], databaseUrl?: string): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  const layout = layoutOf(file);
  if (!databaseUrl) return readJson<T>(path.join(dataDir, layout.file));
  const db = openDatabase(databaseUrl, pino({ level: 'silent' }), { max: 1, name: 'mindlink-chaos' });
  try {
    const doc = await new PgDataFile(db, layout).read();
    return doc === null ? { ok: false, error: `${layout.file}: nothing stored` } : { ok: true, value: doc as T };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    await db.end();
  }
}

/** The parts of state.json the scenarios check (a loose view: the store validates the rest). */
export interface StateView {
  avatars: {
    name: string;
    playing: boolean;
    goal: { text: string } | null;
    parked: { text: string }[];
    directions: { open: { n: number; text: string }[]; done: { n: number; text: string }[] };
  }[];
}

/** The parts of goal-record.json the scenarios check. */
export interface RecordView {
  goals: { avatar: string; text: string; outcome: string }[];
}

/** The parts of outbox.json the scenarios check. */
export interface OutboxView {
  pending: { id: string; text: string; replyTo: string | null }[];
}

/** The environment that points mindlink at the fake Telegram with Alice as admin. */
export function telegramEnv(tg: FakeTelegram, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    TELEGRAM_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    ADMINS: `telegram:${ALICE.id}`,
    ...extra,
  };
}

/** Replies the fake accepted for one inbound message. */
export function repliesTo(tg: FakeTelegram, chatId: number, messageId: number): SentMessage[] {
  return tg.sent.filter((s) => s.chat_id === chatId && s.reply_to === messageId);
}

/** Wait until the bot is long-polling again (a getUpdates call after `since` calls were recorded). */
export function polling(tg: FakeTelegram, since: number, timeoutMs = 60_000): Promise<unknown> {
  return tg.waitForCall('getUpdates', () => true, { since, timeoutMs });
}

export { FakeTelegram, privateChat, user };
