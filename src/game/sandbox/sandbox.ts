/**
 * The script runner: runs one skill script (docs/skills.md) beside the
 * avatar's game, isolated. Each run gets a `worker_threads` worker of its own
 * (`worker.cjs`: SES lockdown and a compartment holding only the script API)
 * with a heap limit, an empty environment, no loader and its output dropped.
 * Every skill the script calls comes here as a message and runs through the
 * avatar's {@link SkillRegistry}, so it is validated, gated, timed and
 * aborted like any skill; queries are answered from the game's snapshot.
 *
 * The run ends with a {@link SkillResult}: `done`, `script_error` (with the
 * message and the script's `line`), `timeout`, `out_of_memory` or `aborted`.
 * A script's time starts once its worker is ready (a process runs at most
 * {@link MAX_RUNNING_SCRIPTS} at once; the others wait for a turn). On its
 * time-out, an abort or a full heap the worker is terminated at once and
 * the skill it had started is aborted; the process, its other avatars and
 * their skills go on.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AvatarGame, Snapshot } from '../game.ts';
import type { SkillRegistry, SkillResult } from '../skill.ts';
import {
  answerQuery,
  QUERIES,
  RUN_SCRIPT,
  SCRIPT_DEFAULT_TIMEOUT_MS,
  SCRIPT_FILE,
  SCRIPT_HEAP_MB,
  SCRIPT_MAX_CALLS,
  SCRIPT_MAX_DATA_CHARS,
  SCRIPT_MAX_SLEEP_MS,
  scriptName,
  type QueryName,
  type RunnerToWorker,
  type WorkerStart,
  type WorkerToRunner,
} from './script-api.ts';

/** The worker's file, beside this one. */
const WORKER_FILE = fileURLToPath(new URL('./worker.cjs', import.meta.url));

/** Scripts running at once in one process (a host's or the core's); more wait for a turn. */
export const MAX_RUNNING_SCRIPTS = 4;

/** How long a script may wait for its turn and its worker to start, before its own time begins. */
export const SCRIPT_START_MS = 30_000;

/** A snapshot answers the queries of a script for this long (a query loop must not search the world each time). */
const SNAPSHOT_REUSE_MS = 250;

/** One run of a script. */
export interface ScriptRequest {
  /** The body of an async function with the argument `params`. */
  code: string;
  /** Its `params` (plain data). */
  params?: Record<string, unknown>;
  /** How long it may run; {@link SCRIPT_DEFAULT_TIMEOUT_MS} when absent. */
  timeoutMs?: number;
}

/** Options of {@link runScript} (tests give a smaller heap). */
export interface ScriptLimits {
  heapMb?: number;
}

let running = 0;
const waiting: (() => void)[] = [];

/** Wait for one of the {@link MAX_RUNNING_SCRIPTS} turns; resolves with its release. */
async function turn(): Promise<() => void> {
  if (running >= MAX_RUNNING_SCRIPTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    waiting.shift()?.();
  };
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}

/**
 * Run a script on the avatar's game; never throws.
 *
 * @example
 * const r = await runScript(game, registry, { code: "await collect({ item: 'oak_log', count: 1 })" }, signal);
 * if (!r.ok) log.info({ code: r.code, line: r.line }, r.detail);
 */
export function runScript(game: AvatarGame, skills: SkillRegistry, req: ScriptRequest, signal: AbortSignal, limits: ScriptLimits = {}): Promise<SkillResult> {
  const timeoutMs = req.timeoutMs ?? SCRIPT_DEFAULT_TIMEOUT_MS;
  const ids = new Map(skills.list().filter((s) => s.id !== RUN_SCRIPT).map((s) => [scriptName(s.id), s.id]));
  const began = performance.now();
  return new Promise<SkillResult>((resolve) => {
    let settled = false;
    let worker: Worker | undefined;
    let release: (() => void) | undefined;
    const calls = new Set<AbortController>();
    let snap: { at: number; snapshot: Snapshot } | undefined;

    const finish = (result: SkillResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      for (const c of calls) c.abort(new Error('the script ended'));
      const done = release;
      if (worker) void worker.terminate().finally(() => done?.());
      else done?.();
      resolve(result);
    };
    const ranTooLong = (): void => finish({ ok: false, code: 'timeout', detail: `the script ran longer than ${seconds(timeoutMs)} s and was stopped` });
    // Its own time starts once its worker is ready to run it; waiting for a turn and starting have their own bound.
    let timer = setTimeout(
      () => finish({ ok: false, code: 'timeout', detail: `the script did not start within ${SCRIPT_START_MS / 1000} s (${MAX_RUNNING_SCRIPTS} scripts may run at once)` }),
      SCRIPT_START_MS,
    );
    const onAbort = (): void => finish({ ok: false, code: 'aborted', detail: 'the script was stopped' });
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const reply = (msg: RunnerToWorker): void => {
      if (!settled) worker?.postMessage(msg);
    };
    const snapshot = (): Snapshot | undefined => {
      const now = performance.now();
      if (!snap || now - snap.at > SNAPSHOT_REUSE_MS) {
        const s = game.snapshot();
        snap = s ? { at: now, snapshot: s } : undefined;
      }
      return snap?.snapshot;
    };
    const answer = async (m: Extract<WorkerToRunner, { type: 'call' }>): Promise<void> => {
      if (m.kind === 'query') {
        if (!(QUERIES as readonly string[]).includes(m.name)) return reply({ type: 'reply', id: m.id, ok: false, code: 'bad_params', detail: `there is no query ${m.name}` });
        const s = snapshot();
        if (!s) return reply({ type: 'reply', id: m.id, ok: false, code: 'not_connected', detail: 'not in the game right now' });
        return reply({ type: 'reply', id: m.id, ok: true, value: answerQuery(m.name as QueryName, s) });
      }
      const id = ids.get(m.name);
      if (!id) return reply({ type: 'reply', id: m.id, ok: false, code: 'unknown_skill', detail: `there is no skill ${m.name}` });
      const controller = new AbortController();
      calls.add(controller);
      const r = await skills.run(id, m.params, controller.signal);
      calls.delete(controller);
      snap = undefined;
      // The worker says "<name> failed: …" itself.
      const detail = r.ok ? r.detail : r.detail.replace(new RegExp(`^${id} failed: `), '');
      reply(r.ok ? { type: 'reply', id: m.id, ok: true, value: { ok: r.ok, code: r.code, detail } } : { type: 'reply', id: m.id, ok: false, code: r.code, detail });
    };

    const begin = (): void => {
      const start: WorkerStart = {
        code: req.code,
        params: req.params ?? {},
        skills: [...ids.keys()],
        limits: { maxCalls: SCRIPT_MAX_CALLS, maxSleepMs: SCRIPT_MAX_SLEEP_MS, maxDataChars: SCRIPT_MAX_DATA_CHARS, file: SCRIPT_FILE, queries: QUERIES },
      };
      const heapMb = limits.heapMb ?? SCRIPT_HEAP_MB;
      worker = new Worker(WORKER_FILE, {
        workerData: start,
        // Nothing of this process goes in: no environment, no loader flags, no arguments; its output is dropped.
        env: {},
        execArgv: [],
        argv: [],
        stdin: false,
        stdout: true,
        stderr: true,
        name: 'skill script',
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
      });
      worker.stdout.resume();
      worker.stderr.resume();
      worker.on('message', (m: WorkerToRunner) => {
        if (m.type === 'call') {
          void answer(m);
          return;
        }
        if (m.type === 'started') {
          clearTimeout(timer);
          timer = setTimeout(ranTooLong, timeoutMs);
          return;
        }
        const took = `${seconds(performance.now() - began)} s`;
        const made = `${m.calls} call${m.calls === 1 ? '' : 's'}`;
        if (m.type === 'returned') {
          const value = m.value === null ? '' : `; it returned ${m.value.length > 300 ? `${m.value.slice(0, 299)}…` : m.value}`;
          finish({ ok: true, code: 'done', detail: `the script finished in ${took} after ${made}${value}` });
          return;
        }
        finish({ ok: false, code: 'script_error', detail: `${m.line ? `line ${m.line}: ` : ''}${m.message}`, ...(m.line ? { line: m.line } : {}) });
      });
      worker.on('error', (err: Error & { code?: string }) => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          finish({ ok: false, code: 'out_of_memory', detail: `the script used more than its ${heapMb} MB of memory and was stopped` });
          return;
        }
        // A promise it left to fail on its own, past its end.
        finish({ ok: false, code: 'script_error', detail: `the script failed: ${err.message}` });
      });
      worker.on('exit', (exitCode) => finish({ ok: false, code: 'script_error', detail: `the script stopped without an answer (exit code ${exitCode})` }));
    };

    void turn().then((free) => {
      release = free;
      if (settled) free();
      else begin();
    });
  });
}
