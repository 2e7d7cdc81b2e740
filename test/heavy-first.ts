/**
 * The order the suite's files start in: the longest first, so the workers finish together instead of one
 * running a long file alone at the end. vitest's own order needs timings from an earlier run on the same
 * machine, and CI starts from a clean clone without them (it then starts the largest files first, which are not
 * the slowest). The seconds are one full run's on the 2-core machine; a file not listed counts as quick.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SECONDS: Readonly<Record<string, number>> = {
  'test/game/survival-skills.test.ts': 165,
  'test/e2e/living-world.e2e.test.ts': 121,
  'test/e2e/sigterm-npm.e2e.test.ts': 108,
  'test/e2e/stop-at-start.e2e.test.ts': 108,
  'test/game/mixed-versions.test.ts': 80,
  'test/game/craft-arrivals.test.ts': 75,
  'test/game/mobs.test.ts': 72,
  'test/e2e/respawn.e2e.test.ts': 60,
  'test/e2e/many-avatars.e2e.test.ts': 58,
  'test/game/furnace.test.ts': 56,
  'test/game/skills.test.ts': 56,
  'test/chaos/chaos.test.ts': 53,
  'test/engines/agents/opencode-engine.test.ts': 110,
  'test/engines/llm-e2e.test.ts': 50,
  'test/game/respawn-loop.test.ts': 45,
  'test/engines/agents/opencode-e2e.test.ts': 30,
  'test/engines/agents/avatar-mcp.test.ts': 30,
  'test/engines/agents/pi-e2e.test.ts': 23,
  'test/engines/agents/claude-code-e2e.test.ts': 16,
  'test/engines/agents/pi-engine.test.ts': 45,
  'test/engines/agents/claude-code-engine.test.ts': 15,
  'test/game/join-while-digging.test.ts': 44,
  'test/engines/scripted-embedded.test.ts': 38,
  'test/game/survival.test.ts': 37,
  'test/bridges/discord-relay.test.ts': 33,
  'test/e2e/hosts.e2e.test.ts': 24,
  'test/e2e/nats-hosts.e2e.test.ts': 80,
  'test/e2e/avatar-leases.e2e.test.ts': 90,
  'test/game/respawn.test.ts': 23,
  'test/e2e/ctrl-c-inventory.e2e.test.ts': 23,
  'test/e2e/crafting.e2e.test.ts': 22,
  'test/e2e/schedule.e2e.test.ts': 20,
  'test/e2e/console.e2e.test.ts': 18,
  'test/e2e/microsoft-sign-in.e2e.test.ts': 16,
  'test/servers/two-servers.test.ts': 14,
  'test/game/crafting.test.ts': 14,
  'test/bridges/telegram-relay.test.ts': 15,
  'test/game/chat-world.test.ts': 14,
  'test/game/restart-mid-goal.test.ts': 13,
  'test/bridges/discord-delivery.test.ts': 11,
  'test/core/stop-answer.test.ts': 11,
  'test/e2e/telegram-start.e2e.test.ts': 11,
  'test/e2e/telegram-kill.e2e.test.ts': 30,
  'test/game/world.test.ts': 10,
  'test/game/respawn-world.test.ts': 10,
  'test/fakes/discord-api.test.ts': 9,
  'test/bridges/telegram-e2e.test.ts': 9,
  'test/game/scale-parts.test.ts': 5,
};

/** A file's measured seconds (0 when it is not listed). */
function weight(spec: TestSpecification): number {
  const rel = spec.moduleId.slice(spec.project.config.root.length).replace(/^\/+/, '');
  return Object.hasOwn(SECONDS, rel) ? (SECONDS[rel] as number) : 0;
}

export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // vitest's order (failed and slow first where it has timings, else the largest files) among equals.
    const base = await super.sort(files);
    return base.map((spec, i) => ({ spec, i, w: weight(spec) })).sort((a, b) => b.w - a.w || a.i - b.i).map((x) => x.spec);
  }
}
