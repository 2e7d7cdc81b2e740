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

/**
 * Fill the file system under `dir` to the last byte, appending to one file (its path is returned). Called again,
 * it takes whatever was freed since: the embedded world in `dir` dies on the full disk and starts again, and
 * what it gives back on the way would otherwise let the next save through.
 */
async function fill(dir: string): Promise<string> {
  const path = join(dir, 'filler');
  const fh = await open(path, 'a');
  try {
    for (const size of [64 * 1024, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) await fh.write(chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    await fh.close();
  }
  return path;
}

/**
 * Fill the disk, send `text`, and return mindlink's answer (matching `answer`); tried again (the disk filled
 * again first) while the answer says it was saved, at most 5 times: a save that found room freed between the
 * fill and the write is right, but not what this test is after. Returns every text sent.
 */
async function sendOnFullDisk(m: MindlinkProcess, dir: string, texts: string[], answer: RegExp, saved: RegExp): Promise<{ reply: string; sent: string[] }> {
  const sent: string[] = [];
  let reply = '';
  for (const text of texts) {
    await fill(dir);
    const from = m.lines.length;
    m.send(text);
    sent.push(text);
    reply = await m.line(new RegExp(`${answer.source}|${saved.source}`), 60_000, from);
    if (!saved.test(reply)) break;
  }
  return { reply, sent };
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

      const full = /^\[demo\] Could not save: disk full\. The change is kept and saved as soon as the disk takes it again; a restart before then loses it\.$/;
      const directions = await sendOnFullDisk(first, base, [1, 2, 3, 4, 5].map((n) => `stay close ${n}`), full, /^\[demo\] Noted as direction #\d+\.$/);
      expect(directions.reply).toMatch(full);
      const names = ['robin', 'rowan', 'rhea', 'remy', 'rita'];
      const created = await sendOnFullDisk(first, base, names.map((n) => `/avatar create ${n}`), /^\[\w+\] Could not save: disk full\./, /^\[\w+\] Created \w+/);
      expect(created.reply).toMatch(/^\[\w+\] Could not save: disk full\./);

      await rm(join(base, 'filler'));
      process.kill(-(first.child.pid as number), 'SIGTERM');
      expect(await first.exited).toBe(0);
      expect((await readdir(base)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const saved = JSON.parse(await readFile(join(base, 'state.json'), 'utf8')) as { avatars: { name: string; directions: { open: { text: string }[] } }[] };
      const why = `state.json after the stop; mindlink's log (tail):\n${first.stderr.slice(-40).join('\n')}`;
      const avatars = created.sent.map((t) => t.replace('/avatar create ', ''));
      expect(saved.avatars.map((a) => a.name), why).toEqual(['demo', ...avatars]);
      expect(saved.avatars[0]?.directions.open.map((d) => d.text), why).toEqual(directions.sent);
      const last = directions.sent.length;
      const lastAvatar = avatars[avatars.length - 1] as string;

      const second = startMindlink({ DATA_DIR: base }, { detached: true });
      started.push(second);
      await second.line(/^\[mindlink\] ready/, 90_000);
      second.send('/direction demo');
      await second.line(new RegExp(`^\\[demo\\] #${last} \\(\\d{4}-\\d{2}-\\d{2}\\) stay close ${last}$`));
      second.send('/avatars');
      await second.line(new RegExp(`^\\[mindlink\\] ${lastAvatar}: stopped`));
      process.kill(-(second.child.pid as number), 'SIGINT');
      expect(await second.exited).toBe(0);
    },
    400_000,
  );
});
