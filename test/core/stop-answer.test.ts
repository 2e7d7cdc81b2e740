import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const cores: Mindlink[] = [];

afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A game whose bot never finishes leaving (a server that never closes the connection). */
class StuckLeavingGame extends FakeGame {
  override stop(): Promise<void> {
    this.stops++;
    return new Promise<void>(() => {});
  }
}

/** An engine whose turn never ends and ignores its abort signal. */
const deafEngine = (): TestEngine => new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : new Promise<string>(() => {})));

async function start(games: 'stuck' | 'plain'): Promise<ConsoleCore> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-stop-'));
  dirs.push(dir);
  const r = await startConsoleCore(dir, {
    engines: deafEngine,
    ...(games === 'stuck' ? { gameFactory: (name: string) => new StuckLeavingGame(name) } : {}),
  });
  cores.push(r.core);
  return r;
}

describe('a stop never waits on the game or the engine', () => {
  it('GIVEN an engine turn that never ends and ignores its abort WHEN the owner sends stop THEN it is answered, /status says stopped, and /play starts it again', async () => {
    const r = await start('plain');
    r.send('Goal: collect 40 oak logs');
    await r.line(/^\[demo\] New goal from console: collect 40 oak logs\.$/);
    r.send('stop');
    await r.line(/^\[demo\] Stopped\. My goal is kept: \/play resumes it\.$/);
    r.send('/status');
    await r.line(/^\[demo\] stopped · goal: collect 40 oak logs/);
    r.send('/play');
    await r.line(/^\[demo\] Playing\. Resuming my goal: collect 40 oak logs$/);
  });

  it('GIVEN a bot that never finishes leaving the game WHEN the owner sends stop THEN it is answered and the chat goes on answering', async () => {
    const r = await start('stuck');
    r.send('Goal: collect 40 oak logs');
    await r.line(/^\[demo\] New goal from console: collect 40 oak logs\.$/);
    r.send('stop');
    await r.line(/^\[demo\] Stopped\. My goal is kept: \/play resumes it\.$/);
    expect(r.games.get('demo')?.stops).toBe(1);
    r.send('/status');
    await r.line(/^\[demo\] stopped · goal: collect 40 oak logs/);
    r.send('where are you?');
    await r.line(/^\[demo\] I'm stopped, so I can't look around\./);
  });
});
