/**
 * A real NATS server for a test (Debian's `nats-server`; `.ci/run` installs
 * it): started in a temp dir on a free 127.0.0.1 port, waited for, stopped by
 * the test. It can be stopped and started again on the same port, to cut every
 * client's connection for a while.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where `nats-server` is, or undefined when it is not installed (the tests that need it skip). */
export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? (spawnSync('which', ['nats-server'], { encoding: 'utf8' }).stdout.trim() || undefined);

/** A running test NATS server. */
export interface TestNats {
  /** `nats://127.0.0.1:<port>` (no credentials in it). */
  url: string;
  port: number;
  /** Whether it runs now. */
  readonly running: boolean;
  /** Stop it (clients lose their connection and keep trying); `SIGKILL` kills it mid-message. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it for good and remove its dir. */
  close(): Promise<void>;
}

/** Resolves once something on the port says `INFO` (a NATS server's first words); tries again as long as it is refused. */
async function answers(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited (code ${child.exitCode}) before it listened on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('INFO'));
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Start one; `token` or `config` (a nats-server configuration file's text: users, permissions) set who may connect.
 *
 * @example
 * const nats = await startNats({ token: 'test-token-123' });
 * // … HOSTS: nats.url, NATS_TOKEN: 'test-token-123'
 * await nats.close();
 */
export async function startNats(opts: { token?: string; config?: string } = {}): Promise<TestNats> {
  if (!NATS_SERVER) throw new Error('nats-server is not installed: apt-get install -y nats-server');
  const bin = NATS_SERVER;
  const dir = mkdtempSync(join(tmpdir(), 'mindlink-nats-'));
  const port = await freePort();
  if (opts.config) writeFileSync(join(dir, 'nats.conf'), opts.config);
  let child: ChildProcess | undefined;
  const run = async (): Promise<void> => {
    const c = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-l', join(dir, 'nats.log'), ...(opts.token ? ['--auth', opts.token] : []), ...(opts.config ? ['-c', join(dir, 'nats.conf')] : [])], { cwd: dir, stdio: 'ignore' });
    child = c;
    await answers(port, c, 15_000);
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = once(c, 'exit');
    c.kill(signal);
    await exited;
  };
  await run();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined && child.exitCode === null;
    },
    stop,
    start: run,
    async close() {
      await stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
