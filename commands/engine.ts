import { z } from 'zod';
import { ENGINE_KINDS, modelShown } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({
  engine: z.enum(ENGINE_KINDS, { error: `the engine is one of: ${ENGINE_KINDS.join(', ')}` }),
  avatar: z.string().optional(),
});

/**
 * `/engine <scripted|llm|hybrid|opencode|claude-code|pi> [avatar]`: the owner or an admin switches an avatar's engine;
 * stored, so it survives a restart. Switching builds the engine anew (a hybrid engine whose model refused asks it
 * again). An engine that cannot run here (no model set, its CLI not installed) is refused, naming what it needs.
 */
export const engine: Command<typeof options> = {
  name: 'engine',
  description: "Switch an avatar's engine (owner or admin)",
  usage: `<${ENGINE_KINDS.join('|')}> [avatar]`,
  access: 'own',
  llmOnly: true,
  options,
  positional: ['engine', 'avatar'],
  async run({ host, chat }, { engine: kind, avatar }) {
    const a = host.control(chat, avatar);
    const { model: llmModel, hybridModel } = host.llm();
    const shown = modelShown(kind, llmModel, hybridModel);
    const model = shown ? ` (${shown})` : '';
    if (a.record.engine === kind) return { avatar: a.name, text: `Already on the ${kind} engine${model}.` };
    await a.setEngine(kind);
    return { avatar: a.name, text: `Switched to the ${kind} engine${model}.${a.isPlaying() ? ' Carrying on with my goal.' : ''}` };
  },
};
