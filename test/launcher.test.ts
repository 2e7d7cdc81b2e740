/**
 * `npm start`'s launcher (scripts/start.mjs, scripts/build.mjs) on a checkout of its own: a small source tree
 * with the real scripts, tsconfig files and TypeScript, so the real build runs and the real launcher decides
 * when to run it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  pid: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node scripts/start.mjs` in `dir`, to its exit. */
async function start(dir: string): Promise<Run> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { pid: child.pid as number, code, stdout, stderr };
}

/** A checkout whose mindlink prints `ran <word>` (the word from another module, src/word.ts). */
function checkout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-launcher-'));
  for (const f of ['package.json', 'scripts/start.mjs', 'scripts/build.mjs', 'scripts/sources.mjs', 'tsconfig.json', 'tsconfig.build.json']) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    copyFileSync(path.join(ROOT, f), path.join(dir, f));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const files: Record<string, string> = {
    'src/main.ts': "import { word } from './word.ts';\nprocess.stdout.write(`ran ${word}\\n`);\n",
    'src/word.ts': "export const word: string = 'one';\n",
    'src/engines/agents/pi-extension.ts': 'export default function extension(): void {}\n',
    'bridges/web/assets/index.html': '<!doctype html>\n',
    'commands/index.ts': 'export const commands: string[] = [];\n',
    'skills/index.ts': 'export const skills: string[] = [];\n',
    'agents/README.md': 'agents\n',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

/** Date a file's last change `ms` before now. */
function backdate(file: string, ms: number): void {
  const at = new Date(Date.now() - ms);
  utimesSync(file, at, at);
}

describe('npm start and its build', () => {
  let dir = '';
  beforeEach(() => {
    dir = checkout();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN a checkout with no build WHEN started THEN it builds dist/ first, says why on stderr, and runs the build; started again THEN it does not build', async () => {
    const first = await start(dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('ran one\n');
    expect(first.stderr).toMatch(/^mindlink: built dist\/ first \(there is no build yet; \d+\.\d s\)\n$/);

    const second = await start(dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('ran one\n');
    expect(second.stderr).toBe('');
  }, 120_000);

  it('GIVEN a build WHEN a source file changes, is added or is removed THEN the next start builds again first and runs the new code', async () => {
    expect((await start(dir)).code).toBe(0);

    writeFileSync(path.join(dir, 'src/word.ts'), "export const word: string = 'two';\n");
    const changed = await start(dir);
    expect(changed.stdout).toBe('ran two\n');
    expect(changed.stderr).toContain('built dist/ first (src/word.ts changed since the build;');

    // An added file older than the build (copied with its date kept) is still seen: the count changed.
    writeFileSync(path.join(dir, 'src/extra.ts'), 'export const extra = 1;\n');
    backdate(path.join(dir, 'src/extra.ts'), 3_600_000);
    const added = await start(dir);
    expect(added.stdout).toBe('ran two\n');
    expect(added.stderr).toContain('built dist/ first (source files were added or removed since the build;');

    unlinkSync(path.join(dir, 'src/extra.ts'));
    const removed = await start(dir);
    expect(removed.stderr).toContain('built dist/ first (source files were added or removed since the build;');
    expect((await start(dir)).stderr).toBe('');
  }, 180_000);

  it('GIVEN a stale build WHEN two starts run at once THEN one builds, the other waits for that build, and both run the new code', async () => {
    expect((await start(dir)).code).toBe(0);
    writeFileSync(path.join(dir, 'src/word.ts'), "export const word: string = 'both';\n");

    const runs = await Promise.all([start(dir), start(dir)]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('ran both\n');
    }
    const [builder, other] = runs[0]!.stderr.includes('built dist/ first') ? runs : [runs[1]!, runs[0]!];
    expect(builder!.stderr).toMatch(/^mindlink: built dist\/ first \(src\/word\.ts changed since the build; \d+\.\d s\)\n$/);
    // The other waited for that build (and said so), or came once it was done.
    expect(other!.stderr).toMatch(new RegExp(`^(mindlink: waiting for the build under way \\(pid ${builder!.pid}\\)\\n)?$`));
  }, 120_000);

  it('GIVEN the build lock held by a live process WHEN started THEN it says it waits for that build, and goes on once the lock is let go', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      mkdirSync(path.join(dir, 'dist.lock'));
      writeFileSync(path.join(dir, 'dist.lock', 'pid'), String(holder.pid));
      const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const closed = once(child, 'close');
      let stderr = '';
      await new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('\n')) resolve();
        }),
      );
      expect(stderr).toBe(`mindlink: waiting for the build under way (pid ${holder.pid})\n`);
      expect(stdout).toBe('');
      rmSync(path.join(dir, 'dist.lock'), { recursive: true });
      const [code] = (await closed) as [number | null];
      expect(code, stderr).toBe(0);
      expect(stdout).toBe('ran one\n');
      expect(stderr).toMatch(/built dist\/ first \(there is no build yet;/);
    } finally {
      holder.kill();
    }
  }, 120_000);

  it('GIVEN a build lock left by a process that is gone WHEN started THEN it takes the lock over, builds and runs', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    mkdirSync(path.join(dir, 'dist.lock'));
    writeFileSync(path.join(dir, 'dist.lock', 'pid'), String(gone.pid));

    const r = await start(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ran one\n');
    expect(r.stderr).toContain('built dist/ first (there is no build yet;');
  }, 120_000);
});
