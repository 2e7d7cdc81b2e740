/**
 * Which tools a turn of the llm engine offers, over the production skill registry: by the avatar's state
 * and the kind of turn (src/engines/llm/tool-offer.ts).
 */
import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../../src/engines/engine.ts';
import { offeredTools, type OfferFacts } from '../../src/engines/llm/tool-offer.ts';
import { toolSchemas } from '../../src/engines/llm/tools.ts';
import type { NearbyEntity, Snapshot } from '../../src/game/game.ts';
import { EMBEDDED_CAPABILITIES } from '../../src/game/mineflayer-game.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';

const all = toolSchemas(createSkillRegistry(new FakeGame()));

function offered(snap: Partial<Snapshot> | undefined, req: Partial<OfferFacts['req']> = {}, extra: Partial<OfferFacts> = {}): string[] {
  const facts: OfferFacts = {
    req: { kind: 'continue', goal: { text: 'collect 3 dirt', setBy: 'self', baseline: {} }, nudges: [], ...req },
    snap: snap === undefined ? undefined : snapshotOf(snap),
    caps: EMBEDDED_CAPABILITIES,
    heardChat: false,
    ...extra,
  };
  return offeredTools(all, facts).map((t) => t.function.name);
}

const mob = (name: string, kind: NearbyEntity['kind'], distance = 8): NearbyEntity => ({ name, kind, distance, position: { x: distance, y: 64, z: 0 } });
const goal = (text: string): TurnRequest['goal'] => ({ text, setBy: 'owner', baseline: {} });

describe('the tools a turn offers', () => {
  it('GIVEN an empty inventory and nothing in sight THEN a continue turn offers only what finds its way and gathers: collect, go_to, explore, look', () => {
    expect(offered({ inventory: {} })).toEqual(['collect', 'go_to', 'explore', 'look']);
    // Out of the game: the same, nothing that needs a state.
    expect(offered(undefined)).toEqual(['collect', 'go_to', 'explore', 'look']);
  });

  it('GIVEN logs held THEN craft is offered; on a server without crafting it is not', () => {
    expect(offered({ inventory: { oak_log: 3 } })).toContain('craft');
    expect(offered({ inventory: { oak_log: 3 } }, {}, { caps: { ...EMBEDDED_CAPABILITIES, crafting: false } })).not.toContain('craft');
  });

  it('GIVEN raw iron THEN smelt is offered only with a furnace (carried or within reach) and fuel as well', () => {
    expect(offered({ inventory: { raw_iron: 3, oak_planks: 4 } })).not.toContain('smelt');
    expect(offered({ inventory: { raw_iron: 3, furnace: 1 } })).not.toContain('smelt');
    expect(offered({ inventory: { raw_iron: 3, furnace: 1, oak_planks: 4 } })).toContain('smelt');
    expect(offered({ inventory: { raw_iron: 3, coal: 1 }, nearbyBlocks: { furnace: 12 } })).toContain('smelt');
    expect(offered({ inventory: { raw_iron: 3, coal: 1 }, nearbyBlocks: { furnace: 40 } })).not.toContain('smelt');
    expect(offered({ inventory: { dirt: 3, coal: 1, furnace: 1 } })).not.toContain('smelt');
  });

  it('GIVEN food held THEN eat is offered when not full; fight comes with a mob in sight or a goal that hunts, flee only with a hostile one', () => {
    expect(offered({ inventory: { bread: 2 }, food: 12 })).toContain('eat');
    expect(offered({ inventory: { bread: 2 }, food: 20 })).not.toContain('eat');
    expect(offered({ inventory: {}, food: 12 })).not.toContain('eat');
    const cow = offered({ nearbyEntities: [mob('cow', 'passive')] });
    expect(cow).toContain('fight');
    expect(cow).not.toContain('flee');
    expect(offered({ nearbyEntities: [mob('zombie', 'hostile')] })).toEqual(expect.arrayContaining(['fight', 'flee']));
    expect(offered({ nearbyEntities: [mob('alex', 'player')] })).not.toContain('fight');
    // A goal whose plan hunts (cooked beef: beef from a cow) offers fight before the cow is in sight.
    expect(offered({}, { goal: goal('get 1 cooked beef') })).toContain('fight');
    expect(offered({}, { goal: goal('craft a wooden pickaxe') })).not.toContain('fight');
  });

  it('GIVEN a player in sight, chat heard or a goal naming a player THEN the tools about players come; with nobody about they do not', () => {
    expect(offered({})).not.toEqual(expect.arrayContaining(['follow']));
    expect(offered({ nearbyEntities: [mob('alex', 'player')] })).toEqual(expect.arrayContaining(['follow', 'come_to', 'say']));
    expect(offered({}, { goal: goal('follow alex') })).toEqual(expect.arrayContaining(['follow', 'come_to']));
    expect(offered({}, { goal: goal('say hello') })).toContain('say');
    expect(offered({}, {}, { heardChat: true })).toContain('say');
  });

  it('GIVEN blocks held THEN place comes with a goal outside the goal language (a build), not with a collect goal', () => {
    expect(offered({ inventory: { dirt: 5 } }, { goal: goal('build a pillar of 3 dirt') })).toContain('place');
    expect(offered({ inventory: { dirt: 5 } })).not.toContain('place');
    expect(offered({ inventory: {} }, { goal: goal('build a pillar of 3 dirt') })).not.toContain('place');
  });

  it('GIVEN the kind of turn THEN the notes come where plans and lessons change, and a wrap-up offers only look and rewrite_task', () => {
    expect(offered({}, { kind: 'choose', goal: null })).toContain('rewrite_task');
    expect(offered({}, { kind: 'blocked' })).toEqual(expect.arrayContaining(['rewrite_task', 'lab_log']));
    expect(offered({})).not.toContain('rewrite_task');
    expect(offered({}, { nudges: ['Your part of TASK.md is over 9 KB: rewrite it short.'] })).toContain('rewrite_task');
    expect(offered({ inventory: { oak_log: 3 }, nearbyEntities: [mob('zombie', 'hostile')] }, { kind: 'wrapup' })).toEqual(['look', 'rewrite_task']);
  });

  it('GIVEN a fully stocked state THEN every tool is offered, and a request of the usual state is under a third of all the schemas', () => {
    const busy = offered(
      { inventory: { raw_iron: 3, coal: 2, bread: 1, dirt: 4, furnace: 1 }, food: 10, nearbyEntities: [mob('zombie', 'hostile'), mob('alex', 'player')] },
      { kind: 'blocked', goal: goal('build a wall') },
    );
    expect(busy.sort()).toEqual(all.map((t) => t.function.name).sort());
    const usual = offeredTools(all, { req: { kind: 'continue', goal: goal('collect 3 oak logs'), nudges: [] }, snap: snapshotOf({ inventory: {} }), caps: EMBEDDED_CAPABILITIES, heardChat: false });
    expect(JSON.stringify(usual).length).toBeLessThan(JSON.stringify(all).length / 3);
  });
});
