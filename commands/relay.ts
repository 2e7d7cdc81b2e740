import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  mode: z.enum(['on', 'off'], { error: 'say on or off' }).describe("on: post here what players and the server say in the game; off: stop"),
  avatar: z.string().optional(),
});

/**
 * `/relay on|off [avatar]` (a Discord channel or Telegram chat linked to the avatar): the public chat the avatar hears
 * in the game, posted here a few lines at a time (docs/commands.md "The game's chat").
 */
export const relay: Command<typeof options> = {
  name: 'relay',
  description: "Post here the game's chat an avatar hears (on|off)",
  usage: 'on|off [avatar]',
  access: 'control',
  announce: true,
  options,
  positional: ['mode', 'avatar'],
  // It needs a chat linked to the avatar: the console has none (typed there, it says so).
  offered: (_host, chat) => chat.platform === 'discord' || chat.platform === 'telegram',
  async run({ host, chat }, { mode, avatar }) {
    const a = host.control(chat, avatar);
    if (mode === 'off') {
      return { avatar: a.name, text: a.relayChat(false) ? "No more of the game's chat here." : "The game's chat is not relayed here." };
    }
    return {
      avatar: a.name,
      text: a.relayChat(true)
        ? `Relaying the game's chat here: what players and the server say where I play, a few lines at a time. /relay off ${a.name} ends it.`
        : "The game's chat is relayed here already.",
    };
  },
};
