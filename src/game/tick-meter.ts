/**
 * How many physics ticks the avatars of this process actually ran: a game
 * tick is 50 ms, so a bot whose event loop keeps up runs 20 a second, and
 * one on a late loop fewer (mineflayer runs up to four late ticks at once,
 * then drops the rest). The health line reports it (`npm run bench -- scale`
 * prints it per step), so the avatars' own lag is measured, not guessed from
 * the event loop.
 */
import type { Bot } from 'mineflayer';

/** Ticks per second over the last reading: the mean over the bots (`physicsTps`), and the slowest tenth's (`physicsTpsLow`). */
export type TickRates = Record<'physicsTps' | 'physicsTpsLow', number>;

interface Meter {
  ticks: number;
  since: number;
}

const meters = new Map<Bot, Meter>();

/**
 * Count a spawned bot's physics ticks until it ends.
 *
 * @example
 * bot.once('spawn', () => meterTicks(bot));
 */
export function meterTicks(bot: Bot): void {
  if (meters.has(bot)) return;
  const meter: Meter = { ticks: 0, since: performance.now() };
  meters.set(bot, meter);
  bot.on('physicsTick', () => {
    meter.ticks += 1;
  });
  bot.once('end', () => {
    meters.delete(bot);
  });
}

/**
 * The rates since the last reading (and start counting again); none while no bot is metered.
 *
 * @example
 * log.debug({ ...readTickRates() }, 'health');
 */
export function readTickRates(): Partial<TickRates> {
  const now = performance.now();
  const rates: number[] = [];
  for (const meter of meters.values()) {
    const seconds = (now - meter.since) / 1000;
    if (seconds >= 0.5) rates.push(meter.ticks / seconds);
    meter.ticks = 0;
    meter.since = now;
  }
  if (rates.length === 0) return {};
  rates.sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    physicsTps: round(rates.reduce((s, r) => s + r, 0) / rates.length),
    physicsTpsLow: round(rates[Math.floor(rates.length / 10)] ?? 0),
  };
}
