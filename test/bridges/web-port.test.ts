/**
 * Where the dashboard listens: its configuration keys, a port that is taken, and what start-up says
 * when WEB_PORT names a port another program holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_PORT, WebBridge, WebPortInUseError } from '../../bridges/web/web-bridge.ts';
import { parseConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/logger.ts';
import { processesOn, startMindlink, type MindlinkProcess } from '../e2e/process.ts';
import { startConsoleCore, type ConsoleCore } from '../core/console-harness.ts';

async function hold(port: number): Promise<Server | null> {
  const srv = createServer();
  return new Promise((resolve) => {
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

describe('where the dashboard listens', () => {
  let dir = '';
  let con: ConsoleCore | undefined;
  let held: Server | null = null;
  let m: MindlinkProcess | undefined;

  afterEach(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    m = undefined;
    await con?.core.stop();
    con = undefined;
    await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
    held = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN no settings THEN the dashboard is on, on 127.0.0.1; GIVEN bad values THEN the key is named', () => {
    const config = parseConfig({});
    expect([config.WEB, config.WEB_HOST, config.WEB_PORT]).toEqual([true, '127.0.0.1', undefined]);
    expect(parseConfig({ WEB: 'off' }).WEB).toBe(false);
    expect(() => parseConfig({ WEB_PORT: '70000' })).toThrow(/^config: WEB_PORT="70000" /);
    expect(() => parseConfig({ WEB: 'maybe' })).toThrow(/^config: WEB="maybe" /);
  });

  it('GIVEN the default port taken THEN the dashboard takes a free one; GIVEN WEB_PORT taken THEN it refuses to start, naming WEB_PORT', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-port-'));
    con = await startConsoleCore(dir);
    // Held here, or by some other program already: either way the default is taken.
    held = await hold(DEFAULT_WEB_PORT);
    const web = new WebBridge({ access: con.core.web, dashboard: con.core.dashboard, log: silentLogger(), host: '127.0.0.1', port: undefined });
    await con.core.addBridge(web);
    expect(web.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(web.origin).not.toBe(`http://127.0.0.1:${DEFAULT_WEB_PORT}`);
    con.send('/web');
    await con.line(new RegExp(`^\\[mindlink\\] Your dashboard: ${web.origin.replace(/\./g, '\\.')}/login#`));
    const taken = Number(new URL(web.origin).port);
    const second = new WebBridge({ access: con.core.web, dashboard: con.core.dashboard, log: silentLogger(), host: '127.0.0.1', port: taken });
    await expect(second.start(con.core.router)).rejects.toThrow(WebPortInUseError);
  }, 60_000);

  it('GIVEN WEB_PORT held by another program THEN start-up stops with one line naming WEB_PORT, and nothing it started is left running', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-busy-'));
    held = await hold(0);
    const port = (held?.address() as { port: number }).port;
    m = startMindlink({ DATA_DIR: dir, WEB_PORT: String(port), LOG_LEVEL: 'silent' });
    expect(await m.exited).toBe(1);
    expect(m.stderr.filter((l) => l.trim())).toEqual([`config: WEB_PORT=${port} is in use by another program: set WEB_PORT to a free port (0 picks one), or WEB=off`]);
    expect(processesOn(dir)).toEqual([]);
  }, 120_000);
});
