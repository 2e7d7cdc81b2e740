/**
 * The wait for a bot's join: given up only after a stretch without progress.
 * The login, the spawn and each chunk column that arrives start the wait
 * again: on a busy machine a join can take longer than the whole bound and
 * still be on its way, and giving it up then, to start from nothing, made
 * every join of a large group time out again and again.
 */
import type { Bot } from 'mineflayer';

/** A join being watched: `done` once it joined or is being left. */
export interface JoinWatch {
  done(): void;
}

/**
 * @example
 * const watch = watchJoin(bot, 30_000, () => bot.end('spawn timeout'));
 * // … once the world around the spawn point is there:
 * watch.done();
 */
export function watchJoin(bot: Bot, stalledMs: number, onStalled: () => void): JoinWatch {
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const arm = (): void => {
    if (finished) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!finished) onStalled();
    }, stalledMs);
  };
  const done = (): void => {
    finished = true;
    clearTimeout(timer);
  };
  arm();
  bot.once('login', arm);
  bot.once('spawn', () => {
    arm();
    bot.world.on('chunkColumnLoad', arm);
  });
  bot.once('end', done);
  return { done };
}
