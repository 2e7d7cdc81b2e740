// @ts-check
'use strict';
/*
 * A skill script's worker (docs/skills.md): a `worker_threads` thread of its
 * own, started by the runner (sandbox.ts, beside it) for one run of one script
 * and terminated by it at the end, on its time-out, on an abort or when its
 * heap is full. Plain CommonJS run by node with no loader.
 *
 * The script runs in a SES compartment after `lockdown()`: every shared
 * intrinsic is frozen (no prototype to change for anyone), the Function
 * constructors throw, and its global object holds only the plain language
 * objects of ALLOWED plus the API below. Everything else of this thread (its
 * `process`, `require`, timers, `fetch`, buffers) is out of its reach. Each API
 * call is a message to the runner, which runs the skill on the avatar's game
 * (validated, gated and timed as any skill) and answers.
 *
 * The messages each way and the limits are defined once, in script-api.ts.
 */
const { parentPort, workerData } = require('node:worker_threads');
require('ses');

/**
 * @typedef {import('./script-api.ts').WorkerStart} WorkerStart
 * @typedef {import('./script-api.ts').WorkerToRunner} WorkerToRunner
 * @typedef {import('./script-api.ts').RunnerToWorker} RunnerToWorker
 */

/** The script, its params, and the limits of script-api.ts (this file cannot import TypeScript). */
const start = /** @type {WorkerStart} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

// Stacks stay readable here (the runner reports the script's line); nothing else of lockdown is loosened.
lockdown({ errorTaming: 'unsafe', stackFiltering: 'verbose', reporting: 'none', errorTrapping: 'none', unhandledRejectionTrapping: 'none', consoleTaming: 'unsafe' });

/**
 * The plain language objects a script keeps. Left out: eval and Function (no code from strings), the binary
 * buffers and typed arrays and TextEncoder (their memory is outside the heap limit), Date (its clock throws
 * after lockdown anyway), Proxy, Compartment, lockdown and harden.
 */
const ALLOWED = new Set([
  'Infinity', 'NaN', 'undefined', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent',
  'Array', 'BigInt', 'Boolean', 'Map', 'Number', 'Object', 'Promise', 'Reflect', 'Set', 'String', 'Symbol', 'WeakMap', 'WeakSet',
  'JSON', 'Math', 'RegExp',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
]);

/** @param {WorkerToRunner} msg */
const send = (msg) => port.postMessage(msg);

/**
 * The script's line (1 is its first) in an error: the first place in the script's file its stack (or, for a
 * source refused before it ran, its message) names, less the wrapper's first line.
 */
function lineOf(/** @type {unknown} */ err) {
  const e = /** @type {{ stack?: unknown; message?: unknown }} */ (err && typeof err === 'object' ? err : {});
  const at = new RegExp(`${start.limits.file.replace('.', '\\.')}:(\\d+)`).exec(`${String(e.stack ?? '')}\n${String(e.message ?? '')}`);
  const line = at ? Number(at[1]) - 1 : NaN;
  return Number.isInteger(line) && line >= 1 ? line : null;
}

const compartment = new Compartment({ __options__: true });
const scope = compartment.globalThis;
for (const name of Object.getOwnPropertyNames(scope)) {
  if (!ALLOWED.has(name) && !delete scope[/** @type {keyof typeof scope} */ (name)]) throw new Error(`the script's global ${name} cannot be removed`);
}
/** The compartment's own Error: what the script catches is an instance of the Error it sees. */
const ScriptError = /** @type {ErrorConstructor} */ (scope.Error);

/** @type {Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void; name: string; site: Error }>} */
const pending = new Map();
let calls = 0;

port.on('message', (/** @type {RunnerToWorker} */ msg) => {
  const call = pending.get(msg.id);
  if (!call) return;
  pending.delete(msg.id);
  if (msg.ok) {
    call.resolve(harden(msg.value));
    return;
  }
  const err = /** @type {Error & { code?: string; line?: number | null }} */ (new ScriptError(`${call.name} failed: ${msg.detail} (${msg.code})`));
  err.code = msg.code;
  err.line = lineOf(call.site);
  call.reject(err);
});

/**
 * One API call: a message to the runner, answered later. The call's own stack is kept to tell the script's
 * line if it fails.
 *
 * @param {'skill' | 'query'} kind
 * @param {string} name
 * @param {unknown} params
 */
function ask(kind, name, params) {
  const site = new Error();
  calls += 1;
  if (calls > start.limits.maxCalls) {
    return Promise.reject(new ScriptError(`a script may make at most ${start.limits.maxCalls} calls; this one made more`));
  }
  let json;
  try {
    json = JSON.stringify(params ?? {});
  } catch (err) {
    return Promise.reject(new ScriptError(`the params of ${name} are not plain data: ${String(/** @type {Error} */ (err)?.message ?? err)}`));
  }
  if (json.length > start.limits.maxDataChars) {
    return Promise.reject(new ScriptError(`the params of ${name} are ${json.length} characters of JSON; at most ${start.limits.maxDataChars}`));
  }
  const id = calls;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, name, site });
    send({ type: 'call', id, kind, name, params: JSON.parse(json) });
  });
}

/** @type {Record<string, unknown>} */
const api = {};
for (const name of start.skills) api[name] = async (/** @type {unknown} */ params) => ask('skill', name, params);
for (const name of start.limits.queries) api[name] = async () => ask('query', name, {});
api.sleep = async (/** @type {unknown} */ ms) => {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new ScriptError('sleep(ms) takes a number of milliseconds');
  if (ms > start.limits.maxSleepMs) throw new ScriptError(`sleep(ms) waits at most ${start.limits.maxSleepMs} ms`);
  await new Promise((resolve) => setTimeout(resolve, ms));
};
for (const [name, fn] of Object.entries(api)) Object.defineProperty(scope, name, { value: harden(fn), enumerable: true });
Object.freeze(scope);

/** What the script may use, for an error that names something it may not. */
const offered = Object.keys(api).join(', ');

/**
 * What went wrong, in words for whoever wrote the script: what SES refused said plainly, and what the
 * script may use instead of a name it does not have.
 *
 * @param {unknown} err
 */
function messageOf(err) {
  const text = err instanceof Error || (err && typeof err === 'object' && 'message' in err) ? String(/** @type {Error} */ (err).message) : String(err);
  if (/SES_IMPORT_REJECTED/.test(text)) return 'a skill cannot import modules: it has only its API (docs/skills.md)';
  if (/SES_EVAL_REJECTED/.test(text)) return 'a skill cannot use eval';
  if (/SES_HTML_COMMENT_REJECTED/.test(text)) return 'a skill cannot hold HTML comments (<!-- or -->), not even in a string: write them apart';
  if (/Function\.prototype\.constructor is not a valid constructor/.test(text)) return `${text} (a skill cannot make functions from strings)`;
  if (/object is not extensible|read only property|Cannot (?:add|assign|define|delete) property/.test(text)) return `${text} (JavaScript's own objects, params and answers are frozen in a skill)`;
  const missing = /^(.+?) is not (?:a function|defined|a constructor)$/.exec(text);
  const name = missing?.[1]?.match(/[\w$]+/g)?.at(-1);
  if (name && !Object.hasOwn(api, name)) return `${text} (a skill has only: ${offered}, and plain JavaScript)`;
  return text;
}

const source = `(async function main(params) {\n${start.code}\n})\n//# sourceURL=${start.limits.file}\n`;

(async () => {
  try {
    send({ type: 'started' });
    const main = /** @type {(p: unknown) => Promise<unknown>} */ (compartment.evaluate(source));
    const value = await main(harden(JSON.parse(JSON.stringify(start.params ?? {}))));
    let json = null;
    if (value !== undefined) {
      try {
        json = JSON.stringify(value) ?? null;
      } catch (err) {
        json = JSON.stringify(`(not plain data: ${String(/** @type {Error} */ (err)?.message ?? err)})`);
      }
    }
    send({ type: 'returned', value: json === null ? null : json.slice(0, start.limits.maxDataChars), calls });
  } catch (err) {
    const own = /** @type {{ code?: unknown; line?: unknown }} */ (err && typeof err === 'object' ? err : {});
    const line = typeof own.line === 'number' ? own.line : lineOf(err);
    send({ type: 'threw', message: messageOf(err), line, code: typeof own.code === 'string' ? own.code : null, calls });
  }
})();
