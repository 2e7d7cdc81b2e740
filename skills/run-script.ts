/**
 * run_script: run one skill script (docs/skills.md) on the avatar's game, in
 * the sandbox of `src/game/sandbox/`. It travels like any skill call (on the
 * avatar's host when there are hosts), with the runner's abort and time-out;
 * the skills the script calls run through the same registry. Offered to no
 * engine as a tool: the learned skills (`src/learned/`) run scripts through it.
 */
import { z } from 'zod';
import { runScript } from '../src/game/sandbox/sandbox.ts';
import { RUN_SCRIPT, SCRIPT_DEFAULT_TIMEOUT_MS, SCRIPT_MAX_CHARS, SCRIPT_MAX_TIMEOUT_MS } from '../src/game/sandbox/script-api.ts';
import type { Skill, SkillRegistry } from '../src/game/skill.ts';

const params = z.object({
  code: z.string().min(1).max(SCRIPT_MAX_CHARS),
  params: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: z.number().int().min(100).max(SCRIPT_MAX_TIMEOUT_MS).default(SCRIPT_DEFAULT_TIMEOUT_MS),
});

/**
 * The `run_script` skill of one avatar's registry: the skills its scripts call are `registry`'s.
 *
 * @example
 * const r = await runSkill(scriptRunner(registry), game, { code: "await say({ text: 'hi' })" }, signal);
 */
export function scriptRunner(registry: SkillRegistry): Skill<typeof params> {
  return {
    id: RUN_SCRIPT,
    description: 'Run a skill script: the body of an async function over the skills, the queries and sleep (docs/skills.md).',
    params,
    // The script keeps its own time (its `timeoutMs`); this is the runner's outer bound.
    timeoutMs: SCRIPT_MAX_TIMEOUT_MS + 5_000,
    run: (game, p, signal) => runScript(game, registry, { code: p.code, params: p.params, timeoutMs: p.timeoutMs }, signal),
  };
}
