import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { MAX_MESSAGE_LENGTH } from '../src/loop/classify.ts';
import { personOf } from '../src/rights.ts';
import type { Command } from './command.ts';

const options = z.object({
  text: z.string().min(1, 'say what the goal is').max(MAX_MESSAGE_LENGTH, `at most ${MAX_MESSAGE_LENGTH} characters`),
  avatar: z.string().optional(),
});

/** `/goal <text> [avatar]`: replace the goal with an owner goal (same as writing `Goal: …`). */
export const goal: Command<typeof options> = {
  name: 'goal',
  description: 'Give an avatar a new goal, e.g. /goal collect 10 oak logs',
  usage: '<text> [avatar]',
  options,
  positional: ['text', 'avatar'],
  rest: 'text',
  async run({ core, chat }, { text, avatar }) {
    const a = core.controlledAvatar(chat, avatar);
    const goalText = text.replace(/\s+/g, ' ').trim();
    if (!goalText) throw new UserError('empty_goal', 'Say what the goal is, e.g. /goal collect 10 oak logs');
    const person = personOf(core.store.state.data, chat.from) ?? core.ensurePerson(chat.from, chat.fromName);
    core.setGoal(a.name, goalText, person.id);
    const stopped = core.displayState(a.name) === 'stopped' ? ` I'm stopped: /play ${a.name} starts me.` : '';
    return { avatar: a.name, text: `New goal from ${chat.fromName}: ${goalText}.${stopped}` };
  },
};
