/**
 * The shared runner of agent CLIs, with small Node programs standing in for a
 * CLI: the prompt reaches its stdin, which is then closed; an abort, the time
 * limit or the reader's "enough" kill its whole process group, grandchildren
 * included; what it leaves running when it exits is killed too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliCommand } from '../../../src/engines/agents/run-cli.ts';
import { silentLogger } from '../../../src/logger.ts';
import { waitFor } from '../../game/helpers.ts';

const log = silentLogger();
const dir = mkdtempSync(join(tmpdir(), 'mindlink-runcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in CLI: a Node script in the temp folder. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

function command(path: string, input = ''): CliCommand {
  return { command: process.execPath, args: [path], cwd: dir, env: { PATH: process.env.PATH ?? '' }, input };
}

/** Whether a process runs (a zombie does not: it is only waiting to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A CLI that starts a grandchild in its group, prints both pids, and waits for ever. */
const TREE = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.log(JSON.stringify({ cli: process.pid, grandchild: child.pid }));
setInterval(() => {}, 1000);
`;

describe('running an agent CLI', () => {
  it('GIVEN a CLI that reads its prompt to the end of stdin THEN it gets the prompt, stdin closes, and its lines and exit come back', async () => {
    const echo = script('echo.cjs', "let s='';process.stdin.on('data',(d)=>s+=d);process.stdin.on('end',()=>{console.log(JSON.stringify({got:s}));console.error('bye');process.exit(3);});");
    const lines: string[] = [];
    const exit = await runCli(command(echo, 'collect 2 oak logs\nSTATUS?'), { signal: new AbortController().signal, timeoutMs: 60_000, stdout: (l) => void lines.push(l), stderr: () => false, log });
    expect(lines).toEqual([JSON.stringify({ got: 'collect 2 oak logs\nSTATUS?' })]);
    expect(exit).toMatchObject({ code: 3, killed: null, stderrTail: ['bye'] });
  });

  for (const how of ['aborted', 'timeout', 'enough'] as const) {
    it(`GIVEN a CLI with a grandchild that never ends WHEN the run is ${how === 'aborted' ? 'aborted (owner stop)' : how === 'timeout' ? 'past its time limit' : 'ended by its reader'} THEN both are killed at once and the run ends`, async () => {
      const tree = script(`tree-${how}.cjs`, TREE);
      const stop = new AbortController();
      let pids: { cli: number; grandchild: number } | undefined;
      const run = runCli(command(tree), {
        signal: stop.signal,
        timeoutMs: how === 'timeout' ? 300 : 120_000,
        stdout: (l) => {
          pids = JSON.parse(l) as { cli: number; grandchild: number };
          if (how === 'aborted') stop.abort(new Error('owner stop'));
          return how === 'enough';
        },
        stderr: () => false,
        log,
      });
      const exit = await run;
      expect(exit.killed).toBe(how);
      expect(exit.signal).toBe('SIGKILL');
      expect(pids && alive(pids.cli)).toBe(false);
      // The grandchild got the same SIGKILL; the kernel may take a moment to end it.
      const grandchild = pids?.grandchild ?? 0;
      await waitFor(() => !alive(grandchild), 5000, 'the grandchild to be gone');
    });
  }

  it('GIVEN a CLI that exits leaving a child behind (holding its stdout) THEN the child is killed and the run ends', async () => {
    const leaver = script(
      'leaver.cjs',
      "const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] }); console.log(String(c.pid)); process.exit(0);",
    );
    let left = 0;
    const exit = await runCli(command(leaver), { signal: new AbortController().signal, timeoutMs: 120_000, stdout: (l) => void (left = Number(l)), stderr: () => false, log });
    expect(exit).toMatchObject({ code: 0, killed: null });
    expect(left).toBeGreaterThan(0);
    await waitFor(() => !alive(left), 5000, 'the child left behind to be gone');
  });

  it('GIVEN an abort before the run starts THEN the CLI is killed before it can do anything', async () => {
    const stop = new AbortController();
    stop.abort(new Error('owner stop'));
    const lines: string[] = [];
    const exit = await runCli(command(script('talker.cjs', "console.log('hello'); setInterval(() => {}, 1000);")), { signal: stop.signal, timeoutMs: 60_000, stdout: (l) => void lines.push(l), stderr: () => false, log });
    expect(exit.killed).toBe('aborted');
    expect(lines).toEqual([]);
  });

  it('GIVEN a command that does not exist THEN the run rejects saying so', async () => {
    await expect(runCli({ command: join(dir, 'no-such-cli'), args: [], cwd: dir, env: {}, input: '' }, { signal: new AbortController().signal, timeoutMs: 60_000, stdout: () => false, stderr: () => false, log })).rejects.toThrow(/ENOENT/);
  });
});
