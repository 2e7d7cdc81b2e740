/**
 * The skill runner: validates params, checks preconditions, enforces the
 * timeout, honours the caller's abort signal, and turns a throw into a
 * result with code `threw`. Every caller (scripted engine, LLM tools,
 * reflexes) runs skills through it.
 */
import type { AvatarGame } from '../src/game/game.ts';
import type { Skill, SkillResult } from '../src/game/skill.ts';

/**
 * Run one skill to its result; never throws.
 *
 * @example
 * const r = await runSkill(collect, game, { block: 'oak_log', count: 3 }, signal);
 * if (!r.ok) log.info({ code: r.code }, r.detail);
 */
export async function runSkill(skill: Skill, game: AvatarGame, rawParams: unknown, signal: AbortSignal): Promise<SkillResult> {
  const parsed = skill.params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'bad_params', detail: `${skill.id}: ${issue?.path.join('.') || 'params'} ${issue?.message ?? 'invalid'}` };
  }
  if (signal.aborted) return { ok: false, code: 'aborted', detail: `${skill.id} was stopped before it began` };
  if (game.state !== 'connected' || !game.bot) return { ok: false, code: 'not_connected', detail: 'not in the game right now' };
  const pre = skill.preconditions?.(game, parsed.data);
  if (pre) return pre;

  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<SkillResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve({ ok: false, code: 'timeout', detail: `${skill.id} took longer than ${Math.round(skill.timeoutMs / 1000)} s` });
    }, skill.timeoutMs);
    controller.signal.addEventListener(
      'abort',
      () => {
        if (signal.aborted) resolve({ ok: false, code: 'aborted', detail: `${skill.id} was stopped` });
      },
      { once: true },
    );
  });
  try {
    const run = skill.run(game, parsed.data, controller.signal).catch(
      (err: unknown): SkillResult => ({ ok: false, code: 'threw', detail: `${skill.id} failed: ${(err as Error)?.message ?? String(err)}` }),
    );
    return await Promise.race([run, stopped]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    if (!controller.signal.aborted) controller.abort(new Error('finished'));
  }
}
