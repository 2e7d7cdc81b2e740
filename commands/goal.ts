import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { impossibleGoal } from '../src/goals/goal-language.ts';
import { isTooLong, MAX_MESSAGE_LENGTH } from '../src/loop/classify.ts';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({
  text: z
    .string({ error: 'say what the goal is' })
    .min(1, 'say what the goal is')
    .refine((t) => !isTooLong(t), `at most ${MAX_MESSAGE_LENGTH} characters`),
  avatar: z.string().optional(),
});

/** What a refused goal leaves as it was, in one sentence. */
function keptGoal(current: string | undefined): string {
  return current ? `Nothing was changed: my goal is still ${plainGoal(current, 120)}.` : 'Nothing was changed.';
}

/** `/goal <text> [avatar]`: replace the goal with an owner goal (same as writing `Goal: …`). */
export const goal: Command<typeof options> = {
  name: 'goal',
  description: 'Give an avatar a new goal, e.g. /goal collect 10 oak logs',
  announce: true,
  usage: '<text> [avatar]',
  access: 'control',
  options,
  positional: ['text', 'avatar'],
  rest: 'text',
  async run({ host, chat }, { text, avatar }) {
    const a = host.control(chat, avatar);
    const goalText = text.replace(/\s+/g, ' ').trim();
    if (!goalText) throw new UserError('empty_goal', 'Say what the goal is, e.g. "Goal: collect 10 oak logs" or /goal collect 10 oak logs.', a.name);
    const never = impossibleGoal(goalText);
    if (never) throw new UserError('impossible_goal', `I can't take that goal: ${never}. ${keptGoal(a.record.goal?.text)}`, a.name);
    const behind = a.setGoal(goalText);
    const stopped = a.isPlaying() ? '' : ` I'm stopped: /play ${a.name} starts me.`;
    const parked = behind ? ` Your message came before the scheduled goal I was on (${plainGoal(behind.text, 80)}), so that one is parked for later.` : '';
    return { avatar: a.name, text: `New goal from ${chat.fromName}: ${goalText}.${stopped}${parked}` };
  },
};
