import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

describe('start-up with a bad DATA_DIR or hand-edited data', () => {
  let dir = '';
  let m: MindlinkProcess | undefined;

  afterEach(async () => {
    if (m && m.child.exitCode === null && m.child.signalCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN DATA_DIR pointing at a file THEN start-up stops with one line naming DATA_DIR, no stack trace', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-badd-'));
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'x');
    m = startMindlink({ DATA_DIR: file });
    expect(await m.exited).toBe(1);
    expect(m.stderr.filter((l) => l.trim())).toEqual([`config: DATA_DIR=${JSON.stringify(file)} is a file (or lies under one), not a folder`]);
    expect(m.lines).toEqual([]);
  }, 60_000);

  it('GIVEN a state.json with the same avatar twice THEN it is refused like other corrupt data and left as it was', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dup-'));
    const avatar = {
      name: 'demo', server: 'embedded', owner: 'console', engine: 'scripted', playing: true, state: 'stopped', goal: null, parked: [],
      directions: { next: 1, open: [], done: [] }, createdAt: '2026-01-01T00:00:00.000Z',
    };
    const state = JSON.stringify({
      version: 1,
      avatars: [avatar, { ...avatar, name: 'Demo' }],
      persons: [{ id: 'console', name: 'console', identities: ['console:local'], admin: true }],
      links: [],
      servers: [{ id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }],
      shares: [],
    });
    await writeFile(join(dir, 'state.json'), state);
    m = startMindlink({ DATA_DIR: dir });
    expect(await m.exited).toBe(1);
    const errors = m.stderr.filter((l) => l.startsWith('mindlink: '));
    expect(errors).toEqual([expect.stringMatching(/^mindlink: data file .*state\.json is unreadable: avatars\.1\.name: duplicate avatar "demo"\. Fix or move it away; mindlink did not change it\.$/)]);
    expect(m.lines.filter((l) => /playing: demo, demo/.test(l))).toEqual([]);
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe(state);
    // The embedded world had started (it runs in a process group of its own); it stopped with mindlink.
    const ready = m.stderr.find((l) => l.includes('embedded world ready'));
    const port = Number(/"port":(\d+)/.exec(ready ?? '')?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  }, 90_000);
});

/** Whether something accepts connections on this port of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
