/**
 * A command that waits on the network (`/server add` pinging a server that
 * never answers) does not hold the console: the lines typed after it are
 * handled at once and in their order, and its reply comes when it is done; a
 * line that uses the server being added waits for it.
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startProtocolServer, type ProtocolServer } from '../fakes/protocol-server.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { coresPerTest, type ConsoleCore } from './console-harness.ts';

/** A listener that takes connections and never says a word, until released (its connections then drop). */
async function silentListener(): Promise<{ port: number; release(): Promise<void> }> {
  const sockets: Socket[] = [];
  const srv = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    port: (srv.address() as { port: number }).port,
    release: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}

/** Explores when asked to choose; answers a question with one fixed line. */
const engines = (): TestEngine => new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : req.kind === 'question' ? 'I am at the spawn.' : 'STATUS: working'));

const start = coresPerTest('slow-command', engines);
const listeners: { release(): Promise<void> }[] = [];
const servers: ProtocolServer[] = [];

afterEach(async () => {
  for (const l of listeners.splice(0)) await l.release();
  for (const s of servers.splice(0)) await s.close();
});

/** Where a line is in the console's output (-1: not there). */
const at = (r: ConsoleCore, re: RegExp): number => r.lines.findIndex((l) => re.test(l));

describe('GIVEN /server add of a server that never answers', () => {
  it('GIVEN a question typed right after it THEN the question is answered while the add still waits, and the add answers when it gives up', async () => {
    const r = await start();
    const silent = await silentListener();
    listeners.push(silent);
    r.send(`/server add silent 127.0.0.1:${silent.port}`);
    r.send('where are you?');
    await r.line(/^\[demo\] I am at the spawn\.$/);
    expect(at(r, /^\[mindlink\] .*silent/)).toBe(-1);
    await silent.release();
    const reply = await r.line(/^\[mindlink\] .*silent/);
    expect(reply).toMatch(new RegExp(`^\\[mindlink\\] Could not use silent \\(127\\.0\\.0\\.1:${silent.port}\\): .*Nothing was stored\\.$`));
    expect(at(r, /^\[demo\] I am at the spawn\.$/)).toBeLessThan(at(r, /^\[mindlink\] Could not use silent/));
  });

  it('GIVEN a goal, a stop and /status typed right after it THEN they are applied at once and in their order', async () => {
    const r = await start();
    const silent = await silentListener();
    listeners.push(silent);
    r.send(`/server add silent 127.0.0.1:${silent.port}`);
    r.send('Goal: collect 3 oak logs');
    r.send('stop');
    r.send('/status');
    await r.line(/^\[demo\] stopped · goal: collect 3 oak logs \(set by console\)$/);
    const goal = at(r, /^\[demo\] New goal from console: collect 3 oak logs\.$/);
    const stopped = at(r, /^\[demo\] Stopped\. My goal is kept/);
    expect(goal).toBeGreaterThanOrEqual(0);
    expect(stopped).toBeGreaterThan(goal);
    expect(at(r, /^\[mindlink\] .*silent/)).toBe(-1);
    await silent.release();
    await r.line(/^\[mindlink\] Could not use silent /);
    expect(r.core.avatars.isPlaying('demo')).toBe(false);
  });
});

describe('GIVEN /server add of a server that answers', () => {
  it('GIVEN /avatar create on that server typed right after it THEN the create waits for the add and puts the avatar there', async () => {
    const r = await start();
    const quick = await startProtocolServer({ version: '1.21.4' });
    servers.push(quick);
    r.send(`/server add quick 127.0.0.1:${quick.port}`);
    r.send('/avatar create bob server:quick');
    await r.line(/^\[bob\] Created bob on quick /);
    expect(at(r, /^\[mindlink\] Added quick /)).toBeGreaterThanOrEqual(0);
    expect(at(r, /^\[mindlink\] Added quick /)).toBeLessThan(at(r, /^\[bob\] Created bob on quick /));
    expect(r.core.avatars.get('bob')?.server).toBe('quick');
  });
});
