import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

/** Mount a small tmpfs at `dir` (root only); false where that is not possible. */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch (err) {
    process.stderr.write(`full-disk e2e: cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}); skipped\n`);
    return false;
  }
}

function unmount(dir: string): void {
  // Lazy: an embedded world still quitting (it notices a killed mindlink within seconds) may hold a file open.
  execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/** Whether this machine lets the test mount a small file system of its own. */
const canMount = ((): boolean => {
  const probe = mkdtempSync(join(tmpdir(), 'mindlink-probe-'));
  const ok = mountTmpfs(probe, '64k');
  if (ok) unmount(probe);
  rmSync(probe, { recursive: true, force: true });
  return ok;
})();

/** Fill the file system under `dir` to the last byte with one file; returns its path. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, 'filler');
  const fh = await open(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) await fh.write(chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  // The last bytes a whole chunk does not fit in.
  try {
    for (;;) await fh.write(Buffer.alloc(512, 1));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    await fh.close();
  }
  return path;
}

describe('DATA_DIR on a small file system that fills up', () => {
  let base = '';
  let mounted = false;
  const started: MindlinkProcess[] = [];

  afterEach(async () => {
    for (const m of started.splice(0)) {
      if (m.child.exitCode === null && m.child.signalCode === null) {
        process.kill(-(m.child.pid as number), 'SIGKILL');
        await m.exited;
      }
    }
    if (mounted) unmount(base);
    mounted = false;
    if (base) await rm(base, { recursive: true, force: true });
  });

  it.skipIf(!canMount)(
    'GIVEN a full disk THEN a direction and /avatar create are answered "Could not save: disk full" and leave no .tmp; WHEN space is freed and mindlink is stopped THEN a restart has them',
    async () => {
      base = mkdtempSync(join(tmpdir(), 'mindlink-tmpfs-'));
      mounted = mountTmpfs(base, '16m');
      expect(mounted).toBe(true);
      const first = startMindlink({ DATA_DIR: base }, { detached: true });
      started.push(first);
      const spawned = first.logLine(/"msg":"spawned"/, 120_000);
      await first.line(/^\[mindlink\] ready/, 90_000);
      await spawned;

      const filler = await fill(base);
      first.send('stay close');
      await first.line(/^\[demo\] Could not save: disk full\. The change is kept and saved as soon as the disk takes it again; a restart before then loses it\.$/);
      first.send('/avatar create robin');
      await first.line(/^\[robin\] Could not save: disk full\./);
      expect(first.lines.filter((l) => /Noted as direction|Created robin/.test(l))).toEqual([]);
      // (While writes are retried a temp file exists for a moment; what matters is that none is left: checked after the stop.)

      await rm(filler);
      process.kill(-(first.child.pid as number), 'SIGTERM');
      expect(await first.exited).toBe(0);
      expect((await readdir(base)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      // The stop wrote what the disk had refused: the file itself says so before any restart.
      const saved = JSON.parse(await readFile(join(base, 'state.json'), 'utf8')) as { avatars: { name: string; directions: { open: { text: string }[] } }[] };
      const why = `state.json after the stop; mindlink's log (tail):\n${first.stderr.slice(-40).join('\n')}`;
      expect(saved.avatars.map((a) => a.name), why).toEqual(['demo', 'robin']);
      expect(saved.avatars[0]?.directions.open.map((d) => d.text), why).toEqual(['stay close']);

      const second = startMindlink({ DATA_DIR: base }, { detached: true });
      started.push(second);
      await second.line(/^\[mindlink\] ready/, 90_000);
      second.send('/direction demo');
      await second.line(/^\[demo\] #1 \(\d{4}-\d{2}-\d{2}\) stay close$/);
      second.send('/avatars');
      await second.line(/^\[mindlink\] robin: stopped/);
      process.kill(-(second.child.pid as number), 'SIGINT');
      expect(await second.exited).toBe(0);
    },
    400_000,
  );
});
