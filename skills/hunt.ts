/**
 * hunt: kill animals for what they drop (raw beef, porkchop, mutton, chicken, leather, wool, feathers) until
 * N more of it are carried, picking up the drops.
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, onBot } from './common.ts';
import { countCarried, itemQuery, matchesItem } from './items.ts';
import { fightUntilGone, pickUpAround } from './melee.ts';

const params = z.object({
  item: z.string().min(1).max(64).optional().describe('what to get: beef, porkchop, mutton, chicken, leather, wool, feather'),
  animal: z.string().min(1).max(32).optional().describe('cow, pig, sheep or chicken'),
  count: z.number().int().min(1).max(64).default(1).describe('how many more items (or kills, with no item)'),
});

/** What each animal drops (vanilla). */
export const ANIMAL_DROPS: Readonly<Record<string, readonly string[]>> = {
  cow: ['beef', 'leather'],
  pig: ['porkchop'],
  sheep: ['mutton', 'white_wool'],
  chicken: ['chicken', 'feather'],
};

/** How far hunt looks for animals. */
const RANGE = 48;
/** Animals that may run off before the hunt gives up. */
const MAX_ESCAPES = 5;

/** The animals that drop `item` (a name or group such as wool), or every animal for none. */
export function animalsFor(item: string | undefined): string[] {
  if (item === undefined) return Object.keys(ANIMAL_DROPS);
  const q = itemQuery(item);
  return Object.entries(ANIMAL_DROPS)
    .filter(([, drops]) => drops.some((d) => matchesItem(q, d) || (q.endsWith('_wool') && d.endsWith('_wool'))))
    .map(([animal]) => animal);
}

function nearestAnimal(bot: Bot, kinds: readonly string[]): Entity | null {
  const me = bot.entity.position;
  return bot.nearestEntity((e) => kinds.includes(e.name ?? '') && e.position.distanceTo(me) <= RANGE);
}

/** The `hunt` skill. */
export const hunt: Skill<typeof params> = {
  id: 'hunt',
  description: 'Kill animals (cow, pig, sheep, chicken) within 48 blocks for their drops until count more of item are carried.',
  params,
  timeoutMs: 180_000,
  run(game, { item, animal, count }, signal) {
    // Counted from the first attempt: a hunt a reflex interrupted takes up again toward the same total.
    let start: number | undefined;
    let kills = 0;
    return onBot(game, 'hunt', signal, async (bot, sig) => {
      const kinds = animal ? [animal] : animalsFor(item);
      if (animal && !ANIMAL_DROPS[animal]) return fail('bad_params', `${animal} is not an animal I hunt (cow, pig, sheep, chicken)`);
      if (kinds.length === 0) return fail('bad_params', `no animal drops ${item}`);
      start ??= item ? countCarried(bot, item) : 0;
      const got = (): number => (item ? countCarried(bot, item) - (start ?? 0) : kills);
      let escapes = 0;
      while (got() < count) {
        const prey = nearestAnimal(bot, kinds);
        if (!prey) return fail('no_target', `no ${kinds.join(' or ')} within ${RANGE} blocks (got ${got()} of ${count})`);
        const outcome = await fightUntilGone(bot, prey, sig, RANGE);
        if (!outcome.killed) {
          if (++escapes >= MAX_ESCAPES) return fail('no_target', `the ${prey.name} keep running off (got ${got()} of ${count})`);
          continue;
        }
        kills++;
        await pickUpAround(bot, outcome.where, sig);
      }
      return done(item ? `hunted ${got()} ${item} (now carrying ${countCarried(bot, item)})` : `hunted ${kills} ${kinds.join('/')}`);
    });
  },
};
