/**
 * What mindlink's own process (the core) loads by its first avatar line when the avatars play on avatar hosts, as
 * `npm run bench -- startup` starts it (the web page off): no game library, no database or model client, and of
 * minecraft-data only the tables it reads (docs/benchmarks.md, "Start-up": each of these once cost the start a
 * tenth of a second or more of the core's CPU while the world started).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

const PRELOAD = path.resolve('test/e2e/loaded-files.ts');

/** The package a node_modules path is in (`pg`, `@scope/name`). */
function packageOf(file: string): string {
  const parts = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
}

/** mineflayer's list of the versions it plays, which the core reads from that one file (src/game/versions.ts). */
const MINEFLAYER_VERSIONS = /\/node_modules\/mineflayer\/lib\/version\.js$/;

describe('the core at start-up', () => {
  let dir = '';
  let run: MindlinkProcess | undefined;
  afterEach(async () => {
    if (run && run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGINT');
      await run.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN avatar hosts and a fresh data folder WHEN the first avatar line comes THEN the core has loaded no game library, no database or model client, and of minecraft-data only the item and entity tables, not its index', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-core-libs-'));
    const loadedFile = path.join(dir, 'loaded.txt');
    run = startMindlink({ DATA_DIR: path.join(dir, 'data'), AVATAR_HOSTS: '2', WEB: 'off', MINDLINK_TEST_LOADED: loadedFile }, { imports: [PRELOAD] });
    await run.line(/^\[demo\] /, 120_000);
    const files = readFileSync(loadedFile, 'utf8').split('\n').filter(Boolean);
    const packages = new Set(files.filter((f) => !MINEFLAYER_VERSIONS.test(f)).map(packageOf));
    const unwanted = ['mineflayer', 'mineflayer-pathfinder', 'minecraft-protocol', 'protodef', 'prismarine-auth', 'prismarine-physics', 'pg', 'openai', '@modelcontextprotocol/sdk', 'discord.js', 'grammy'];
    expect(unwanted.filter((p) => packages.has(p))).toEqual([]);
    // minecraft-data's index (its version lists and schemas, indexed) waits for a question about a version; its
    // version tables are the two the item names are read from.
    expect(files.filter((f) => f.endsWith('/node_modules/minecraft-data/index.js'))).toEqual([]);
    const tables = files.filter((f) => /\/minecraft-data\/minecraft-data\/data\/pc\/[^/]+\/[^/]+\.json$/.test(f) && !f.includes('/pc/common/'));
    expect(tables.length).toBeGreaterThan(0);
    expect([...new Set(tables.map((f) => path.basename(f)))].sort()).toEqual(['entities.json', 'items.json']);
  }, 180_000);
});
