/**
 * A real PostgreSQL server for a test (Debian's `postgresql`; `.ci/run`
 * installs it): a fresh cluster made by `initdb` in a temp dir, listening on
 * 127.0.0.1 and a free port, with one database `mindlink`, stopped and removed
 * by the test. `initdb` and `postgres` refuse to run as root, so as root both
 * run as the `postgres` user, in a dir that user owns.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './free-port.ts';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** The PostgreSQL programs' folder, or undefined when PostgreSQL is not installed (the tests that need it skip). */
export const PG_BIN = ((): string | undefined => {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('which', ['initdb'], { encoding: 'utf8' }).stdout.trim();
  return which ? which.replace(/\/initdb$/, '') : undefined;
})();

/** A running test PostgreSQL server. */
export interface TestPostgres {
  /** `postgres://<user>:<password>@127.0.0.1:<port>/mindlink`. */
  url: string;
  port: number;
  /** The password in `url` (tests check it never reaches a log). */
  password: string;
  /** Whether it runs now. */
  readonly running: boolean;
  /** Stop it (`SIGKILL` kills it mid-transaction; `SIGTERM` is a smart shutdown, which waits for clients, so tests use the default fast one). */
  stop(signal?: 'SIGINT' | 'SIGKILL'): Promise<void>;
  /** Start it again on the same port and data. */
  start(): Promise<void>;
  /** Stop it for good and remove its dir. */
  close(): Promise<void>;
}

/** The command line to run a PostgreSQL program as a user it accepts. */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function run(bin: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const [cmd, argv] = asPostgres(bin, args);
  const result = spawnSync(cmd, argv, { encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${bin} ${args[0] ?? ''} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** Resolves once the port takes a connection; throws when the server exited first or the time ran out. */
async function listens(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (code ${child.exitCode}) before it listened on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`postgres did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Start one: a new cluster with a password (scram) for the `postgres` user and the database `mindlink`.
 *
 * @example
 * const pg = await startPostgres();
 * // … DATABASE_URL: pg.url
 * await pg.close();
 */
export async function startPostgres(): Promise<TestPostgres> {
  if (!PG_BIN) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
  const bin = PG_BIN;
  const dir = mkdtempSync(join(tmpdir(), 'mindlink-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${process.pid}-${Date.now().toString(36)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  if (process.getuid?.() === 0) {
    const pgUser = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const pgGroup = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(dir, Number(pgUser), Number(pgGroup));
    chownSync(pwfile, Number(pgUser), Number(pgGroup));
  }
  chmodSync(dir, 0o700);
  const user = process.getuid?.() === 0 ? 'postgres' : userInfo().username;
  run(join(bin, 'initdb'), ['-D', data, '-U', user, '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync'], {});
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const [cmd, argv] = asPostgres(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200']);
    const c = spawn(cmd, argv, { cwd: dir, stdio: 'ignore' });
    child = c;
    await listens(port, c, 30_000);
  };
  const stop = async (signal: 'SIGINT' | 'SIGKILL' = 'SIGINT'): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = once(c, 'exit');
    if (process.getuid?.() === 0 && c.pid !== undefined) {
      // runuser's child is the postmaster: signal it by its pid file's first line
      const pidFile = join(data, 'postmaster.pid');
      const pid = existsSync(pidFile) ? Number(spawnSync('head', ['-1', pidFile], { encoding: 'utf8' }).stdout.trim()) : NaN;
      if (Number.isInteger(pid) && pid > 0) process.kill(pid, signal);
      else c.kill(signal);
    } else c.kill(signal);
    await exited;
  };
  await start();
  // the database the tests use, made over the socket dir
  const encoded = encodeURIComponent(password);
  for (;;) {
    const [cmd, argv] = asPostgres(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, 'mindlink']);
    const result = spawnSync(cmd, argv, { encoding: 'utf8', env: { ...process.env, PGPASSWORD: password } });
    if (result.status === 0) break;
    // right after it listens, the server may still be starting up
    if (!/starting up/.test(result.stderr)) throw new Error(`createdb failed: ${result.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `postgres://${user}:${encoded}@127.0.0.1:${port}/mindlink`,
    port,
    password,
    get running() {
      return child !== undefined && child.exitCode === null;
    },
    stop,
    start,
    async close() {
      await stop('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
