/**
 * The end-to-end test of one agent engine, shared by the three files
 * `<cli>-e2e.test.ts` (one per CLI, so they run side by side): the real core
 * (goal loop, store, console bridge), the embedded world with a real
 * mineflayer avatar, the real skills, mindlink's MCP server, and the real CLI
 * from npm against a fake model. `Goal: collect 2 oak logs` → the agent calls
 * the MCP `collect` → `Done:`; a restart resumes the same session; `/stop`
 * mid-turn ends the CLI and leaves no process; an out-of-credit answer stops
 * the avatar.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../src/chat.ts';
import { parseConfig } from '../../../src/config.ts';
import type { Mindlink } from '../../../src/core.ts';
import type { AgentKind } from '../../../src/engines/agents/agent-cli.ts';
import type { EmbeddedWorld } from '../../../src/game/embedded/embedded-world.ts';
import { startCoreOnWorld } from '../../game/core-on-world.ts';
import { startWorld, tempDataDir, testLogger, waitFor } from '../../game/helpers.ts';
import { fakeModel, processesIn, suite, type FakeModel } from './agent-helpers.ts';

const log = testLogger();

interface Running {
  core: Mindlink;
  lines: string[];
  send(line: string): void;
  until(cond: () => boolean, what: string, ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The end-to-end suite of one CLI.
 *
 * @example
 * agentEndToEnd('pi');
 */
export function agentEndToEnd(kind: AgentKind): void {
  const s = suite(kind);
  describe.skipIf(s.skip)(`the ${s.title} engine end to end (core + embedded world + MCP + the real CLI + a fake model)`, () => {
    let world: EmbeddedWorld;
    let model: FakeModel;
    const worldDir = tempDataDir(`${kind}-world`);
    const cleanups: (() => Promise<void> | void)[] = [];

    beforeAll(async () => {
      world = await startWorld(worldDir.dir, log);
      await world.setMobSpawning({ animals: false, monsters: false });
      model = await fakeModel(kind);
    }, 60_000);

    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    }, 60_000);

    afterAll(async () => {
      await model?.close();
      await world?.stop();
      worldDir.remove();
    }, 60_000);

    /** A core whose demo avatar plays with this engine, on `dataDir`. */
    async function start(dataDir: string): Promise<Running> {
      const config = parseConfig({ DATA_DIR: dataDir, ENGINE: kind, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000', AGENT_TIMEOUT_MS: '120000', ...model.env });
      const lines: string[] = [];
      const { core, stdin } = await startCoreOnWorld({ world: () => world, config, log, lines });
      let stopped = false;
      const stop = async (): Promise<void> => {
        if (stopped) return;
        stopped = true;
        await core.stop();
      };
      cleanups.push(stop);
      return {
        core,
        lines,
        send: (line) => stdin.write(`${line}\n`),
        until: async (cond, what, ms = 120_000) => {
          try {
            await waitFor(cond, ms, what);
          } catch (err) {
            throw new Error(`${(err as Error).message}\nchat:\n${lines.join('\n')}\nrequests: ${model.count()}`);
          }
        },
        stop,
      };
    }

    const sessionOf = (dataDir: string): string | null => (JSON.parse(readFileSync(join(dataDir, 'avatars', 'demo', `${kind}-session.json`), 'utf8')) as { id: string | null }).id;

    it('GIVEN "Goal: collect 2 oak logs" THEN the agent calls the MCP collect tool, the world changes, Done: is posted, /usage shows the cost; and after a restart the same session goes on', async () => {
      const data = tempDataDir(`${kind}-e2e`);
      cleanups.push(() => data.remove());
      model.answer('collect');
      const t0 = performance.now();
      const r = await start(data.dir);
      await r.until(() => r.core.avatars.displayState('demo') !== 'waiting', 'demo to join', 60_000);
      const before = r.core.avatars.snapshot('demo')?.inventory.oak_log ?? 0;
      r.send('Goal: collect 2 oak logs');
      await r.until(() => r.lines.includes('[demo] Done: collect 2 oak logs'), 'Done');
      const done = performance.now();
      expect(r.core.avatars.snapshot('demo')?.inventory.oak_log ?? 0).toBeGreaterThanOrEqual(before + 2);
      expect(model.toolResults().some((t) => /^ok done: /.test(t))).toBe(true);
      // The thought stream has the turn: the tool call and the agent's words around it.
      const owner: InboundMessage = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null, text: '' };
      const thoughts = (await r.core.dashboard.details(owner, 'demo')).thoughts?.map((t) => t.text) ?? [];
      expect(thoughts.some((t) => / · collect ok · done — Going for the logs\. … I have the 2 logs now\.$/.test(t)), JSON.stringify(thoughts)).toBe(true);
      r.send('/usage');
      await r.until(() => r.lines.some((l) => l.startsWith('[demo] in all: ')), '/usage');
      expect(r.lines).toContain(`[demo] Usage of demo (${kind} engine):`);
      expect(r.lines.find((l) => l.startsWith('[demo] in all: '))).toMatch(/^\[demo\] in all: [\d,]+ in \+ [\d,]+ out tokens \(\d+ requests\) ≈ \$\d+\.\d+$/);
      const id = sessionOf(data.dir);
      expect(id).toEqual(expect.any(String));
      await r.stop();
      expect(processesIn(join(data.dir, 'avatars'))).toEqual([]);

      const asked = model.count();
      const again = await start(data.dir);
      await again.until(() => model.count() > asked, 'the first request after the restart', 120_000);
      // The CLI resumed its session: the conversation before the restart comes with the first request after it.
      expect(model.texts(asked + 1).some((t) => t.includes('I have the 2 logs now.'))).toBe(true);
      await again.stop();
      expect(sessionOf(data.dir)).toBe(id);
      log.info({ kind, toDoneMs: Math.round(done - t0), totalMs: Math.round(performance.now() - t0) }, 'agent e2e: goal to Done and a restart');
    }, 300_000);

    it('GIVEN a turn waiting on the model WHEN the owner says /stop THEN the CLI is gone by the time the stop is answered, nothing is left running, and no further request comes; and an out-of-credit answer stops the avatar', async () => {
      const data = tempDataDir(`${kind}-stop`);
      cleanups.push(() => data.remove());
      const avatars = join(data.dir, 'avatars');
      model.answer('hang');
      const asked = model.count();
      const r = await start(data.dir);
      await r.until(() => model.count() > asked, 'a request of the first turn', 120_000);
      expect(processesIn(avatars).length).toBeGreaterThan(0);
      const t0 = performance.now();
      r.send('/stop');
      await r.until(() => r.lines.includes('[demo] Stopped. My goal is kept: /play resumes it.'), 'the stop answer', 30_000);
      const stopMs = Math.round(performance.now() - t0);
      expect(processesIn(avatars)).toEqual([]);
      const after = model.count();
      expect(r.core.avatars.displayState('demo')).toBe('stopped');

      model.answer('refuse');
      r.send('/play');
      await r.until(() => r.lines.some((l) => /^\[demo\] Stopped: the model provider refused: .*(quota|credit)/i.test(l)), 'the refusal stop line', 120_000);
      expect(r.core.avatars.get('demo')?.playing).toBe(false);
      expect(processesIn(avatars)).toEqual([]);
      await r.stop();
      // Only the refused request came after the stop: none of the stopped turn's.
      expect(model.count() - after).toBeLessThanOrEqual(kind === 'pi' ? 2 : 1);
      log.info({ kind, stopMs }, 'agent e2e: /stop answered with the CLI gone');
    }, 300_000);
  });
}
