/**
 * `/avatar remove` and `/avatar rename`: the owner's way out of a bad name.
 * Real core over the console bridge, real store and folders in DATA_DIR.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-remove-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<ConsoleCore> {
  const r = await startConsoleCore(dir);
  running.push(r.core);
  return r;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('/avatar remove', () => {
  it('GIVEN bob with a goal, a direction and a schedule THEN /avatar remove asks for the name again, then stops it, unlinks it and keeps its files in removed/', async () => {
    const dir = await tempDir();
    const r = await start(dir);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.send('/avatar create bob');
    await r.line(/^\[bob\] Created bob on embedded/);
    r.send('/play bob');
    await r.line(/^\[bob\] Playing\./);
    r.send('bob: stay near the river');
    await r.line(/^\[bob\] Noted as direction #1\.$/);
    r.send('/schedule every day at 8:00 collect 5 dirt bob');
    await r.line(/^\[bob\] Schedule #1: /);

    r.send('/avatar remove bob');
    await r.line(
      /^\[bob\] Removing bob stops it, unlinks it from every chat and deletes its schedules; its files are kept for a week\. To go ahead, repeat its name: \/avatar remove bob bob$/,
    );
    r.send('/avatar remove bob bobby');
    await r.line(/^\[bob\] "bobby" is not bob: nothing was removed\. Removing bob stops it/);
    expect(r.core.avatars.get('bob')).toBeDefined();

    r.send('/avatar remove bob bob');
    const done = await r.line(/^\[mindlink\] Removed bob: /);
    expect(done).toMatch(/^\[mindlink\] Removed bob: stopped, unlinked from 1 chat, 1 schedule deleted\. Its files are kept for a week in removed\/bob-[\dT-]+Z\.$/);
    expect(r.core.avatars.get('bob')).toBeUndefined();
    expect(r.core.store.state.data.links.filter((l) => l.avatar === 'bob')).toEqual([]);
    expect(r.core.store.schedules.data.schedules).toEqual([]);
    expect(r.games.get('bob')?.state).toBe('idle');
    expect(await exists(join(dir, 'avatars', 'bob'))).toBe(false);
    const [kept] = await readdir(join(dir, 'removed'));
    const saved = JSON.parse(await readFile(join(dir, 'removed', kept ?? '', 'removed-avatar.json'), 'utf8')) as { avatar: { name: string; directions: { open: { text: string }[] } } };
    expect(saved.avatar.name).toBe('bob');
    expect(saved.avatar.directions.open.map((d) => d.text)).toEqual(['stay near the river']);
    expect(await readFile(join(dir, 'removed', kept ?? '', 'TASK.md'), 'utf8')).toMatch(/stay near the river/);

    // The name is free again, and the new bob starts from nothing.
    r.send('/avatar create bob');
    await r.line(/^\[bob\] Created bob on embedded/);
    r.send('/direction bob');
    await r.line(/^\[bob\] No open direction\. /);
    expect(await readFile(join(dir, 'avatars', 'bob', 'TASK.md'), 'utf8')).not.toMatch(/stay near the river/);
  });

  it('GIVEN removed avatars kept eight days and one day THEN the next start deletes the older one only', async () => {
    const dir = await tempDir();
    const day = 24 * 60 * 60 * 1000;
    for (const [name, ago] of [['old-1', 8 * day], ['new-1', day]] as const) {
      await mkdir(join(dir, 'removed', name), { recursive: true });
      await writeFile(join(dir, 'removed', name, 'removed-avatar.json'), JSON.stringify({ removedAt: new Date(Date.now() - ago).toISOString() }));
    }
    await start(dir);
    expect(await readdir(join(dir, 'removed'))).toEqual(['new-1']);
  });
});

describe('/avatar rename', () => {
  it('GIVEN demo with a goal and a direction THEN it is renamed only once stopped, to a free name Minecraft accepts, and everything follows it', async () => {
    const dir = await tempDir();
    const r = await start(dir);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.send('stay near the river');
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    r.send('/avatar rename demo steve');
    await r.line(/^\[demo\] Stop demo first \(\/stop demo\): only a stopped avatar can be renamed\.$/);
    r.send('/stop');
    await r.line(/^\[demo\] Stopped\./);
    r.send('/avatar create bob');
    await r.line(/^\[bob\] Created bob/);
    r.send('/avatar rename demo bob');
    await r.line(/^\[mindlink\] There is already an avatar called bob\.$/);
    r.send('/avatar rename demo no');
    await r.line(/^\[mindlink\] An avatar name is 3–16 letters, digits or _/);
    r.send('/avatar rename demo steve');
    await r.line(/^\[steve\] Renamed demo to steve\. Its goal, direction, links, schedules and notes came along; in the game it is a new player\. \/play steve starts it\.$/);

    expect(r.core.avatars.get('demo')).toBeUndefined();
    const steve = r.core.avatars.get('steve');
    expect(steve?.goal?.text).toBe('explore');
    expect(steve?.directions.open.map((d) => d.text)).toEqual(['stay near the river']);
    expect(r.core.store.state.data.links.map((l) => l.avatar).sort()).toEqual(['bob', 'steve']);
    expect(await exists(join(dir, 'avatars', 'demo'))).toBe(false);
    expect(await readFile(join(dir, 'avatars', 'steve', 'TASK.md'), 'utf8')).toMatch(/stay near the river/);
    r.send('/play steve');
    await r.line(/^\[steve\] Playing\. Resuming my goal: explore$/);
    expect(r.games.get('steve')?.state).toBe('connected');
    r.send('/status steve');
    await r.line(/^\[steve\] (working|choosing|wrapup) · goal: explore/);
  });

  it('GIVEN /avatar alone or an unknown action THEN the reply gives the four usages', async () => {
    const r = await start(await tempDir());
    r.send('/avatar');
    await r.line(/^\[mindlink\] Usage: \/avatar create <name> \[server\] \[engine\] · \/avatar remove <name> <name again> · \/avatar rename <old> <new> · \/avatar move <name> <server>$/);
    r.send('/help avatar');
    await r.line(/^\[mindlink\] \/avatar rename <old> <new> — Rename a stopped avatar/);
  });
});
