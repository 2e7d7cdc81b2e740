import { z } from 'zod';
import type { ChatContext } from '../src/chat.ts';
import type { Command, CommandHost } from './command.ts';

const options = z.object({});

/** Whether the asker may run the command from this chat (what /help lists). */
function mayRun(command: Command, host: CommandHost, chat: ChatContext): boolean {
  switch (command.access) {
    case 'anyone':
      return true;
    case 'known':
      return host.knows(chat);
    case 'control':
      return host.isAdmin(chat) || host.controlsAny(chat);
    case 'admin':
      return host.isAdmin(chat);
  }
}

/** `/help`: how to talk to an avatar, and the commands the asker may run here. */
export const help: Command<typeof options> = {
  name: 'help',
  description: 'How to talk to your avatars, and the commands',
  usage: '',
  options,
  positional: [],
  access: 'anyone',
  async run({ host, chat, commands }) {
    const lines = [
      'Talk to your avatar: "Goal: collect 10 oak logs" sets its goal; a question ("where are you?") gets an answer;',
      'anything else becomes standing direction (#n). "stop" stops it. With several avatars here, start with a name: "steve: …".',
      ...commands.filter((c) => mayRun(c, host, chat) && (!c.llmOnly || host.llm().offered)).map((c) => `/${c.name}${c.usage ? ` ${c.usage}` : ''} — ${c.description}`),
    ];
    return { avatar: null, text: lines.join('\n') };
  },
};
