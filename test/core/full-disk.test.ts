import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { FullDisk } from '../fakes/full-disk.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

async function startCore(dataDir: string, disk?: FullDisk): Promise<ConsoleCore> {
  const r = await startConsoleCore(dataDir, disk ? { store: { adapter: disk.adapter } } : {});
  running.push(r.core);
  return r;
}

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
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

  it('GIVEN a goal the engine finishes in its first turn THEN the acknowledgement (which waits for the disk) still comes before Done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-fulldisk-'));
    dirs.push(dir);
    const r = await startConsoleCore(dir, {
      engines: () => new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : req.goal?.text === 'say hi' ? 'Said it.\nSTATUS: done' : 'STATUS: working')),
    });
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.send('Goal: say hi');
    await r.line(/^\[demo\] Done: say hi$/);
    const ack = r.lines.indexOf('[demo] New goal from console: say hi.');
    expect(ack).toBeGreaterThanOrEqual(0);
    expect(ack).toBeLessThan(r.lines.indexOf('[demo] Done: say hi'));
  });
});

