/**
 * shelter: hide from monsters: dig three blocks straight down, close the hole over the head, wait until no
 * hostile has come within 12 blocks for 10 s or the sun is up (at most `waitSeconds`), then open it and climb
 * out (jumping and placing a block under the feet, three times). A zombie standing on the lid is three blocks above and cannot reach.
 */
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import { isDaytime } from '../src/game/night.ts';
import type { Skill } from '../src/game/skill.ts';
import { isHostile } from '../src/game/snapshot.ts';
import { pillarUp, roofOver } from './climb.ts';
import { done, fail, onBot, sleep } from './common.ts';
import { closeAbove, digDown } from './dig-in.ts';

const params = z.object({ waitSeconds: z.number().int().min(5).max(300).default(300).describe('longest wait inside') });

const DEPTH = 3;
/** No hostile this close for CALM_MS: it is safe to come out. */
const CALM_WITHIN = 12;
const CALM_MS = 10_000;

/** The `shelter` skill. */
export const shelter: Skill<typeof params> = {
  id: 'shelter',
  description: 'Hide from monsters: dig in three blocks deep, close the hole, wait until it is calm or day (at most waitSeconds), then climb out.',
  params,
  timeoutMs: 300_000 + 60_000,
  run(game, { waitSeconds }, signal) {
    return onBot(game, 'shelter', signal, async (bot, sig) => {
      const top = bot.entity.position.floored();
      for (let i = 1; i <= DEPTH; i++) {
        const why = await digDown(bot, top.offset(0, -i, 0), sig);
        if (why) return fail('unreachable', why);
      }
      const lid = top.offset(0, -1, 0);
      const closed = await closeAbove(bot, lid);
      if (closed) return fail(closed.code, closed.why);

      const started = Date.now();
      let calmSince = Date.now();
      while (Date.now() - started < waitSeconds * 1000) {
        const me = bot.entity.position;
        if (bot.nearestEntity((e) => isHostile(e) && e.position.distanceTo(me) <= CALM_WITHIN)) calmSince = Date.now();
        if (Date.now() - calmSince >= CALM_MS || isDaytime(bot.time.timeOfDay)) break;
        await sleep(500, sig);
      }
      const waited = Math.round((Date.now() - started) / 1000);
      const cover = bot.blockAt(lid);
      if (cover && cover.boundingBox === 'block') await bot.dig(cover, true);
      const out = await pillarUp(bot, top.y, sig);
      if (out) return fail('unreachable', `sheltered ${waited} s, but ${out}`);
      return done(`sheltered ${waited} s, then climbed out`);
    });
  },
};

/**
 * Whether the bot is under a roof: ground somewhere over its head (a tunnel, its own shelter), not the open sky, an
 * open shaft or a tree's leaves.
 */
export function underRoof(bot: Bot): boolean {
  return roofOver(bot) !== null;
}
