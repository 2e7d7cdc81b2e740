/**
 * say: one line of in-game chat.
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, onBot } from './common.ts';

const params = z.object({ text: z.string().min(1).max(2000) });

/** Longest chat line the server accepts. */
const MAX_CHAT = 256;

/** The `say` skill. */
export const say: Skill<typeof params> = {
  id: 'say',
  description: 'Say something in the in-game chat (one line, at most 256 characters).',
  params,
  timeoutMs: 5_000,
  run(game, { text }, signal) {
    return onBot(game, 'say', signal, async (bot) => {
      // A leading slash would run a server command (avatars are operators on the embedded world).
      const line = text.replace(/\s+/g, ' ').trim().replace(/^\/+/, '').slice(0, MAX_CHAT);
      bot.chat(line);
      return done(`said "${line}"`);
    });
  },
};
