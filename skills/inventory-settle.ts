/**
 * Bring the 2×2 crafting grid and the cursor back to empty, and the bot's picture of its inventory back to the
 * server's: before a craft (mineflayer's own clicks from other skills are sent without waiting and may still be
 * on their way) and after one (a craft that failed half-way can leave items in the grid).
 */
import type { Bot } from 'mineflayer';

/** How long to wait for the server to send the inventory; a server that never answers leaves the picture as it is. */
const SYNC_MS = 5000;
/** Asks in a row before giving up on a picture that keeps changing (items arriving all the time). */
const MAX_ASKS = 8;

/** mineflayer's own catch-up (4.39): a click the server must reject, which a 1.17.1+ server answers with the whole window. */
type Syncing = Bot & { _syncWindow?: (window: Bot['inventory']) => Promise<void> };

/** Every slot and the cursor, as one string. */
function picture(bot: Bot): string {
  const inv = bot.inventory;
  return JSON.stringify([inv.slots.map((i) => (i ? [i.type, i.count] : 0)), inv.selectedItem ? [inv.selectedItem.type, inv.selectedItem.count] : 0]);
}

/** Whether `p` settled within {@link SYNC_MS} (false on time-out or abort). */
async function within(p: Promise<void>, signal: AbortSignal): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      p.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), SYNC_MS);
        onAbort = () => resolve(false);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Make the bot's picture of its inventory the server's.
 *
 * The server answers the ask with the whole window, but a whole window it sent earlier (its answer to a click
 * that disagreed with it) may still be on its way and looks the same. So the bot asks until two answers in a
 * row are the same picture: the answers to the clicks differ from one another (each click changes something),
 * and the answer to an ask is the state after the last click. Older servers (before 1.17.1) confirm each click
 * as it is made, so there is nothing to catch up with there.
 */
async function syncInventory(bot: Bot, signal: AbortSignal): Promise<void> {
  const sync = (bot as Syncing)._syncWindow;
  if (!sync || !bot.supportFeature('stateIdUsed')) return;
  let previous = '';
  for (let ask = 0; ask < MAX_ASKS && !signal.aborted; ask++) {
    if (!(await within(sync(bot.inventory), signal))) return;
    const now = picture(bot);
    if (now === previous) return;
    previous = now;
  }
}

/**
 * Have the server put whatever the 2×2 crafting grid and the cursor hold back into the inventory (what does not
 * fit is dropped, as when a player closes the inventory screen), then sync the bot's picture with it.
 *
 * Closing the player's own inventory (window 0) is what a player's client does when the inventory screen
 * closes; vanilla and the embedded world both give the grid and the cursor back then. It is done on the
 * server's inventory, so it needs no picture of the bot's own, which may be behind.
 */
export async function settleInventory(bot: Bot, signal: AbortSignal): Promise<void> {
  if (bot.currentWindow || signal.aborted) return; // a container gives its own grid back when it closes
  bot._client.write('close_window', { windowId: 0 });
  await syncInventory(bot, signal);
}
