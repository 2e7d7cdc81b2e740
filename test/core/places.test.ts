/**
 * `/place set`, `/places`, `/place remove` and goals naming a place, through the core (docs/commands.md
 * "Places"): real core and files, the console, a fake game whose position the test sets, and an engine that
 * claims Done so the loop's completion check is what decides.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/chat.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EngineProvider } from '../../src/engines/engine.ts';
import { snapshotOf } from '../fakes/fake-game.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const TOKEN = { TELEGRAM_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi' };

/** A core on a folder (a new one unless given) whose engines explore when they choose and claim every owner goal done at once: the completion check decides. */
async function start(dir?: string): Promise<ConsoleCore & { dir: string; engines: Map<string, TestEngine> }> {
  const d = dir ?? (await mkdtemp(join(tmpdir(), 'mindlink-places-cmd-')));
  if (!dir) dirs.push(d);
  const engines = new Map<string, TestEngine>();
  const claimsDone: EngineProvider = (_kind, ctx) => {
    const engine = new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : req.goal?.setBy === 'owner' ? 'STATUS: done' : 'STATUS: working'));
    engines.set(ctx.avatar, engine);
    return engine;
  };
  const r = await startConsoleCore(d, { env: TOKEN, engines: claimsDone });
  running.push(r.core);
  await r.line(/^\[demo\] New goal \(my choice\): explore$/);
  return { ...r, dir: d, engines };
}

/** Put demo's fake game at a position. */
function stand(r: ConsoleCore, x: number, y: number, z: number, dimension = 'overworld'): void {
  const game = r.games.get('demo');
  if (!game) throw new Error('demo has no game');
  game.snap = snapshotOf({ ...game.snap, position: { x, y, z }, dimension });
}

/** A Telegram member of the group demo is linked to, who may watch it. */
const watcher = (): InboundMessage => ({ platform: 'telegram', from: 'telegram:5', fromName: 'ann', dest: 'telegram:-100', chatKind: 'group', messageId: '1', text: '' });

describe('places an avatar remembers, in chat', () => {
  it('GIVEN /place set base THEN /places lists it with its distance, "Goal: go to bse" is refused naming it, and /place remove forgets it', async () => {
    const r = await start();
    r.send('/places');
    await r.line(/^\[demo\] demo remembers no places yet: \/place set <name> remembers where it stands\.$/);
    stand(r, 10.4, 64, -2.6);
    r.send('/place set base');
    await r.line(/^\[demo\] Remembered base at 10 64 -3: "Goal: go to base" brings demo back here\.$/);
    stand(r, 30.5, 64, -3.5);
    r.send('/place set Village');
    await r.line(/^\[demo\] Remembered village at 30 64 -4/);
    stand(r, 20, 64, 17);
    r.send('/places');
    await r.line(/^\[demo\] demo remembers 2 places:$/);
    expect(r.lines.slice(-2)).toEqual(['[demo] - base: 10 64 -3, 22 blocks away', '[demo] - village: 30 64 -4, 23 blocks away']);

    r.send('Goal: go to bse');
    await r.line(/^\[demo\] I can't take that goal: I know no place called 'bse'; my places: base, village\. Nothing was changed: my goal is still explore\.$/);
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('explore');

    r.send('/place set my base');
    await r.line(/^\[demo\] A place name is one word: lowercase letters, digits and dashes \(my-base, not "my base"\)\.$/);
    r.send('/place set village');
    await r.line(/^\[demo\] Moved village to 20 64 17 \(it was at 30 64 -4\)\.$/);
    r.send('/place remove bse');
    await r.line(/^\[demo\] I know no place called 'bse'; my places: base, village\.$/);
    r.send('/place remove village');
    await r.line(/^\[demo\] Forgot village \(20 64 17\)\.$/);
    expect(r.core.places.known('demo').names()).toEqual(['base']);
  });

  it('GIVEN base set and demo 22 blocks from it WHEN it claims "go to base" done THEN the check refuses; once within 2 blocks THEN Done is posted, after a restart too', async () => {
    const r = await start();
    stand(r, 10.5, 64, -2.5);
    r.send('/place set base');
    await r.line(/^\[demo\] Remembered base/);
    stand(r, 20, 64, 17);
    r.send('Goal: go to base');
    await r.line(/^\[demo\] New goal from console: go to base\.$/);
    const engine = r.engines.get('demo') as TestEngine;
    const refused = await waitForRequest(engine, (q) => q.checkFailure !== undefined);
    expect(refused.checkFailure).toBe('you are 22 blocks from base (10 64 -3)');
    expect(r.lines.some((l) => l.startsWith('[demo] Done:'))).toBe(false);

    stand(r, 11.5, 64, -2.5);
    await r.line(/^\[demo\] Done: go to base$/);

    // The place is on disk: a new core on the same folder reads "go to base" the same way.
    await r.core.stop();
    running.splice(running.indexOf(r.core), 1);
    const again = await start(r.dir);
    stand(again, 40, 64, 40);
    again.send('/places');
    await again.line(/^\[demo\] - base: 10 64 -3, 52 blocks away$/);
    again.send('Goal: go to base');
    await again.line(/^\[demo\] New goal from console: go to base\.$/);
    stand(again, 10.5, 64, -3.5);
    await again.line(/^\[demo\] Done: go to base$/);
  });

  it('GIVEN a watcher in a linked group THEN they may list demo’s places but not set or remove one; a stranger may do neither', async () => {
    const r = await start();
    stand(r, 1, 64, 1);
    r.send('/place set base');
    await r.line(/^\[demo\] Remembered base/);
    r.core.links.link('demo', 'telegram:-100', 'watch');
    await r.core.router.runCommand({ ...watcher(), name: 'places', argsText: '' });
    await r.core.router.runCommand({ ...watcher(), name: 'place', argsText: 'set camp' });
    await r.core.router.runCommand({ ...watcher(), name: 'place', argsText: 'remove base' });
    await r.core.router.runCommand({ ...watcher(), dest: 'telegram:-200', name: 'places', argsText: 'demo' });
    const replies = r.core.outbox.pending('telegram').map((p) => p.text);
    expect(replies[0]).toBe('demo remembers 1 place:\n- base: 1 64 1, right here');
    expect(replies[1]).toBe("You can't control demo: ask its owner.");
    expect(replies[2]).toBe("You can't control demo: ask its owner.");
    expect(replies[3]).not.toContain('base');
    expect(r.core.places.known('demo').names()).toEqual(['base']);
  });

  it('GIVEN demo stopped THEN /place set says it is not in the game and stores nothing', async () => {
    const r = await start();
    r.send('/stop');
    await r.line(/^\[demo\] Stopped/);
    r.send('/place set base');
    await r.line(/^\[demo\] demo is not in the game, so it stands nowhere to remember: \/play demo first\.$/);
    expect(r.core.places.known('demo').names()).toEqual([]);
  });

  it('GIVEN demo with places WHEN it is renamed THEN they follow it; WHEN it is removed THEN they go', async () => {
    const r = await start();
    stand(r, 1, 64, 1);
    r.send('/place set base');
    await r.line(/^\[demo\] Remembered base/);
    r.send('/stop');
    await r.line(/^\[demo\] Stopped/);
    r.send('/avatar rename demo steve');
    await r.line(/steve/);
    expect(r.core.places.known('steve').names()).toEqual(['base']);
    r.send('/avatar remove steve steve');
    await r.line(/^\[mindlink\] Removed steve/);
    expect(r.core.store.state.data.places).toEqual([]);
  });
});

/** The first request of `engine` that `match` accepts (already made or still to come). */
async function waitForRequest(engine: TestEngine, match: (q: TestEngine['requests'][number]) => boolean): Promise<TestEngine['requests'][number]> {
  for (let n = 1; ; n++) {
    const q = await engine.nextTurn(n);
    if (match(q)) return q;
  }
}
