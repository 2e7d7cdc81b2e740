/**
 * A fake model for the benchmarks that plays the survival curriculum as well as the scripted engine plans it:
 * it chooses the curriculum's next goal, calls one tool per request (the step the scripted planner would
 * take), says done when the loop's completion check would pass, blocked when there is no step or steps keep
 * failing, and writes a one-line lesson. It reads the avatar's snapshot and goal from the core, as a model
 * reads them from its prompt and `look`. So the llm engine and the hybrid engine's model side play the same
 * game, and the requests they send can be compared. Not a benchmark itself (no default export).
 */
import type { Mindlink } from '../src/core.ts';
import { nextSelfGoal } from '../src/engines/curriculum.ts';
import { planSkill } from '../src/engines/scripted-plan.ts';
import { checkGoal } from '../src/goals/check.ts';
import { parseGoal } from '../src/goals/goal-language.ts';
import { EMBEDDED_CAPABILITIES } from '../src/game/mineflayer-game.ts';
import { lastMessage, lastUserText, textOf, type FakeReply, type FakeScript, type RecordedRequest } from '../test/fakes/openai-api.ts';

/** Failed tool results in one turn after which the model reports blocked. */
const FAILS_BEFORE_BLOCKED = 2;

/** The kind of turn a request belongs to, read from the loop's prompt (the first user text of the turn). */
export function kindOf(text: string): string {
  if (text.includes('You have no goal')) return 'choose';
  if (text.includes('back in the game after a restart')) return 'resume';
  if (text.includes('This is a fresh session')) return 'fresh';
  if (text.includes('Write the lesson')) return 'wrapup';
  if (text.includes('You reported blocked')) return 'blocked';
  if (text.includes('New owner direction')) return 'direction';
  if (text.includes('Your owner asks')) return 'question';
  return 'continue';
}

/** The tool results of the turn a request belongs to (after its last user message). */
function turnResults(req: RecordedRequest): string[] {
  const messages = req.body.messages;
  let i = messages.length - 1;
  while (i >= 0 && messages[i]?.role !== 'user') i--;
  return messages.slice(i + 1).flatMap((m) => (m.role === 'tool' ? [textOf(m.content)] : []));
}

/**
 * The curriculum model of `avatar` on the core `core()` gives (read at each request: the core may restart).
 *
 * @example
 * const llm = await FakeOpenAI.start(curriculumModel(() => running?.core, 'demo'));
 */
export function curriculumModel(core: () => Mindlink | undefined, avatar: string): FakeScript {
  const choose = (c: Mindlink, exclude: string[]): FakeReply => {
    const snap = c.avatars.snapshot(avatar);
    if (!snap) return { content: 'Not in the game yet.\nSTATUS: working' };
    const ended = c.store.record.data.goals.filter((g) => g.avatar === avatar);
    const recent = [...ended.filter((g) => g.outcome === 'done').map((g) => g.text), ...exclude];
    const parked = c.avatars.get(avatar)?.parked.map((p) => p.text) ?? [];
    const goal = nextSelfGoal(snap, EMBEDDED_CAPABILITIES, recent, parked);
    return { content: `Next step of my plan.\nGOAL: ${goal}\nSTATUS: working` };
  };
  return (req) => {
    const c = core();
    if (!c) return { content: 'STATUS: working' };
    const text = lastUserText(req);
    const kind = kindOf(text);
    if (kind === 'question') return { content: 'Working through my survival plan.\nSTATUS: working' };
    if (kind === 'wrapup') return { content: 'Lesson: one step at a time, as planned, works here.\nSTATUS: working' };
    const rec = c.avatars.get(avatar);
    if (kind === 'choose' || !rec?.goal) return choose(c, []);
    const goal = rec.goal;
    if (kind === 'blocked' && lastMessage(req)?.role === 'user') return choose(c, [goal.text]);
    const snap = c.avatars.snapshot(avatar);
    if (!snap) return { content: 'Out of the game for a moment.\nSTATUS: working' };
    const check = checkGoal(goal.text, goal.baseline, snap);
    if (check.checkable && check.met) return { content: `Done: ${check.says}.\nSTATUS: done` };
    const results = turnResults(req);
    // A goal the game cannot check (explore, eat) is done once its step went through.
    if (!check.checkable && results.some((r) => r.startsWith('ok'))) return { content: 'Done.\nSTATUS: done' };
    const failed = results.filter((r) => r.startsWith('failed')).length;
    if (failed >= FAILS_BEFORE_BLOCKED) return { content: 'That keeps failing.\nSTATUS: blocked' };
    const plan = planSkill(parseGoal(goal.text), { text: goal.text, setBy: goal.setBy, baseline: goal.baseline }, snap, EMBEDDED_CAPABILITIES);
    if (!plan) return { content: 'I see no way to do that.\nSTATUS: blocked' };
    return { toolCalls: [{ name: plan.id, arguments: plan.params }] };
  };
}
