import { z } from 'zod';
import { isTooLong, MAX_MESSAGE_LENGTH } from '../src/command-words.ts';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';

const options = z.object({
  text: z
    .string({ error: 'say what the goal is' })
    .min(1, 'say what the goal is')
    .refine((t) => !isTooLong(t), `at most ${MAX_MESSAGE_LENGTH} characters`),
  avatar: z.string().optional(),
});

/** `/goal <text> [avatar]`: replace the goal with an owner goal (the host's `setGoal`, as writing `Goal: …` does). */
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
    if (!text.trim()) throw new UserError('empty_goal', 'Say what the goal is, e.g. "Goal: collect 10 oak logs" or /goal collect 10 oak logs.', a.name);
    return a.setGoal(text);
  },
};
