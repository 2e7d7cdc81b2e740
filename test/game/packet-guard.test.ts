import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardBot, type PacketFault } from '../../src/game/packet-guard.ts';

/** A bot and its client as plain emitters, wired like mineflayer: client packets re-emitted as bot events. */
function setup(): { bot: EventEmitter; client: EventEmitter; faults: PacketFault[] } {
  const bot = new EventEmitter();
  const client = new EventEmitter();
  const faults: PacketFault[] = [];
  guardBot(bot, client, (f) => faults.push(f));
  return { bot, client, faults };
}

describe('guardBot', () => {
  it('GIVEN a packet listener that throws THEN the fault names the packet, nothing propagates, and the client dispatches no more packets but still ends', () => {
    const { client, faults } = setup();
    const seen: string[] = [];
    client.on('block_break_animation', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'getBlock')");
    });
    client.on('block_change', () => seen.push('block_change'));
    client.on('end', () => seen.push('end'));

    expect(() => client.emit('block_break_animation', {}, { name: 'block_break_animation' })).not.toThrow();
    expect(faults).toHaveLength(1);
    expect(faults[0]?.packet).toBe('block_break_animation');
    expect(faults[0]?.error).toBeInstanceOf(TypeError);

    client.emit('block_change', {});
    client.emit('end', 'socketClosed');
    expect(seen).toEqual(['end']);
  });

  it('GIVEN a bot event listener that throws inside a packet THEN the fault names the packet, not the event', () => {
    const { bot, client, faults } = setup();
    client.on('packet', (_data: unknown, meta: { name: string }) => bot.emit('blockBreakProgressObserved', meta.name));
    bot.on('blockBreakProgressObserved', () => {
      throw new Error('skill listener broke');
    });
    client.emit('packet', {}, { name: 'block_break_animation' });
    expect(faults.map((f) => [f.packet, f.error.message])).toEqual([['block_break_animation', 'skill listener broke']]);
  });

  it('GIVEN a bot event listener that throws outside any packet (a timer) THEN the fault names the event', () => {
    const { bot, faults } = setup();
    bot.on('physicsTick', () => {
      throw 'not an Error';
    });
    expect(() => bot.emit('physicsTick')).not.toThrow();
    expect(faults.map((f) => [f.packet, f.error.message])).toEqual([['event:physicsTick', 'not an Error']]);
  });

  it('GIVEN an error event THEN it is not swallowed: unhandled it throws as always, handled it reaches its listener', () => {
    const { bot, client, faults } = setup();
    expect(() => client.emit('error', new Error('ECONNRESET'))).toThrow('ECONNRESET');
    const errors: string[] = [];
    bot.on('error', (e: Error) => errors.push(e.message));
    bot.emit('error', new Error('parse error'));
    expect(errors).toEqual(['parse error']);
    expect(faults).toEqual([]);
  });

  it('GIVEN listeners that do not throw THEN emit returns what EventEmitter returns', () => {
    const { bot, client } = setup();
    client.on('keep_alive', () => undefined);
    expect(client.emit('keep_alive', {})).toBe(true);
    expect(client.emit('nobody_listens', {})).toBe(false);
    expect(bot.emit('nobody_listens')).toBe(false);
  });
});
