/**
 * Leaving a bot's connection, bounded: a joined bot quits (the server sees a
 * clean leave), one still logging in or waiting for its chunks has its socket
 * closed at once (it has nothing to finish), and a connection that has not
 * ended after `boundMs` is closed by force.
 */
import type { Bot } from 'mineflayer';
import type { Logger } from '../logger.ts';

/**
 * @example
 * await leaveBot(bot, { joined: true, log });
 */
export async function leaveBot(bot: Bot, opts: { joined: boolean; log: Logger; boundMs?: number }): Promise<void> {
  const ended = new Promise<void>((resolve) => bot.once('end', () => resolve()));
  try {
    bot.pathfinder?.stop();
    if (opts.joined) bot.quit('bye');
    else bot._client.socket?.destroy();
  } catch (err) {
    opts.log.debug({ err }, 'quit failed; closing the socket');
    bot._client.end('bye');
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ended,
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        bot._client.socket?.destroy();
        resolve();
      }, opts.boundMs ?? 3000);
    }),
  ]);
  clearTimeout(timer);
}
