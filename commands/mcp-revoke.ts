import { z } from 'zod';
import type { Command } from './command.ts';
import { MCP_GROUP } from './mcp-new.ts';

const options = z.object({
  label: z.string().optional().describe('The token to end (/mcp list shows them); all of yours when left out'),
});

/** `/mcp revoke [label]`: end one of the sender's MCP tokens, or all of them; a revoked token is refused from its next request. */
export const mcpRevoke: Command<typeof options> = {
  name: 'mcp revoke',
  groupDescription: MCP_GROUP,
  description: 'End one of your MCP tokens by its label, or all of them',
  usage: '[label|all]',
  access: 'known',
  mcpOnly: true,
  options,
  positional: ['label'],
  async run({ host, chat }, { label }) {
    const ended = host.mcp.revoke(chat, label);
    if (ended.length === 0) return { avatar: null, text: 'You have no MCP tokens.' };
    if (label !== undefined && label.trim().toLowerCase() !== 'all') return { avatar: null, text: `Revoked ${ended.join(', ')}: it no longer works.` };
    return { avatar: null, text: `Revoked your ${ended.length === 1 ? 'MCP token' : `${ended.length} MCP tokens`} (${ended.join(', ')}): ${ended.length === 1 ? 'it no longer works' : 'they no longer work'}.` };
  },
};
