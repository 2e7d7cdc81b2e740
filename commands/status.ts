import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { plainGoal } from '../src/loop/goal-text.ts';
import { canWatch } from '../src/rights.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/status [avatar]`: state, goal (who set it), position, health, food and a short inventory. */
export const status: Command<typeof options> = {
  name: 'status',
  description: "Show an avatar's state, goal, position, health, food and inventory",
  usage: '[avatar]',
  options,
  positional: ['avatar'],
  async run({ core, chat }, { avatar }) {
    const a = core.resolveAvatar(chat, avatar);
    if (!canWatch(core.roleFor(chat, a))) throw new UserError('not_allowed', `You can't see ${a.name}'s status.`);
    const state = core.displayState(a.name);
    const lines: string[] = [];
    if (a.goal) {
      const who = a.goal.setBy === 'self' ? 'chosen by me' : `set by ${core.personName(a.goal.setById)}`;
      lines.push(`${state} · goal: ${plainGoal(a.goal.text)} (${who})`);
    } else {
      lines.push(`${state} · no goal${state === 'choosing' ? ' (choosing one)' : ''}`);
    }
    if (a.parked.length > 0) lines.push(`parked: ${a.parked.map((p) => plainGoal(p.text, 60)).join('; ')}`);
    const snap = state === 'stopped' ? undefined : core.game(a.name).snapshot();
    if (snap) {
      const p = snap.position;
      lines.push(`position ${Math.round(p.x)} ${Math.round(p.y)} ${Math.round(p.z)} (${snap.dimension}) · health ${Math.round(snap.health)}/20 · food ${Math.round(snap.food)}/20`);
      const items = Object.entries(snap.inventory)
        .filter(([, n]) => n > 0)
        .sort((x, y) => y[1] - x[1]);
      const shown = items.slice(0, 8).map(([k, n]) => `${k}×${n}`);
      lines.push(`inventory: ${shown.length ? shown.join(', ') : 'empty'}${items.length > 8 ? `, +${items.length - 8} more` : ''}`);
    } else if (state !== 'stopped') {
      lines.push('not in the game right now (connecting)');
    }
    return { avatar: a.name, text: lines.join('\n') };
  },
};
