import { z } from 'zod';
import { cleanText } from '../src/command-words.ts';
import type { Command } from './command.ts';
import { skillLine } from './skills.ts';

/** What `/skill` does, for the command menus. */
export const SKILL_GROUP = 'Show or remove a skill an avatar wrote';

const options = z.object({
  name: z.string({ error: 'name the skill (/skills lists them)' }).describe('The skill, as /skills names it'),
  avatar: z.string().optional(),
});

/**
 * The code in a block it cannot close: a run of three or more backticks in it is broken by zero-width
 * spaces, so a chat that renders markdown keeps all of it inside the block.
 */
export function codeBlock(code: string): string {
  const safe = cleanText(code).replace(/`{3,}/g, (run) => run.split('').join('\u200b'));
  return `\`\`\`js\n${safe.replace(/\n+$/, '')}\n\`\`\``;
}

/** `/skill show <name> [avatar]`: one kept skill: what it does, takes and must achieve, its runs, and its code. */
export const skillShow: Command<typeof options> = {
  name: 'skill show',
  groupDescription: SKILL_GROUP,
  description: "Show a skill an avatar wrote: what it does, its runs and its code",
  usage: '<name> [avatar]',
  access: 'known',
  options,
  positional: ['name', 'avatar'],
  async run({ host, chat }, { name, avatar }) {
    const a = host.watch(chat, avatar);
    const { skill, code } = await a.learnedSkill(name.trim().toLowerCase());
    const params = Object.entries(skill.params.properties).map(([k, p]) => `${k} (${p.type}${skill.params.required.includes(k) ? '' : ', optional'})`);
    const about = [
      skillLine(skill),
      `params: ${params.length ? params.join(', ') : 'none'} · written for: ${cleanText(skill.goal) || 'no goal'}${skill.postcondition ? ` · must leave: ${cleanText(skill.postcondition)}` : ''}`,
    ];
    return { avatar: a.name, text: `${about.join('\n')}\n${codeBlock(code)}` };
  },
};
