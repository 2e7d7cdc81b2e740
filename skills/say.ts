/**
 * say: one line of in-game chat, paced with the avatar's other lines (`/say`'s too: one a second).
 */
import { z } from 'zod';
import { CHAT_LINE_MAX } from '../src/game/in-game-chat.ts';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, onBot } from './common.ts';

const params = z.object({ text: z.string().min(1).max(2000) });

/** What Minecraft's chat does not take: controls and its formatting sign. */
const UNSAYABLE = /[\u0000-\u001f\u007f-\u009f\u2400-\u2421§]/g;

/** The `say` skill. */
export const say: Skill<typeof params> = {
  id: 'say',
  description: `Say something in the in-game chat (one line, at most ${CHAT_LINE_MAX} characters).`,
  params,
  timeoutMs: 10_000,
  run(game, { text }, signal) {
    return onBot(game, 'say', signal, async (bot) => {
      // A leading slash would run a server command (avatars are operators on the embedded world).
      const line = text.replace(/\s+/g, ' ').replace(UNSAYABLE, '').trim().replace(/^\/+/, '').trim().slice(0, CHAT_LINE_MAX);
      if (line === '') return fail('bad_params', 'nothing to say');
      const outcome = game.say ? await game.say(line) : (bot.chat(line), 'said');
      if (outcome === 'busy') return fail('busy', 'too many lines waiting to be said; try again in a few seconds');
      if (outcome === 'not_in_game') return fail('not_connected', 'not in the game right now');
      return done(`said "${line}"`);
    });
  },
};
