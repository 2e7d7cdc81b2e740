import { z } from 'zod';
import { formatTurns, formatUsage, modelShown } from '../src/command-words.ts';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** How many ended goals `/usage` lists. */
const GOALS_SHOWN = 5;

/**
 * `/usage [avatar]`: model tokens in all, for the current goal and the last goals, and the cost when prices are set;
 * for a hybrid avatar, its turns by who played them (the scripted engine or the model).
 */
export const usage: Command<typeof options> = {
  name: 'usage',
  description: 'Model tokens an avatar used: in all, per goal, and the cost when prices are set',
  usage: '[avatar]',
  access: 'control',
  llmOnly: true,
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.control(chat, avatar);
    const { model, prices, hybridModel } = host.llm();
    const used = a.usage();
    const shown = modelShown(a.record.engine, model, hybridModel);
    const engineLine = `${a.record.engine} engine${shown ? `, ${shown}` : ''}`;
    if (!used.total || used.total.requests === 0) {
      const turns = used.total?.turns ? ` (${formatTurns(used.total.turns)})` : '';
      return { avatar: a.name, text: `${a.name} (${engineLine}) has used no model tokens yet${turns}.` };
    }
    const lines = [`Usage of ${a.name} (${engineLine}):`, `in all: ${formatUsage(used.total, prices)}`];
    const goal = a.record.goal;
    if (goal && used.current) lines.push(`current goal (${plainGoal(goal.text, 80)}): ${formatUsage(used.current, prices)}`);
    const ended = used.ended.slice(-GOALS_SHOWN).reverse();
    if (ended.length > 0) {
      lines.push('last goals:');
      for (const g of ended) lines.push(`- ${g.outcome}: ${plainGoal(g.text, 60)} — ${formatUsage(g.usage, prices)}`);
    }
    if (prices.inPerMillion === undefined && prices.outPerMillion === undefined && used.total.costUsd === undefined) {
      lines.push('(set LLM_PRICE_IN and LLM_PRICE_OUT, per million tokens, to see the cost)');
    }
    return { avatar: a.name, text: lines.join('\n') };
  },
};
