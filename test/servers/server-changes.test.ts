/**
 * A server that changed under its avatars, said in one line with the command
 * that fixes it: restarted in online mode (`/server test`, `/servers`),
 * restarted on another version (the avatar stops before it joins), or given a
 * version at `/server add` that it does not speak (refused, unless it takes
 * several, as with ViaVersion). Servers are minecraft-protocol's own and a
 * flying-squid world, started and closed here; the real core and game provider.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { startProtocolServer, type ProtocolServer } from '../fakes/protocol-server.ts';
import { testLogger } from '../game/helpers.ts';
import { ask, lineAfter, startCore, type Running } from './helpers.ts';

/** Resolves once `check` holds (asked every 200 ms); throws with `what` after `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('GIVEN servers that change', () => {
  let dir = '';
  let run: Running;
  const servers: ProtocolServer[] = [];
  const worlds: EmbeddedWorld[] = [];
  const worldDirs: string[] = [];
  const serve = async (opts: Parameters<typeof startProtocolServer>[0]): Promise<ProtocolServer> => {
    const s = await startProtocolServer(opts);
    servers.push(s);
    return s;
  };
  const world = async (version: string, port?: number): Promise<EmbeddedWorld> => {
    const d = await mkdtemp(path.join(tmpdir(), 'mindlink-changes-world-'));
    worldDirs.push(d);
    const w = await EmbeddedWorld.start({ dataDir: d, log: testLogger(), version, ...(port ? { port } : {}) });
    worlds.push(w);
    return w;
  };
  const stored = async (): Promise<string[]> => {
    await run.core.store.flush();
    return (JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')) as { servers: { id: string }[] }).servers.map((s) => s.id);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-changes-'));
    run = await startCore(dir);
  }, 60_000);

  afterAll(async () => {
    await run?.core.stop();
    for (const s of servers) await s.close();
    for (const w of worlds) await w.stop();
    await rm(dir, { recursive: true, force: true });
    for (const d of worldDirs) await rm(d, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN a server added in offline mode WHEN it restarts in online mode THEN /server test and /servers say its avatars cannot join and how to fix it', async () => {
    const before = await serve({ version: '1.21.4' });
    await ask(run.io, `/server add flip 127.0.0.1:${before.port}`, /^\[mindlink\] Added flip .*offline mode/);
    await before.close();
    await serve({ version: '1.21.4', port: before.port, onlineMode: true });
    const fix = `/server add flip 127.0.0.1:${before.port} auth:microsoft (its avatars stopped) makes them sign in with Microsoft.`;
    expect(await ask(run.io, '/server test flip', /^\[mindlink\] /)).toBe(
      `[mindlink] flip (127.0.0.1:${before.port}) answers: Minecraft 1.21.4, 0/20 online, online mode. flip is in online mode now (it was in offline mode): it lets in only players signed in with Microsoft, and its avatars join offline (auth offline), so they cannot get in. ${fix}`,
    );
    const from = run.io.lines.length;
    run.io.send('/servers');
    expect(await lineAfter(run.io, from, /^\[mindlink\] flip /)).toBe(
      `[mindlink] flip (default) · 127.0.0.1:${before.port} · Minecraft 1.21.4 · auth offline, online mode · no avatars · flip is in online mode: it lets in only players signed in with Microsoft, and its avatars join offline (auth offline), so they cannot get in. ${fix}`,
    );
    // The fix it names is taken.
    expect(await ask(run.io, `/server add flip 127.0.0.1:${before.port} auth:microsoft`, /^\[mindlink\] /)).toMatch(/^\[mindlink\] Updated flip .*online mode\. Avatars there sign in with Microsoft/);
  });

  it('GIVEN a server of 1.21.1 WHEN it is added with version 1.20.4 THEN it is refused, saying the version it runs and the command, and nothing is stored', async () => {
    const server = await serve({ version: '1.21.1' });
    const before = await stored();
    expect(await ask(run.io, `/server add probe 127.0.0.1:${server.port} 1.20.4`, /^\[mindlink\] /)).toBe(
      `[mindlink] Could not use probe (127.0.0.1:${server.port}): it runs Minecraft 1.21.1, not 1.20.4, and answers a 1.20.4 client as 1.21.1 too (a server that takes several versions answers as the client's). /server add probe 127.0.0.1:${server.port} adds it with the version it runs. Nothing was stored.`,
    );
    expect(await stored()).toEqual(before);
    // A version of the same protocol is the same version to the server.
    expect(await ask(run.io, `/server add probe 127.0.0.1:${server.port} 1.21`, /^\[mindlink\] /)).toMatch(/^\[mindlink\] Added probe .*Minecraft 1\.21\.1, 0\/20 online, offline mode\./);
  });

  it('GIVEN a server that takes several versions (ViaVersion) added with 1.20.4 WHEN it later runs 1.21.4 only THEN the avatar stops before joining, naming /server add with the version it runs', async () => {
    const via = await serve({ multiVersion: true });
    expect(await ask(run.io, `/server add via 127.0.0.1:${via.port} 1.20.4`, /^\[mindlink\] /)).toMatch(
      new RegExp(`^\\[mindlink\\] Added via \\(127\\.0\\.0\\.1:${via.port}\\): .* Avatars speak 1\\.20\\.4 there, as asked `),
    );
    await ask(run.io, '/avatar create vic server:via', /^\[vic\] Created vic on via /);
    await via.close();
    let joined = 0;
    await serve({ version: '1.21.4', port: via.port, onJoin: () => (joined += 1) });
    const from = run.io.lines.length;
    run.io.send('/play vic');
    expect(await lineAfter(run.io, from, /^\[vic\] Stopped: /, 60_000)).toBe(
      `[vic] Stopped: via now runs Minecraft 1.21.4, not the 1.20.4 vic speaks there: /server add via 127.0.0.1:${via.port} 1.21.4 (its avatars stopped) makes them speak it, then /play vic.`,
    );
    expect(joined).toBe(0);
  });

  it('GIVEN an avatar playing on a 1.21.4 world WHEN the world restarts on 1.20.4 THEN the avatar stops with one line naming the new version and /server test, which stores it, and /play joins again', async () => {
    const first = await world('1.21.4');
    const port = first.port;
    await ask(run.io, `/server add moving 127.0.0.1:${port}`, /^\[mindlink\] Added moving .*Minecraft 1\.21\.4/);
    await ask(run.io, '/avatar create rover server:moving', /^\[rover\] Created rover on moving /);
    run.io.send('/play rover');
    await until(async () => (await first.players()).includes('rover'), 'rover did not join the 1.21.4 world');
    const from = run.io.lines.length;
    await first.stop();
    const second = await world('1.20.4', port);
    expect(await lineAfter(run.io, from, /^\[rover\] Stopped: /, 120_000)).toBe(
      '[rover] Stopped: moving now runs Minecraft 1.20.4, not the 1.21.4 rover speaks there: /server test moving stores the version it runs, then /play rover.',
    );
    expect(await ask(run.io, '/status rover', /^\[rover\] /)).toMatch(/^\[rover\] stopped \(moving now runs Minecraft 1\.20\.4, not 1\.21\.4\) · on moving · /);
    expect(await ask(run.io, '/server test moving', /^\[mindlink\] /)).toBe(
      `[mindlink] moving (127.0.0.1:${port}) answers: Minecraft 1.20.4, 0/100 online, offline mode. It runs 1.20.4 now (it was 1.21.4): avatars speak it from their next /play.`,
    );
    run.io.send('/play rover');
    await until(async () => (await second.players()).includes('rover'), 'rover did not join the 1.20.4 world');
    await run.core.avatars.stop('rover');
  }, 240_000);
});
