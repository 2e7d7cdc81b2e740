/**
 * Two Minecraft servers of two versions, added from chat: two worlds started
 * here (flying-squid with mindlink's plugins, 1.20.4 and 1.21.4, on two ports),
 * the real core with the real game provider and scripted engine, the console
 * on in-memory streams.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { testLogger } from '../game/helpers.ts';
import { ask, lineAfter, startCore, type Running } from './helpers.ts';

describe('GIVEN two worlds of two Minecraft versions on two ports', () => {
  let dir = '';
  const worldDirs: string[] = [];
  let old: EmbeddedWorld;
  let current: EmbeddedWorld;
  let run: Running | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-servers-'));
    for (let i = 0; i < 2; i += 1) worldDirs.push(await mkdtemp(path.join(tmpdir(), 'mindlink-world-')));
    [old, current] = await Promise.all([
      EmbeddedWorld.start({ dataDir: worldDirs[0] as string, log: testLogger(), version: '1.20.4' }),
      EmbeddedWorld.start({ dataDir: worldDirs[1] as string, log: testLogger(), version: '1.21.4' }),
    ]);
    run = await startCore(dir);
  }, 120_000);

  afterAll(async () => {
    await run?.core.stop();
    await Promise.all([old?.stop(), current?.stop()]);
    await rm(dir, { recursive: true, force: true });
    for (const d of worldDirs) await rm(d, { recursive: true, force: true });
  }, 60_000);

  it("GIVEN /server add for each THEN each one's version is found by the ping", async () => {
    const { io } = run as Running;
    expect(await ask(io, `/server add alpha 127.0.0.1:${old.port}`, /^\[mindlink\] (Added|Could not)/)).toBe(
      `[mindlink] Added alpha (127.0.0.1:${old.port}): Minecraft 1.20.4, 0/100 online, offline mode. /avatar create <name> server:alpha puts an avatar there.`,
    );
    expect(await ask(io, `/server add Beta 127.0.0.1:${current.port}`, /^\[mindlink\] (Added|Could not)/)).toBe(
      `[mindlink] Added beta (127.0.0.1:${current.port}): Minecraft 1.21.4, 0/100 online, offline mode. /avatar create <name> server:beta puts an avatar there.`,
    );
  }, 60_000);

  it('GIVEN an avatar on each THEN both play their goals at once, each on its own server', async () => {
    const { io } = run as Running;
    await ask(io, '/avatar create ann server:alpha', /^\[ann\] Created ann on alpha \(scripted engine\)/);
    await ask(io, '/avatar create ben server:beta', /^\[ben\] Created ben on beta \(scripted engine\)/);
    const from = io.lines.length;
    io.send('ann: Goal: collect 2 oak logs');
    io.send('ben: Goal: collect 2 oak logs');
    io.send('/play ann');
    io.send('/play ben');
    await Promise.all([lineAfter(io, from, /^\[ann\] Done: collect 2 oak logs$/, 240_000), lineAfter(io, from, /^\[ben\] Done: collect 2 oak logs$/, 240_000)]);
    expect(await old.players()).toContain('ann');
    expect(await current.players()).toContain('ben');
    expect(await old.players()).not.toContain('ben');
  }, 300_000);

  it('GIVEN both in use THEN /servers lists both, and /server remove refuses, naming the avatar on it', async () => {
    const { io } = run as Running;
    const from = io.lines.length;
    io.send('/servers');
    await lineAfter(io, from, /^\[mindlink\] beta /);
    expect(io.lines.slice(from).filter((l) => l.startsWith('[mindlink] '))).toEqual([
      `[mindlink] alpha (default) · 127.0.0.1:${old.port} · Minecraft 1.20.4 · auth offline, offline mode · 1 avatar (1 playing, 0 stopped): ann`,
      `[mindlink] beta · 127.0.0.1:${current.port} · Minecraft 1.21.4 · auth offline, offline mode · 1 avatar (1 playing, 0 stopped): ben`,
    ]);
    expect(await ask(io, '/server remove alpha', /^\[mindlink\] /)).toBe(
      '[mindlink] alpha still has an avatar: ann (playing). Move it first (/avatar move <name> <server>, once stopped); nothing was removed.',
    );
    expect(await ask(io, '/avatar move ann beta', /^\[ann\] /)).toBe('[ann] ann is playing: /stop ann first, then move it.');
  }, 60_000);

  it('GIVEN a restart THEN the servers, the avatars on them and their play are all kept', async () => {
    await (run as Running).core.stop();
    run = undefined;
    run = await startCore(dir);
    const { io, core } = run;
    const deadline = Date.now() + 120_000;
    while (['ann', 'ben'].some((a) => !['choosing', 'working', 'wrapup'].includes(core.avatars.displayState(a)))) {
      if (Date.now() > deadline) throw new Error(`not back in the game: ann ${core.avatars.displayState('ann')}, ben ${core.avatars.displayState('ben')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await old.players()).toContain('ann');
    expect(await current.players()).toContain('ben');
    const from = io.lines.length;
    io.send('/servers');
    await lineAfter(io, from, /^\[mindlink\] beta /);
    expect(io.lines.slice(from).filter((l) => l.startsWith('[mindlink] ')).map((l) => l.split(' · ').slice(0, 3).join(' · '))).toEqual([
      `[mindlink] alpha (default) · 127.0.0.1:${old.port} · Minecraft 1.20.4`,
      `[mindlink] beta · 127.0.0.1:${current.port} · Minecraft 1.21.4`,
    ]);
  }, 180_000);

  it('GIVEN ann stopped and moved to beta THEN alpha has no avatar and can be removed; ann plays on beta, where it sees none of the places it remembered on alpha', async () => {
    const { io, core } = run as Running;
    // ann is playing: its own lines (a new goal, Done) may come before a reply, so each reply is waited for by its words.
    expect(await ask(io, '/place set base ann', /^\[ann\] Remembered base /)).toMatch(/^\[ann\] Remembered base at -?\d+ -?\d+ -?\d+: /);
    await ask(io, '/stop ann', /^\[ann\] (Stopped|Already stopped)/);
    expect(await ask(io, '/avatar move ann beta', /^\[ann\] (Moved|ann )/)).toBe(`[ann] Moved ann to beta (127.0.0.1:${current.port}). /play ann joins it.`);
    expect(await ask(io, '/places ann', /^\[ann\] ann remembers/)).toBe('[ann] ann remembers no places on beta yet: /place set <name> remembers where it stands.');
    expect(await ask(io, '/server remove alpha', /^\[mindlink\] /)).toBe(`[mindlink] Removed alpha (127.0.0.1:${old.port}).`);
    expect(core.store.state.data.places.filter((p) => p.server === 'alpha')).toEqual([]);
    const from = io.lines.length;
    io.send('/play ann');
    await lineAfter(io, from, /^\[ann\] (New goal|Playing|Resuming)/);
    const deadline = Date.now() + 60_000;
    while (!(await current.players()).includes('ann')) {
      if (Date.now() > deadline) throw new Error('ann did not join beta');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);
});
