/**
 * The first look at a skill script before it runs (docs/skills.md): it must
 * be short enough, parse as the body of an async function, and not reach for
 * what a skill never has (`import`, `require`, `process`, `eval`, timers,
 * `fetch` …). These are refused here with the line, in plain words, so the
 * writer hears at once what to change; the sandbox would refuse them anyway
 * when the script runs (`src/game/sandbox/`).
 */
import { parse, type Node } from 'acorn';
import { SCRIPT_MAX_CHARS } from '../game/sandbox/script-api.ts';

/** What the check found: nothing, or the first problem and its line (1 is the script's first). */
export type CodeCheck = { ok: true } | { ok: false; message: string; line: number | null };

/** Names a skill never has, used without being declared, and what to say about each. */
const FORBIDDEN: Readonly<Record<string, string>> = {
  require: 'a skill cannot load modules: it has only its API (docs/skills.md)',
  process: 'a skill has no process: it sees the game through its API only',
  module: 'a skill cannot load modules: it has only its API (docs/skills.md)',
  eval: 'a skill cannot run code from strings',
  Function: 'a skill cannot make functions from strings',
  fetch: 'a skill has no network',
  XMLHttpRequest: 'a skill has no network',
  WebSocket: 'a skill has no network',
  setTimeout: 'a skill has no timers: await sleep(ms)',
  setInterval: 'a skill has no timers: await sleep(ms) in a loop',
  setImmediate: 'a skill has no timers: await sleep(ms)',
  Buffer: 'a skill has no binary buffers',
  Worker: 'a skill cannot start threads',
};

/** Every node below `node`, depth first, with the node that holds it. */
function* walk(node: Node, parent: Node | null = null): Generator<[Node, Node | null]> {
  yield [node, parent];
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === 'object' && typeof (child as Node).type === 'string') yield* walk(child as Node, node);
    }
  }
}

/** Whether an identifier node is a property name (`x.require`, `{ require: 1 }`) rather than a reference. */
function isPropertyName(node: Node, parent: Node | null): boolean {
  if (!parent) return false;
  const p = parent as Node & { property?: Node; key?: Node; computed?: boolean; shorthand?: boolean };
  if (parent.type === 'MemberExpression') return p.property === node && !p.computed;
  if (parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') return p.key === node && !p.computed && !p.shorthand;
  return false;
}

/** The names the script declares itself (its variables, functions, params, classes): those are its own. */
function declared(root: Node): Set<string> {
  const names = new Set<string>();
  const add = (pattern: Node | null | undefined): void => {
    if (!pattern) return;
    for (const [n, parent] of walk(pattern)) {
      if (n.type === 'Identifier' && !isPropertyName(n, parent)) names.add((n as Node & { name: string }).name);
    }
  };
  for (const [n] of walk(root)) {
    const d = n as Node & { id?: Node | null; params?: Node[]; param?: Node | null };
    if (n.type === 'VariableDeclarator' || n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') add(d.id);
    if (d.params) for (const p of d.params) add(p);
    if (n.type === 'CatchClause') add(d.param);
  }
  return names;
}

/**
 * Check a script's text.
 *
 * @example
 * checkCode("const fs = require('fs')") // → { ok: false, message: 'require: a skill cannot load modules: …', line: 1 }
 */
export function checkCode(code: string): CodeCheck {
  if (code.trim() === '') return { ok: false, message: 'the script is empty', line: null };
  if (code.length > SCRIPT_MAX_CHARS) return { ok: false, message: `the script is ${code.length} characters long; at most ${SCRIPT_MAX_CHARS}`, line: null };
  let root: Node;
  try {
    root = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, locations: true });
  } catch (err) {
    const e = err as SyntaxError & { loc?: { line: number } };
    const text = e.message.replace(/ \(\d+:\d+\)$/, '');
    const message = /'import' and 'export' may appear only/.test(text) ? 'a skill cannot import modules: it has only its API (docs/skills.md)' : `it does not parse: ${text}`;
    return { ok: false, message, line: e.loc?.line ?? null };
  }
  const own = declared(root);
  for (const [node, parent] of walk(root)) {
    const line = node.loc?.start.line ?? null;
    if (node.type === 'ImportExpression') return { ok: false, message: 'a skill cannot import modules: it has only its API (docs/skills.md)', line };
    if (node.type !== 'Identifier' || isPropertyName(node, parent)) continue;
    const name = (node as Node & { name: string }).name;
    const why = Object.hasOwn(FORBIDDEN, name) ? FORBIDDEN[name] : undefined;
    if (why && !own.has(name)) return { ok: false, message: `${name}: ${why}`, line };
  }
  return { ok: true };
}
