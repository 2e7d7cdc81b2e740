/**
 * Avatars named like the members every JavaScript object has (`constructor`, `__proto__`, …): names are data,
 * in every map keyed by them (time played, usage, baselines), through a restart.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const NAMES = ['constructor', '__proto__', 'hasOwnProperty', 'toString'];

const dirs: string[] = [];
const cores: Mindlink[] = [];

afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function start(dir: string): Promise<ConsoleCore> {
  const r = await startConsoleCore(dir);
  cores.push(r.core);
  return r;
}

/** Wait until `cond` holds; a failure says what did not come. */
async function until(cond: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('avatars named after Object members', () => {
  it('GIVEN avatars constructor, __proto__, hasOwnProperty and toString played for a minute WHEN mindlink restarts THEN it starts, each has its own minutes, and each answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-names-'));
    dirs.push(dir);
    const first = await start(dir);
    for (const name of NAMES) {
      first.send(`/avatar create ${name}`);
      await first.line(new RegExp(`^\\[${name}\\] Created ${name} on embedded`));
      first.send(`/play ${name}`);
      await first.line(new RegExp(`^\\[${name}\\] Playing\\.`));
      first.send(`${name}: Goal: collect 3 oak logs`);
      await first.line(new RegExp(`^\\[${name}\\] New goal from console: collect 3 oak logs\\.`));
    }
    // Time played is counted once a minute for every avatar in the game.
    const played = (): Readonly<Record<string, number>> => first.core.store.schedules.data.played;
    await until(() => NAMES.every((n) => Object.hasOwn(played(), n)), 'minute counted for every avatar', 150_000);
    for (const n of NAMES) expect(played()[n], `minutes of ${n}`).toBeTypeOf('number');
    await first.core.stop();
    cores.splice(cores.indexOf(first.core), 1);

    const onDisk = JSON.parse(await readFile(join(dir, 'schedules.json'), 'utf8')) as { played: Record<string, unknown> };
    for (const n of NAMES) expect(Object.hasOwn(onDisk.played, n) && typeof onDisk.played[n], `played.${n} on disk`).toBe('number');

    const second = await start(dir);
    for (const name of NAMES) {
      expect(second.core.avatars.get(name)?.goal?.text).toBe('collect 3 oak logs');
      second.send(`/status ${name}`);
      await second.line(new RegExp(`^\\[${name}\\] (working|choosing|wrapup) · goal: collect 3 oak logs \\(set by console\\)$`));
      second.send(`${name}: stay near the spawn`);
      await second.line(new RegExp(`^\\[${name}\\] Noted as direction #1\\.$`));
    }
    second.send('/avatars');
    await second.line(/^\[mindlink\] toString: /);
    expect(Object.keys(second.core.store.schedules.data.played).sort()).toEqual([...NAMES, 'demo'].sort());
  }, 240_000);
});
