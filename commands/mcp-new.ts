import { z } from 'zod';
import type { Command } from './command.ts';

/** What the `/mcp` group does, for the command menus. */
export const MCP_GROUP = 'Use your avatars from an MCP client (Claude Desktop, an IDE): its tokens';

const options = z.object({
  label: z.string().optional().describe('A name for the token, e.g. laptop'),
});

/** `/mcp new [label]`: a token for the people's MCP server (docs/mcp.md), shown once, to the sender alone. */
export const mcpNew: Command<typeof options> = {
  name: 'mcp new',
  groupDescription: MCP_GROUP,
  description: 'A token for your MCP client: it acts as you do here (direct messages only)',
  usage: '[label]',
  access: 'known',
  mcpOnly: true,
  options,
  positional: ['label'],
  async run({ host, chat }, { label }) {
    const made = host.mcp.issue(chat, label);
    return {
      avatar: null,
      text: [
        `Your MCP token ${made.label}: ${made.token}`,
        `Server: ${made.url} (Streamable HTTP; send the token as the header Authorization: Bearer <token>).`,
        `It acts as you do in this chat until /mcp revoke ${made.label}, and I show it only this once: don't pass it on.`,
      ].join('\n'),
      private: true,
    };
  },
};
