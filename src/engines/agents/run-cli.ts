/**
 * One headless run of an agent CLI: spawned in a process group of its own
 * (so the MCP clients, shells or helpers it starts go with it), the prompt
 * written to its stdin and stdin closed (a CLI waiting for stdin to end
 * would hang forever), its stdout and stderr read line by line. It ends by
 * itself, or is killed, its whole group at once, when the turn is aborted
 * (owner stop: no further model call can start), when its time is up, or
 * when its reader has seen enough (a refusal it would otherwise retry).
 * Whatever is left of the group when the CLI exits is killed too.
 */
import { spawn } from 'node:child_process';
import type { Logger } from 'pino';

/** What to run. */
export interface CliCommand {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment of the CLI (nothing is inherited). */
  env: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input: string;
}

/** Why a run was killed. */
export type KillReason = 'aborted' | 'timeout' | 'enough';

/** How a run ended. */
export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when mindlink killed it. */
  killed: KillReason | null;
  /** The last lines of stderr (for an error message). */
  stderrTail: string[];
  /** The process id it ran as (its group id too). */
  pid: number | undefined;
}

/** What a run reports as it goes. */
export interface CliWatch {
  /** The turn's signal: aborting it kills the run at once. */
  signal: AbortSignal;
  timeoutMs: number;
  /** One line of stdout (without its newline); return true to end the run now (`enough`). */
  stdout(line: string): boolean | void;
  /** One line of stderr; return true to end the run now. */
  stderr(line: string): boolean | void;
  log: Logger;
}

/** Lines of stderr kept for the error message. */
const STDERR_KEPT = 20;

/** Kill a process group; one that is gone already is fine. */
function killGroup(pid: number, log: Logger): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') log.warn({ err, pid }, 'killing the agent CLI failed');
  }
}

/** Calls `each` with every complete line of a stream (split on `\n` only: JSON may hold U+2028). */
function lines(stream: NodeJS.ReadableStream, each: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    let at = rest.indexOf('\n');
    while (at >= 0) {
      each(rest.slice(0, at).replace(/\r$/, ''));
      rest = rest.slice(at + 1);
      at = rest.indexOf('\n');
    }
  });
  stream.on('end', () => {
    if (rest !== '') each(rest);
    rest = '';
  });
}

/**
 * Run the CLI to its end (or kill); resolves once it and its output are done. Never rejects for the CLI's
 * own failures: the exit says how it ended. Rejects only when it cannot be started at all.
 *
 * @example
 * const exit = await runCli(cmd, { signal, timeoutMs: 600_000, stdout: (l) => reader.stdout(l), stderr: (l) => reader.stderr(l), log });
 */
export function runCli(cmd: CliCommand, watch: CliWatch): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const { log } = watch;
    const child = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, env: cmd.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const pid = child.pid;
    const stderrTail: string[] = [];
    let killed: KillReason | null = null;
    let exited = false;
    const kill = (why: KillReason): void => {
      if (killed || exited || pid === undefined) return;
      killed = why;
      log.info({ pid, why }, 'killing the agent CLI');
      killGroup(pid, log);
    };
    const onAbort = (): void => kill('aborted');
    const timer = setTimeout(() => kill('timeout'), watch.timeoutMs);
    watch.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => {
      clearTimeout(timer);
      watch.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    if (pid === undefined) return;
    if (watch.signal.aborted) kill('aborted');
    child.stdin.on('error', (err) => log.debug({ err }, 'the agent CLI closed its stdin early'));
    child.stdin.end(cmd.input);
    lines(child.stdout, (line) => {
      if (watch.stdout(line) === true) kill('enough');
    });
    lines(child.stderr, (line) => {
      stderrTail.push(line);
      if (stderrTail.length > STDERR_KEPT) stderrTail.shift();
      if (watch.stderr(line) === true) kill('enough');
    });
    child.once('exit', () => {
      exited = true;
      // What it started and left behind (a server, a shell) goes with it; its pipes then close.
      killGroup(pid, log);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      watch.signal.removeEventListener('abort', onAbort);
      resolve({ code, signal, killed, stderrTail, pid });
    });
  });
}
