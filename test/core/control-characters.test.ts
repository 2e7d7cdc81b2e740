import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { startConsoleCore } from './console-harness.ts';

/** Any C0 control but line feed, DEL, or C1 control. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const ATTACK = 'say \u001b]0;pwned\u0007\u001b[31mhi\u0000';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('control characters from a chat or an engine', () => {
  it('GIVEN a goal, a direction and a /goal with terminal escapes and NUL THEN no stdout line, /status, TASK.md or state.json carries them raw', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-ctl-'));
    dirs.push(dir);
    const r = await startConsoleCore(dir);
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.send(`Goal: ${ATTACK}`);
    await r.line(/^\[demo\] New goal from console: say ␛\]0;pwned␇␛\[31mhi␀\.$/);
    r.send(`keep \u001b[2Kquiet\u007f`);
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    r.send(`/goal go to 1 64 1\u001b[1A demo`);
    await r.line(/^\[demo\] New goal from console: go to 1 64 1␛\[1A\.$/);
    r.send('/status');
    await r.line(/^\[demo\] (working|choosing|wrapup) · goal: /);
    r.send('/direction');
    await r.line(/^\[demo\] #1 \(\d{4}-\d{2}-\d{2}\) keep ␛\[2Kquiet␡$/);
    await r.core.store.flush();
    await r.core.avatars.syncTask('demo');
    for (const l of r.lines) expect(l).not.toMatch(RAW_CONTROL);
    expect(await readFile(join(dir, 'avatars', 'demo', 'TASK.md'), 'utf8')).not.toMatch(RAW_CONTROL);
    expect(await readFile(join(dir, 'state.json'), 'utf8')).not.toMatch(/\\u00(0|1)[0-9a-f]|\\u007f/i);
  });

  it('GIVEN an engine reply with escapes THEN what it posts and writes to the lab log is clean', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-ctl-'));
    dirs.push(dir);
    let chosen = 0;
    const engine = new TestEngine((req) => {
      if (req.kind === 'choose') return chosen++ === 0 ? 'GOAL: say \u001b]0;owned\u0007hi\nSTATUS: working' : 'GOAL: explore\nSTATUS: working';
      if (req.kind === 'wrapup') return 'Lesson: \u001b[31mred\u001b[0m\nSTATUS: working';
      if (req.kind === 'question') return 'I am \u001b[2Jhere\nSTATUS: working';
      return req.goal?.text === 'explore' ? 'STATUS: working' : 'STATUS: done';
    });
    // The turn after the wrap-up starts only once the wrap-up's lesson is in the lab log.
    const afterWrapup = new Promise<void>((resolve) => {
      let wrapped = false;
      engine.on('turned', (req) => {
        if (wrapped && req.kind !== 'question') resolve();
        if (req.kind === 'wrapup') wrapped = true;
      });
    });
    const r = await startConsoleCore(dir, { engines: () => engine });
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): say ␛\]0;owned␇hi$/);
    await r.line(/^\[demo\] Done: say ␛\]0;owned␇hi$/);
    r.send('where are you?');
    await r.line(/^\[demo\] I am ␛\[2Jhere$/);
    await afterWrapup;
    for (const l of r.lines) expect(l).not.toMatch(RAW_CONTROL);
    expect(await readFile(join(dir, 'avatars', 'demo', 'lab-log.md'), 'utf8')).toContain('Lesson: ␛[31mred␛[0m');
  });
});
