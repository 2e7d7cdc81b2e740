import { z } from 'zod';
import type { Card } from '../src/chat.ts';
import { formatUsage, statusActions } from '../src/command-words.ts';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/**
 * `/status [avatar]`: state (and the server, where there are several), goal (who set it), position, health, food and a
 * short inventory; for a hybrid avatar, who played its last turn; as a card with buttons where the platform shows one
 * (docs/discord.md "Cards and buttons").
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
    const reason = state === 'dead' ? 'dead — respawning' : wait ? `${state} (${wait})` : down ? `${state} to reconnect (${down})` : refused ? `${state} (${refused})` : state;
    // With several servers, which one it is on (the dashboard shows it too).
    const stateText = host.servers.count() > 1 ? `${reason} · on ${a.record.server}` : reason;
    const lines: string[] = [];
    const fields: Card['fields'] = [];
    if (goal) {
      const who = goal.setBy === 'self' ? 'chosen by me' : `set by ${host.personName(goal.setById)}`;
      lines.push(`${stateText} · goal: ${plainGoal(goal.text)} (${who})`);
      fields.push({ name: 'Goal', value: `${plainGoal(goal.text)} (${who})` });
    } else {
      const none = `no goal${state === 'choosing' ? ' (choosing one)' : ''}`;
      lines.push(`${stateText} · ${none}`);
      fields.push({ name: 'Goal', value: none });
    }
    const tokens = a.usage().current;
    // A goal that asked no model (a hybrid avatar's scripted turns) has no token line.
    if (goal && tokens && (tokens.requests > 0 || tokens.costUsd !== undefined)) {
      lines.push(`tokens this goal: ${formatUsage(tokens, host.llm().prices)}`);
      fields.push({ name: 'Tokens this goal', value: formatUsage(tokens, host.llm().prices) });
    }
    // A hybrid avatar: who played its last turn, the scripted engine or the model.
    const by = a.lastPlayedBy();
    if (by) {
      const played = `${by.model ? `the model (${by.engine} engine)` : 'scripted'} · ${a.record.engine} engine`;
      lines.push(`last turn: ${played}`);
      fields.push({ name: 'Last turn', value: played });
    }
    if (parked.length > 0) {
      const list = parked.map((p) => plainGoal(p.text, 60)).join('; ');
      lines.push(`parked: ${list}`);
      fields.push({ name: 'Parked', value: list });
    }
    const snap = a.snapshot();
    if (snap) {
      const p = snap.position;
      const where = `${Math.round(p.x)} ${Math.round(p.y)} ${Math.round(p.z)} (${snap.dimension})`;
      const health = `${Math.round(snap.health)}/20`;
      const food = `${Math.round(snap.food)}/20`;
      lines.push(`position ${where} · health ${health} · food ${food}`);
      const items = Object.entries(snap.inventory)
        .filter(([, n]) => n > 0)
        .sort((x, y) => y[1] - x[1]);
      const shown = items.slice(0, 8).map(([k, n]) => `${k}×${n}`);
      const inventory = `${shown.length ? shown.join(', ') : 'empty'}${items.length > 8 ? `, +${items.length - 8} more` : ''}`;
      lines.push(`inventory: ${inventory}`);
      fields.push({ name: 'Position', value: where, inline: true }, { name: 'Health', value: health, inline: true }, { name: 'Food', value: food, inline: true });
      fields.push({ name: 'Inventory', value: inventory });
    } else if (state !== 'stopped') {
      lines.push('not in the game right now (connecting)');
      fields.push({ name: 'In the game', value: 'not right now (connecting)' });
    }
    fields.push({ name: 'Server', value: a.record.server, inline: true });
    // Who may steer it from here gets Play or Stop, Refresh and Goal…; anyone else Refresh.
    const card: Card = { title: a.name, state, summary: reason, fields, actions: statusActions(a.name, a.isPlaying(), host.mayControl(chat, a)) };
    return { avatar: a.name, text: lines.join('\n'), card };
  },
};
