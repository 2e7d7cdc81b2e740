import { z } from 'zod';
import type { ChatContext } from '../src/chat.ts';
import type { Command, CommandHost } from './command.ts';

const options = z.object({ topic: z.string().optional() });

/** Whether the asker may run the command from this chat (what /help lists): its access, and where it can work at all. */
function mayRun(command: Command, host: CommandHost, chat: ChatContext): boolean {
  if (command.offered && !command.offered(host, chat)) return false;
  switch (command.access) {
    case 'anyone':
      return true;
    case 'known':
      return host.knows(chat);
    case 'control':
      return host.isAdmin(chat) || host.controlsAny(chat);
    case 'own':
      return host.isAdmin(chat) || host.ownsAny(chat);
    case 'admin':
      return host.isAdmin(chat);
  }
}

/** How to talk to an avatar, as far as the asker may: steering for who controls one, asking for who watches one. */
function intro(host: CommandHost, chat: ChatContext): string[] {
  if (host.isAdmin(chat) || host.controlsAny(chat)) {
    return [
      'Talk to your avatar: "Goal: collect 10 oak logs" sets its goal; a question ("where are you?") gets an answer;',
      'anything else becomes standing direction (#n). "stop" stops it. With several avatars here, start with a name: "steve: …".',
    ];
  }
  if (host.visible(chat).length > 0) {
    return ['Ask an avatar here a question ("where are you?") and it answers; /status shows what it is doing. Its owner gives it goals and direction.'];
  }
  return ['mindlink runs Minecraft avatars that their owners talk to from chat. None answers you here: ask an admin of this mindlink for one.'];
}

/** `/help [command]`: how to talk to an avatar, and the commands the asker may run here; `/help goal` the one command. */
export const help: Command<typeof options> = {
  name: 'help',
  description: 'How to talk to your avatars, and the commands',
  usage: '[command]',
  options,
  positional: ['topic'],
  rest: 'topic',
  access: 'anyone',
  async run({ host, chat, commands }, { topic }) {
    const all = commands.filter((c) => mayRun(c, host, chat) && (!c.llmOnly || host.llm().offered) && (!c.mcpOnly || host.mcp.url !== null)).map((c) => ({ name: c.name, line: `/${c.name}${c.usage ? ` ${c.usage}` : ''} — ${c.description}` }));
    const wanted = topic?.trim().replace(/^\//, '').split(/\s+/)[0]?.toLowerCase().slice(0, 32);
    // `/help avatar` shows every command of the group (`/avatar create`, `/avatar remove` …).
    const some = wanted ? all.filter((c) => c.name === wanted || c.name.startsWith(`${wanted} `)) : [];
    if (some.length > 0) return { avatar: null, text: some.map((c) => c.line).join('\n') };
    const lines = [
      ...(wanted ? [`There is no /${wanted} command you can use here; these are the ones you can.`] : []),
      ...intro(host, chat),
      ...all.map((c) => c.line),
    ];
    return { avatar: null, text: lines.join('\n') };
  },
};
