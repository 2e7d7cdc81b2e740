import { z } from 'zod';
import { LINK_TTL_MS } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({});

/** `/web`: a one-time link that signs you in to the dashboard, sent to you alone. */
export const web: Command<typeof options> = {
  name: 'web',
  description: 'Open the dashboard: a one-time sign-in link, sent only to you',
  usage: '',
  access: 'known',
  options,
  positional: [],
  async run({ host, chat }) {
    const url = host.webSignIn(chat);
    const minutes = Math.round(LINK_TTL_MS / 60_000);
    return {
      avatar: null,
      text: `Your dashboard: ${url}\nIt works once, for ${minutes} minutes, and signs in as you: don't pass it on.`,
      private: true,
    };
  },
};
