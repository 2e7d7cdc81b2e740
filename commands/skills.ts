import { z } from 'zod';
import { cutText, oneLine } from '../src/text.ts';
import type { Command, KeptSkill } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** One kept skill in a list: name, description, how its runs went, and its last error. */
export function skillLine(s: KeptSkill): string {
  const error = s.lastError ? ` · last error${s.lastError.line ? ` (line ${s.lastError.line})` : ''}: ${cutText(oneLine(s.lastError.message), 80)}` : '';
  return `${s.name} — ${cutText(oneLine(s.description), 100)} · ${s.successes}/${s.runs} runs succeeded${error}`;
}

/** `/skills [avatar]`: the skills an avatar wrote and kept, with how often each succeeded (whoever may see its /status). */
export const skills: Command<typeof options> = {
  name: 'skills',
  description: 'List the skills an avatar wrote and kept, with how often each succeeded',
  usage: '[avatar]',
  access: 'known',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.watch(chat, avatar);
    const kept = await a.learnedSkills();
    if (kept.length === 0) return { avatar: a.name, text: `${a.name} has written no skills yet.` };
    const head = `${a.name} keeps ${kept.length} skill${kept.length === 1 ? '' : 's'} it wrote (/skill show <name> shows one):`;
    return { avatar: a.name, text: [head, ...kept.map((s) => `- ${skillLine(s)}`)].join('\n') };
  },
};
