/**
 * `/status` names the avatar's server where mindlink has several (the
 * dashboard shows it too), and says nothing of it where there is one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const cores: Mindlink[] = [];

afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<ConsoleCore> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-status-server-'));
  dirs.push(dir);
  const r = await startConsoleCore(dir, { env });
  cores.push(r.core);
  await r.line(/^\[demo\] New goal \(my choice\): explore$/);
  return r;
}

/** The reply to `/status <avatar>` (its first line starts with the state; asked once per avatar). */
function status(r: ConsoleCore, avatar: string): Promise<string> {
  r.send(`/status ${avatar}`);
  return r.line(new RegExp(`^\\[${avatar}\\] (stopped|choosing|working|wrapup|waiting)\\b`));
}

describe('GIVEN /status', () => {
  it('GIVEN two servers (the embedded world and MC_HOST\'s) THEN each avatar\'s status names the server it is on', async () => {
    const r = await start({ MC_HOST: '127.0.0.1', MC_PORT: '25999' });
    r.send('/avatar create rover server:embedded');
    await r.line(/^\[rover\] Created rover on embedded /);
    expect(await status(r, 'rover')).toBe('[rover] stopped · on embedded · no goal');
    expect(await status(r, 'demo')).toBe('[demo] working · on default · goal: explore (chosen by me)');
  });

  it('GIVEN one server THEN the status does not name it', async () => {
    const r = await start();
    expect(await status(r, 'demo')).toBe('[demo] working · goal: explore (chosen by me)');
  });
});
