import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { chooseReflex, reflexesDue } from '../../skills/reflexes.ts';

/** Just enough of a bot for chooseReflex: position, vitals, inventory, entities. */
function fakeBot(opts: { health?: number; food?: number; items?: string[]; zombieAt?: number; time?: number; roof?: boolean; roofAt?: number }): Bot {
  const roofY = opts.roofAt ?? (opts.roof ? 66 : undefined);
  const me = new Vec3(0, 64, 0);
  const entities: Partial<Entity>[] = [];
  if (opts.zombieAt !== undefined) entities.push({ name: 'zombie', type: 'hostile', position: new Vec3(opts.zombieAt, 64, 0) } as Partial<Entity>);
  const bot = {
    entity: { position: me },
    entities: Object.fromEntries(entities.map((e, i) => [i, e])),
    health: opts.health ?? 20,
    food: opts.food ?? 20,
    registry: { foodsByName: { bread: { foodPoints: 5 }, rotten_flesh: { foodPoints: 4 } } },
    inventory: { items: () => (opts.items ?? []).map((name) => ({ name, count: 1 })) },
    nearestEntity: (pred: (e: Entity) => boolean) => (entities as Entity[]).find(pred) ?? null,
    time: { timeOfDay: opts.time ?? 1000 },
    blockAt: (p: Vec3) => (p.y === roofY ? { name: 'stone', boundingBox: 'block' } : { name: 'air', boundingBox: 'empty' }),
  };
  return bot as unknown as Bot;
}

describe('chooseReflex', () => {
  it('GIVEN a zombie within 4 blocks THEN defend wins over eat and flee', () => {
    expect(chooseReflex(fakeBot({ zombieAt: 3, food: 5, health: 4, items: ['bread'] }))?.reflex).toBe('defend');
  });

  it('GIVEN hunger and food carried THEN eat; without food THEN nothing', () => {
    expect(chooseReflex(fakeBot({ food: 10, items: ['bread'] }))?.reflex).toBe('eat');
    expect(chooseReflex(fakeBot({ food: 10 }))).toBeUndefined();
  });

  it('GIVEN low health and a zombie 10 blocks away THEN flee from it; at full health THEN nothing', () => {
    const a = chooseReflex(fakeBot({ health: 5, zombieAt: 10 }));
    expect(a?.reflex).toBe('flee');
    expect(a?.params).toEqual({ from: { x: 10, z: 0 } });
    expect(chooseReflex(fakeBot({ zombieAt: 10 }))).toBeUndefined();
  });

  it('GIVEN only rotten flesh THEN eat fires only when starving', () => {
    expect(chooseReflex(fakeBot({ food: 10, items: ['rotten_flesh'] }))).toBeUndefined();
    expect(chooseReflex(fakeBot({ food: 6, items: ['rotten_flesh'] }))?.reflex).toBe('eat');
  });

  it('GIVEN night and a zombie 10 blocks away THEN an avatar without a weapon or at low health shelters; one with a sword, by day or under a roof does not', () => {
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000 }))?.reflex).toBe('shelter');
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000, health: 10, items: ['stone_sword'] }))?.reflex).toBe('shelter');
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000, items: ['stone_sword'] }))).toBeUndefined();
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 6000 }))).toBeUndefined();
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000, roof: true }))).toBeUndefined();
  });

  it('GIVEN night, low health and a zombie more than 6 blocks away THEN it digs in before it runs (flee next); with the zombie closer it runs first', () => {
    expect(reflexesDue(fakeBot({ zombieAt: 10, health: 5, time: 14_000 })).map((a) => a.reflex)).toEqual(['shelter', 'flee']);
    expect(reflexesDue(fakeBot({ zombieAt: 5, health: 5, time: 14_000 })).map((a) => a.reflex)).toEqual(['flee', 'shelter']);
    // By day, or under a roof, there is nothing to dig into: it runs.
    expect(reflexesDue(fakeBot({ zombieAt: 10, health: 5, time: 6000 })).map((a) => a.reflex)).toEqual(['flee']);
    expect(reflexesDue(fakeBot({ zombieAt: 10, health: 5, time: 14_000, roof: true })).map((a) => a.reflex)).toEqual(['flee']);
  });

  it('GIVEN night and zombies on the ground above WHEN the avatar is in a tunnel whose ceiling is higher than its head THEN it does not dig a shelter: ground over it is a roof', () => {
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000, roofAt: 70 }))).toBeUndefined();
    expect(chooseReflex(fakeBot({ zombieAt: 10, time: 14_000 }))?.reflex).toBe('shelter');
  });

  it('GIVEN a zombie within 4 blocks and health 4 THEN defend comes first and flee next (taken while a cut-short defence rests)', () => {
    expect(reflexesDue(fakeBot({ zombieAt: 3, health: 4 })).map((a) => a.reflex)).toEqual(['defend', 'flee']);
  });
});
