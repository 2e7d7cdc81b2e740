import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleBridge } from '../../bridges/console.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { FullDisk } from '../fakes/full-disk.ts';
import { TestEngine } from '../fakes/test-engine.ts';

interface Running {
  core: Mindlink;
  lines: string[];
  line(re: RegExp): Promise<string>;
  send(text: string): void;
}

const dirs: string[] = [];
const running: Mindlink[] = [];

async function startCore(dataDir: string, disk?: FullDisk): Promise<Running> {
  const config = parseConfig({ DATA_DIR: dataDir, LOOP_PACE_MS: '50', LOOP_MAX_PACE_MS: '200' });
  const core = await Mindlink.start({
    config,
    skills: createSkillRegistry,
    commands: createDispatcher(),
    log: silentLogger(),
    games: { create: (avatar) => new FakeGame(avatar.name), close: async () => {} },
    engines: () => new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working')),
    ...(disk ? { store: { adapter: disk.adapter } } : {}),
  });
  running.push(core);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let buf = '';
  stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const l = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(l);
      for (const w of [...waiters]) {
        if (w.re.test(l)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    }
  });
  await core.addBridge(new ConsoleBridge(stdin, stdout, silentLogger()));
  return {
    core,
    lines,
    line: (re) => {
      const found = lines.find((l) => re.test(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ re, resolve }));
    },
    send: (text) => stdin.write(`${text}\n`),
  };
}

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop().catch(() => undefined);
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('a full disk under DATA_DIR', () => {
  it('GIVEN a full disk THEN a direction, /avatar create and a goal are not acknowledged but answered "Could not save: disk full"; once space is freed, shutdown writes them and a restart has them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-fulldisk-'));
    dirs.push(dir);
    const disk = new FullDisk();
    const r = await startCore(dir, disk);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    disk.full = true;

    r.send('stay close');
    await r.line(/^\[demo\] Could not save: disk full\. The change is kept and saved as soon as the disk takes it again; a restart before then loses it\.$/);
    r.send('/avatar create robin');
    await r.line(/^\[robin\] Could not save: disk full\./);
    r.send('demo: Goal: go to 3 64 3');
    await r.line(/^\[demo\] Could not save: disk full\./);
    r.send('/status demo');
    await r.line(/^\[demo\] (working|choosing|wrapup) · goal: go to 3 64 3/);
    expect(r.lines.filter((l) => /Noted as direction|Created robin|New goal from console/.test(l))).toEqual([]);

    disk.full = false;
    await r.core.stop();
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const again = await startCore(dir);
    expect(again.core.avatars.get('robin')).toBeDefined();
    expect(again.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['stay close']);
    expect(again.core.avatars.get('demo')?.goal?.text).toBe('go to 3 64 3');
  });

  it('GIVEN a full disk THEN /status and /help still answer (they change nothing)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-fulldisk-'));
    dirs.push(dir);
    const disk = new FullDisk();
    const r = await startCore(dir, disk);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    disk.full = true;
    r.send('/status');
    await r.line(/^\[demo\] (working|choosing|wrapup) · goal: explore/);
    r.send('/help');
    await r.line(/^\[mindlink\] \/goal <text> \[avatar\] — /);
    expect(r.lines.filter((l) => /Could not save/.test(l))).toEqual([]);
    disk.full = false;
  });
});
