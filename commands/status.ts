import { z } from 'zod';
import { formatUsage } from '../src/command-words.ts';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/**
 * `/status [avatar]`: state (and the server, where there are several), goal (who set it), position, health, food and a
 * short inventory; for a hybrid avatar, who played its last turn.
 */
export const status: Command<typeof options> = {
  name: 'status',
  description: "Show an avatar's state, goal, position, health, food and inventory",
  usage: '[avatar]',
  access: 'known',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.watch(chat, avatar);
    const { goal, parked } = a.record;
    const state = a.state();
    // While it is out of the game, say why and that it is coming back; once refused for good, why.
    const wait = a.waitReason();
    const down = a.downReason();
    const refused = a.stopReason();
    const reason = wait ? `${state} (${wait})` : down ? `${state} to reconnect (${down})` : refused ? `${state} (${refused})` : state;
    // With several servers, which one it is on (the dashboard shows it too).
    const stateText = host.servers.count() > 1 ? `${reason} · on ${a.record.server}` : reason;
    const lines: string[] = [];
    if (goal) {
      const who = goal.setBy === 'self' ? 'chosen by me' : `set by ${host.personName(goal.setById)}`;
      lines.push(`${stateText} · goal: ${plainGoal(goal.text)} (${who})`);
    } else {
      lines.push(`${stateText} · no goal${state === 'choosing' ? ' (choosing one)' : ''}`);
    }
    const tokens = a.usage().current;
    if (goal && tokens && tokens.requests > 0) lines.push(`tokens this goal: ${formatUsage(tokens, host.llm().prices)}`);
    // A hybrid avatar: who played its last turn, the scripted engine or the model.
    const by = a.lastPlayedBy();
    if (by) lines.push(`last turn: ${by.model ? `the model (${by.engine} engine)` : 'scripted'} · ${a.record.engine} engine`);
    if (parked.length > 0) lines.push(`parked: ${parked.map((p) => plainGoal(p.text, 60)).join('; ')}`);
    const snap = a.snapshot();
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
