import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the start command the README gives for scripts', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN the README\'s "npm start --silent" THEN stdout holds chat lines only, from the ready line on (no npm banner)', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const running = readme.slice(readme.indexOf('## Running'));
    const command = /`(npm start --silent)`/.exec(running)?.[1];
    expect(command).toBe('npm start --silent');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-npm-'));
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, CONSOLE: 'on', LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? String(code))));
    const lines: string[] = [];
    const ready = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (l) => {
        lines.push(l);
        if (l.startsWith('[mindlink] ready')) resolve();
      });
    });
    child.stderr.resume();
    try {
      await ready;
      process.kill(-(child.pid as number), 'SIGINT');
      // npm itself ends by the signal it got once its script (mindlink) has exited.
      expect(['0', 'SIGINT']).toContain(await exited);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    }
    expect(lines[0]).toMatch(/^\[mindlink\] ready/);
    for (const l of lines) expect(l).toMatch(/^\[(demo|mindlink)\] /);
  }, 120_000);
});
