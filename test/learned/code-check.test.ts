/**
 * The first look at a skill script (src/learned/code-check.ts): what it refuses, with which words and line,
 * and what it lets through to the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { checkCode } from '../../src/learned/code-check.ts';
import { SCRIPT_MAX_CHARS } from '../../src/game/sandbox/script-api.ts';

describe('the first look at a script', () => {
  it('GIVEN a plain script with awaits, a return and names that only look like forbidden ones THEN it passes', () => {
    const code = [
      "const fetchLogs = async (n) => collect({ item: 'oak_log', count: n });",
      'const process = { step: 1 };',
      'await fetchLogs(params.count ?? 1);',
      "const plan = { require: 'nothing', setTimeout: 0 };",
      'return [process.step, plan.require, (await inventory()).oak_log];',
    ].join('\n');
    expect(checkCode(code)).toEqual({ ok: true });
  });

  it.each([
    ["const fs = require('fs');", 'require: a skill cannot load modules: it has only its API (docs/skills.md)', 1],
    ["\nawait import('node:fs');", 'a skill cannot import modules: it has only its API (docs/skills.md)', 2],
    ["import fs from 'node:fs';", 'a skill cannot import modules: it has only its API (docs/skills.md)', 1],
    ['return process.env;', 'process: a skill has no process: it sees the game through its API only', 1],
    ["\n\nawait fetch('http://example.com');", 'fetch: a skill has no network', 3],
    ['setTimeout(() => 1, 10);', 'setTimeout: a skill has no timers: await sleep(ms)', 1],
    ["return eval('1');", 'eval: a skill cannot run code from strings', 1],
    ["return new Function('return 1')();", 'Function: a skill cannot make functions from strings', 1],
    ['let x = ;', "it does not parse: Unexpected token", 1],
    ['}); (async () => {', "it does not parse: Unexpected token", 1],
  ])('GIVEN %j THEN it is refused: %s (line %i)', (code, message, line) => {
    const r = checkCode(code);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message.startsWith(message), r.message).toBe(true);
    expect(r.line).toBe(line);
  });

  it('GIVEN an empty script or one too long THEN it is refused without a line', () => {
    expect(checkCode('  \n ')).toEqual({ ok: false, message: 'the script is empty', line: null });
    expect(checkCode('x'.repeat(SCRIPT_MAX_CHARS + 1))).toEqual({ ok: false, message: `the script is ${SCRIPT_MAX_CHARS + 1} characters long; at most ${SCRIPT_MAX_CHARS}`, line: null });
  });
});
