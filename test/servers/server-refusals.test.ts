/**
 * What a real server can refuse, said in words: `/server add` stores nothing
 * for a version avatars cannot play, a host that refuses connections, a
 * server asleep or in online mode with auth:offline; an avatar refused by a
 * whitelist, a ban or a failed verification stops with one line and a
 * `/status` reason. The servers are minecraft-protocol's own (what
 * flying-squid is built on), started and closed here.
 */
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProtocolServer, type ProtocolServer } from '../fakes/protocol-server.ts';
import { ask, lineAfter, startCore, type Running } from './helpers.ts';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('GIVEN servers that refuse', () => {
  let dir = '';
  let run: Running;
  const servers: ProtocolServer[] = [];
  const serve = async (opts: Parameters<typeof startProtocolServer>[0]): Promise<ProtocolServer> => {
    const s = await startProtocolServer(opts);
    servers.push(s);
    return s;
  };
  const stored = async (): Promise<string[]> => {
    await run.core.store.flush();
    return (JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')) as { servers: { id: string }[] }).servers.map((s) => s.id);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-refusals-'));
    run = await startCore(dir);
  }, 60_000);

  afterAll(async () => {
    await run?.core.stop();
    for (const s of servers) await s.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN a server that speaks Minecraft 1.7.10 THEN /server add refuses in words and stores nothing', async () => {
    const old = await serve({ version: '1.7' });
    expect(await ask(run.io, `/server add old 127.0.0.1:${old.port}`, /^\[mindlink\] /)).toBe(
      `[mindlink] Could not use old (127.0.0.1:${old.port}): it runs 1.7.10, and Minecraft 1.7.10 is older than avatars can play (1.8.8 to 26.1). Nothing was stored.`,
    );
    expect(await ask(run.io, '/server add old 127.0.0.1:25565 1.6.4', /^\[mindlink\] /)).toBe(
      '[mindlink] mindlink knows no Minecraft version "1.6.4" (avatars play 1.8.8 to 26.1). Nothing was stored.',
    );
    expect(await stored()).toEqual([]);
  });

  it('GIVEN a host that refuses connections THEN /server add says so and stores nothing', async () => {
    const port = await closedPort();
    expect(await ask(run.io, `/server add gone 127.0.0.1:${port}`, /^\[mindlink\] /)).toBe(
      `[mindlink] Could not use gone (127.0.0.1:${port}): 127.0.0.1:${port} refuses connections (ECONNREFUSED): no Minecraft server listens there, or a firewall says no. Nothing was stored.`,
    );
    expect(await ask(run.io, '/server add bad exa mple.net', /^\[mindlink\] /)).toBe('[mindlink] mindlink knows no Minecraft version "mple.net" (avatars play 1.8.8 to 26.1). Nothing was stored.');
    expect(await ask(run.io, '/server add bad exa_mple.net:99999', /^\[mindlink\] /)).toBe(
      '[mindlink] "exa_mple.net:99999" is not a server address: give a host name or IP address, and a port after ":" if it is not 25565 (play.example.net, 192.168.1.20:25566).',
    );
    expect(await stored()).toEqual([]);
  });

  it('GIVEN a hosted server that is asleep THEN /server add says how to wake it and stores nothing', async () => {
    const asleep = await serve({ advertise: { name: '§4● Sleeping', protocol: -1, motd: 'This server is sleeping. Start it at the panel.' } });
    expect(await ask(run.io, `/server add nap 127.0.0.1:${asleep.port}`, /^\[mindlink\] /)).toBe(
      `[mindlink] Could not use nap (127.0.0.1:${asleep.port}): the server is asleep (it says "● Sleeping"): hosted servers that start on demand answer like this until someone starts them from the host's panel. Start it there, then try again. Nothing was stored.`,
    );
    expect(await stored()).toEqual([]);
  });

  it('GIVEN a server in online mode THEN auth:offline is refused, and without auth it is added for Microsoft sign-in', async () => {
    const online = await serve({ onlineMode: true });
    expect(await ask(run.io, `/server add paper 127.0.0.1:${online.port} auth:offline`, /^\[mindlink\] /)).toBe(
      `[mindlink] paper (127.0.0.1:${online.port}) is in online mode: it lets in only players signed in with Microsoft, so auth:offline cannot join it. Add it with auth:microsoft (each avatar's owner then signs in once, with a code mindlink sends them) or leave auth out. Nothing was stored.`,
    );
    expect(await stored()).toEqual([]);
    expect(await ask(run.io, `/server add paper 127.0.0.1:${online.port}`, /^\[mindlink\] /)).toBe(
      `[mindlink] Added paper (127.0.0.1:${online.port}): Minecraft 1.21.4, 0/20 online, online mode. Avatars there sign in with Microsoft: at an avatar's first /play there, its owner gets a code by DM. /avatar create <name> server:paper puts an avatar there.`,
    );
    expect(await stored()).toEqual(['paper']);
  });

  it.each([
    ['wl', 'amy', 'You are not white-listed on this server!', "wl's whitelist does not include amy: ask the server's admin to run /whitelist add amy, then /play amy.", "wl's whitelist does not include amy"],
    ['banned', 'bea', 'You are banned from this server.', 'bea is banned from banned (the server says: "You are banned from this server."). Only the server\'s admins can lift a ban.', 'bea is banned from banned'],
    [
      'verify',
      'cal',
      'Failed to verify username!',
      'verify is in online mode: it lets in only players signed in with Microsoft (the server says: "Failed to verify username!"). Add it again with auth:microsoft (/server add verify 127.0.0.1:<port> auth:microsoft, its avatars stopped) and each owner signs in once with a code mindlink sends them.',
      'verify is in online mode and cal does not sign in with Microsoft',
    ],
  ])('GIVEN a server %s that kicks %s with "%s" THEN the avatar stops with one line saying what to do, and /status says why', async (name, avatar, kick, line, status) => {
    const server = await serve({ kick });
    const added = await ask(run.io, `/server add ${name} 127.0.0.1:${server.port}`, /^\[mindlink\] /);
    expect(added).toContain(`It refused a test login as mindlink_check ("${kick}")`);
    await ask(run.io, `/avatar create ${avatar} server:${name}`, new RegExp(`^\\[${avatar}\\] Created`));
    const from = run.io.lines.length;
    run.io.send(`/play ${avatar}`);
    expect(await lineAfter(run.io, from, new RegExp(`^\\[${avatar}\\] Stopped: `), 60_000)).toBe(`[${avatar}] Stopped: ${line.replace('<port>', String(server.port))}`);
    expect(await ask(run.io, `/status ${avatar}`, new RegExp(`^\\[${avatar}\\] stopped`))).toBe(`[${avatar}] stopped (${status}) · on ${name} · no goal`);
  });

  it('GIVEN a server that moved to another version THEN its avatar stops saying so before it joins, /server test finds the new version, and /play joins with it', async () => {
    const before = await serve({ version: '1.20.4' });
    await ask(run.io, `/server add moved 127.0.0.1:${before.port}`, /^\[mindlink\] Added moved .*Minecraft 1\.20\.4/);
    await ask(run.io, '/avatar create eve server:moved', /^\[eve\] Created/);
    await before.close();
    let joined = 0;
    const after = await serve({ version: '1.21.4', port: before.port, onJoin: () => (joined += 1) });
    const from = run.io.lines.length;
    run.io.send('/play eve');
    expect(await lineAfter(run.io, from, /^\[eve\] Stopped: /, 60_000)).toBe(
      '[eve] Stopped: moved now runs Minecraft 1.21.4, not the 1.20.4 eve speaks there: /server test moved stores the version it runs, then /play eve.',
    );
    expect(await ask(run.io, '/server test moved', /^\[mindlink\] /)).toBe(
      `[mindlink] moved (127.0.0.1:${after.port}) answers: Minecraft 1.21.4, 0/20 online, offline mode. It runs 1.21.4 now (it was 1.20.4): avatars speak it from their next /play.`,
    );
    run.io.send('/play eve');
    const deadline = Date.now() + 60_000;
    while (joined === 0) {
      if (Date.now() > deadline) throw new Error('eve did not join the server on its new version');
      await new Promise((r) => setTimeout(r, 100));
    }
    await run.core.avatars.stop('eve');
  });
});
