/**
 * The real process with two avatar hosts: demo and bob on different hosts,
 * one host killed with SIGKILL mid-goal, and a skill on a host stopped by
 * `/stop`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../chaos/harness.ts';
import { startMindlink, type MindlinkProcess } from './process.ts';

interface LogEntry {
  msg?: string;
  avatar?: string;
  avatars?: string[];
  avatarHost?: number;
  pid?: number;
  hosts?: number[];
  code?: string;
}

function entries(m: MindlinkProcess): LogEntry[] {
  return m.stderr.flatMap((l) => {
    try {
      return [JSON.parse(l) as LogEntry];
    } catch {
      // Not a log record (a stray line): nothing to read.
      return [];
    }
  });
}

describe('mindlink with two avatar hosts', () => {
  let dir: string;
  let m: MindlinkProcess;
  /** Where each avatar was placed: host slot and the host's pid. */
  const placed = new Map<string, { slot: number; pid: number }>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-hosts-'));
    m = startMindlink({ DATA_DIR: dir, AVATAR_HOSTS: '2', LOOP_PACE_MS: '500', LOG_LEVEL: 'debug' });
    // Placements are read as they come (the log keeps only its tail).
    const note = (): void => {
      for (const e of entries(m)) if (e.msg === 'placed on an avatar host' && e.avatar && e.pid) placed.set(e.avatar, { slot: e.avatarHost ?? -1, pid: e.pid });
    };
    m.child.stderr?.on('data', note);
  });

  afterAll(async () => {
    if (m.child.exitCode === null) {
      m.child.kill('SIGINT');
      await m.exited;
    }
    await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('GIVEN demo and bob on two hosts, both collecting WHEN demo host is killed with SIGKILL THEN demo joins again and finishes, and bob, the chat and the core go on as if nothing happened', async () => {
    await m.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    m.send('/avatar create bob');
    await m.line(/^\[bob\] Created bob on embedded/);
    m.send('/play bob');
    await m.line(/^\[bob\] Playing\./);
    expect(placed.get('demo')?.slot, `placements seen: ${JSON.stringify([...placed])}`).toBeDefined();
    expect(placed.get('bob')?.slot).not.toBe(placed.get('demo')?.slot);
    const demoHost = placed.get('demo')!.pid;
    const bobHost = placed.get('bob')!.pid;

    m.send('/goal collect 3 oak logs demo');
    m.send('/goal collect 3 oak logs bob');
    await m.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    // Mid-goal: demo's collect is running on its host.
    await m.logLine(/"avatar":"demo".*"skill":"collect".*"msg":"running a skill"/, 120_000);
    const linesBefore = m.lines.length;
    process.kill(demoHost, 'SIGKILL');
    await m.logLine(/an avatar host died; starting it again/, 30_000);
    await m.logLine(/avatar host started again/, 120_000);
    await m.line(/^\[demo\] Done: collect 3 oak logs$/, 240_000);
    await m.line(/^\[bob\] Done: collect 3 oak logs$/, 240_000);

    expect(m.child.exitCode).toBeNull();
    expect(alive(bobHost), 'bob host still runs').toBe(true);
    expect(alive(demoHost)).toBe(false);
    const bobDropped = entries(m).filter((e) => e.avatar === 'bob' && e.msg === 'disconnected');
    expect(bobDropped, 'bob never left the game').toEqual([]);
    // The chat saw goals and their ends, nothing about a host.
    const said = m.lines.slice(linesBefore);
    expect(said.filter((l) => /host|Stopped|crash|went wrong/i.test(l)), said.join('\n')).toEqual([]);

    m.send('/status demo');
    // /status of a hosted avatar reads as in one process: its state, goal, position, vitals and inventory.
    await m.line(/^\[demo\] (working|choosing|wrapup) · (goal: |no goal)/, 60_000);
    await m.line(/^\[demo\] position -?\d+ -?\d+ -?\d+ \(overworld\) · health \d+\/20 · food \d+\/20$/);
    await m.line(/^\[demo\] inventory: .*oak_log×\d+/);
  }, 600_000);

  it('GIVEN bob collecting on his host WHEN the owner sends /stop THEN the skill is aborted on the host and bob stops', async () => {
    m.send('/goal collect 64 oak logs bob');
    await m.line(/^\[bob\] New goal from console: collect 64 oak logs\.$/);
    await m.logLine(/"avatar":"bob".*"skill":"collect".*"msg":"running a skill"/, 120_000);
    const aborted = m.logLine(/"msg":"aborting a skill"/, 60_000);
    const result = m.logLine(/"avatar":"bob".*"skill":"collect".*"code":"aborted"/, 60_000);
    const asked = performance.now();
    m.send('/stop bob');
    await aborted;
    const seen = await result;
    const ms = performance.now() - asked;
    await m.line(/^\[bob\] Stopped\. My goal is kept: \/play resumes it\.$/, 60_000);
    expect(ms, `/stop to the aborted collect: ${Math.round(ms)} ms (${seen})`).toBeLessThan(10_000);
  }, 300_000);
});
