import { z } from 'zod';
import type { Command } from './command.ts';
import { SKILL_GROUP } from './skill-show.ts';

const options = z.object({
  name: z.string({ error: 'name the skill to remove (/skills lists them)' }).describe('The skill to remove'),
  avatar: z.string().optional(),
});

/** `/skill remove <name> [avatar]`: drop a skill an avatar wrote (its owner, a pilot or an admin). */
export const skillRemove: Command<typeof options> = {
  name: 'skill remove',
  groupDescription: SKILL_GROUP,
  description: 'Drop a skill an avatar wrote, so it is not offered or run again',
  usage: '<name> [avatar]',
  access: 'control',
  options,
  positional: ['name', 'avatar'],
  async run({ host, chat }, { name, avatar }) {
    const a = host.control(chat, avatar);
    const skill = name.trim().toLowerCase();
    await a.removeLearnedSkill(skill);
    return { avatar: a.name, text: `Removed the skill ${skill}: ${a.name} will not use it again.` };
  },
};
