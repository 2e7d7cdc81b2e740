/**
 * An avatar keeps no light levels. A server sends the sky and block light of
 * the 16-block sections of every chunk column it sends (2 KB a section and
 * kind), and mineflayer keeps them in the bot's columns: on the embedded
 * world more than half of the bytes an avatar holds for the world around it.
 * Nothing an avatar does reads them (skills, reflexes, the pathfinder,
 * physics, snapshots and views read blocks and their states), so the light
 * arrays of `map_chunk` (1.18+) and `update_light` (1.17+) are emptied before
 * mineflayer reads them: every block's `light` and `skyLight` read 0. Older
 * versions, which send light inside the chunk data, keep theirs.
 */
import type { Bot } from 'mineflayer';

/** A packet's light fields, as minecraft-protocol reads them on 1.17+ (masks are arrays of [high, low] longs). */
interface LightFields {
  skyLight?: unknown[] | undefined;
  blockLight?: unknown[] | undefined;
  skyLightMask?: unknown[];
  blockLightMask?: unknown[];
  emptySkyLightMask?: unknown[];
  emptyBlockLightMask?: unknown[];
}

/** Masks that name no section (as long as the ones given). */
function none(mask: unknown[] | undefined): Array<[number, number]> {
  return (mask ?? []).map(() => [0, 0]);
}

/**
 * Empty the light of the chunk packets this bot's client reads, before mineflayer's own listeners see them.
 *
 * @example
 * const bot = mineflayer.createBot(options);
 * dropLight(bot);
 */
export function dropLight(bot: Bot): void {
  const client = bot._client as unknown as NodeJS.EventEmitter;
  client.prependListener('map_chunk', (packet: LightFields) => {
    // mineflayer loads light from a 1.18+ column packet only when it carries some.
    if (packet.skyLight === undefined) return;
    packet.skyLight = undefined;
    packet.blockLight = undefined;
  });
  client.prependListener('update_light', (packet: LightFields) => {
    // 1.17+: the sections named by the masks; older packets carry their light in one buffer, kept.
    if (!Array.isArray(packet.skyLight)) return;
    packet.skyLightMask = none(packet.skyLightMask);
    packet.blockLightMask = none(packet.blockLightMask);
    packet.emptySkyLightMask = none(packet.emptySkyLightMask);
    packet.emptyBlockLightMask = none(packet.emptyBlockLightMask);
    packet.skyLight = [];
    packet.blockLight = [];
  });
}
