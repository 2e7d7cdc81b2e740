import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  engine: z.enum(['scripted', 'llm', 'hybrid'], { error: 'the engine is "scripted", "llm" or "hybrid"' }),
  avatar: z.string().optional(),
});

/**
 * `/engine <scripted|llm|hybrid> [avatar]`: the owner or an admin switches an avatar's engine; stored, so it survives a
 * restart. Switching builds the engine anew (a hybrid engine whose model refused asks it again).
 */
export const engine: Command<typeof options> = {
  name: 'engine',
  description: "Switch an avatar's engine (owner or admin)",
  usage: '<scripted|llm|hybrid> [avatar]',
  access: 'own',
  llmOnly: true,
  options,
  positional: ['engine', 'avatar'],
  async run({ host, chat }, { engine: kind, avatar }) {
    const a = host.control(chat, avatar);
    const model = kind !== 'scripted' && host.llm().model ? ` (${host.llm().model})` : '';
    if (a.record.engine === kind) return { avatar: a.name, text: `Already on the ${kind} engine${model}.` };
    await a.setEngine(kind);
    return { avatar: a.name, text: `Switched to the ${kind} engine${model}.${a.isPlaying() ? ' Carrying on with my goal.' : ''}` };
  },
};
