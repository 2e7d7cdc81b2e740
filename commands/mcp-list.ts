import { z } from 'zod';
import { isoDay } from '../src/command-words.ts';
import type { Command } from './command.ts';
import { MCP_GROUP } from './mcp-new.ts';

const options = z.object({});

/** `/mcp list`: the sender's MCP tokens by label, when each was made and last used (never the tokens). */
export const mcpList: Command<typeof options> = {
  name: 'mcp list',
  groupDescription: MCP_GROUP,
  description: 'List your MCP tokens: label, when made, when last used',
  usage: '',
  access: 'known',
  mcpOnly: true,
  options,
  positional: [],
  async run({ host, chat }) {
    const mine = host.mcp.list(chat);
    if (mine.length === 0) return { avatar: null, text: 'You have no MCP tokens. /mcp new, sent to me in a direct message, gives you one.', private: true };
    const lines = mine.map((t) => `${t.label}: made ${isoDay(t.createdAt)}, ${t.lastUsedAt ? `last used ${isoDay(t.lastUsedAt)}` : 'never used'}`);
    return { avatar: null, text: [`Your MCP tokens (/mcp revoke <label> ends one):`, ...lines].join('\n'), private: true };
  },
};
