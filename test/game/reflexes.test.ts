import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { chooseReflex } from '../../skills/reflexes.ts';

/** Just enough of a bot for chooseReflex: position, vitals, inventory, entities. */
function fakeBot(opts: { health?: number; food?: number; items?: string[]; zombieAt?: number }): Bot {
  const me = new Vec3(0, 64, 0);
  const entities: Partial<Entity>[] = [];
  if (opts.zombieAt !== undefined) entities.push({ name: 'zombie', type: 'hostile', position: new Vec3(opts.zombieAt, 64, 0) } as Partial<Entity>);
  const bot = {
    entity: { position: me },
    health: opts.health ?? 20,
    food: opts.food ?? 20,
    registry: { foodsByName: { bread: { foodPoints: 5 } } },
    inventory: { items: () => (opts.items ?? []).map((name) => ({ name, count: 1 })) },
    nearestEntity: (pred: (e: Entity) => boolean) => (entities as Entity[]).find(pred) ?? null,
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
});
