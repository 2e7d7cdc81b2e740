/**
 * Crafting one click at a time, each answered by the server before the next is planned.
 *
 * mineflayer's `bot.craft` sends its clicks without waiting (a 1.17.1+ server answers a click only when it
 * disagrees), so an item picked up meanwhile leaves it planning on an old picture of the inventory. Here each
 * click carries a state id the server never sent: vanilla and the embedded world then apply the click and
 * answer with the whole window, which mineflayer takes in. The next click is planned on that answer, so it is
 * always planned on the server's own inventory. Servers before 1.17.1 confirm each of mineflayer's clicks as
 * it is made; there `bot.craft` is used as it is.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Recipe } from 'prismarine-recipe';
import type { Window } from 'prismarine-windows';
import { checkAborted, readyToOpen } from './common.ts';
import { settleInventory } from './inventory-settle.ts';

/** How long the server has to answer a click. */
const ANSWER_MS = 5000;

/** An empty slot as this version's protocol writes it (what prismarine-item's `toNotch(null)` gives). */
function emptySlot(bot: Bot): Record<string, unknown> {
  if (bot.supportFeature('itemsWithComponents')) return { itemCount: 0, components: [], removeComponents: [] };
  return { present: false };
}

/** Send one click and resolve once the server's whole-window answer has been taken in. */
async function click(bot: Bot, window: Window, slot: number, button: number, mode: number, signal: AbortSignal): Promise<void> {
  checkAborted(signal);
  const client = bot._client;
  await new Promise<void>((resolve, reject) => {
    const finish = (err: Error | null): void => {
      clearTimeout(timer);
      client.off('window_items', onItems);
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    // Registered after mineflayer's own listener, so the window holds the answer when this runs.
    const onItems = (packet: { windowId: number }): void => {
      if (packet.windowId === window.id) finish(null);
    };
    const onAbort = (): void => finish(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => finish(new Error(`the server did not answer a click on slot ${slot}`)), ANSWER_MS);
    client.on('window_items', onItems);
    signal.addEventListener('abort', onAbort, { once: true });
    client.write('window_click', { windowId: window.id, stateId: -1, slot, mouseButton: button, mode, changedSlots: [], cursorItem: emptySlot(bot) });
  });
}

/** Put what the cursor holds into the inventory part of the window (joining a stack first), or drop it when there is no room. */
async function putCursorAway(bot: Bot, window: Window, signal: AbortSignal): Promise<void> {
  const held = window.selectedItem;
  if (!held) return;
  const start = window.inventoryStart;
  const end = window.inventoryEnd;
  const slot = window.findItemRange(start, end, held.type, held.metadata, true, held.nbt)?.slot ?? window.firstEmptySlotRange(start, end);
  await click(bot, window, slot ?? -999, 0, 0, signal);
}

/** The grid slots of a recipe and the item each takes. */
function placements(recipe: Recipe, width: number): Array<{ slot: number; id: number }> {
  const out: Array<{ slot: number; id: number }> = [];
  const used = new Set<number>();
  recipe.inShape?.forEach((row, y) =>
    row.forEach((cell, x) => {
      const slot = 1 + x + width * y;
      used.add(slot);
      if (cell.id !== -1) out.push({ slot, id: cell.id });
    }),
  );
  const free = Array.from({ length: width * width }, (_, i) => i + 1).filter((s) => !used.has(s));
  for (const ingredient of recipe.ingredients ?? []) {
    const slot = free.shift();
    if (slot === undefined) throw new Error('the recipe does not fit the grid');
    out.push({ slot, id: ingredient.id });
  }
  return out;
}

/** Lay out one craft's ingredients in the grid and shift-click the result into the inventory. */
async function craftOnce(bot: Bot, window: Window, width: number, recipe: Recipe, signal: AbortSignal): Promise<void> {
  for (const { slot, id } of placements(recipe, width)) {
    if (window.selectedItem?.type !== id) {
      await putCursorAway(bot, window, signal);
      const source = window.findInventoryItem(id, null, false);
      if (!source) throw new Error(`missing ingredient ${bot.registry.items[id]?.name ?? id}`);
      await click(bot, window, source.slot, 0, 0, signal);
    }
    await click(bot, window, slot, 1, 0, signal);
  }
  await putCursorAway(bot, window, signal);
  if (!window.slots[0]) throw new Error('the grid makes nothing');
  await click(bot, window, 0, 0, 1, signal);
}

/**
 * Craft `recipe` `times` times, in the 2×2 grid or at `table`. Whatever way it ends, the grid and the cursor are
 * given back (the table's window closed, then the player's own inventory) and the bot's picture is the server's.
 */
export async function craftByClicks(bot: Bot, recipe: Recipe, times: number, table: Block | null, signal: AbortSignal): Promise<void> {
  if (!bot.supportFeature('stateIdUsed')) {
    await bot.craft(recipe, times, table ?? undefined);
    return;
  }
  if (table) await readyToOpen(bot, table);
  const window = table ? await bot.openBlock(table) : bot.inventory;
  try {
    if (table && !String(window.type).startsWith('minecraft:crafting')) throw new Error(`the crafting table opened ${window.type}`);
    for (let i = 0; i < times; i++) await craftOnce(bot, window, table ? 3 : 2, recipe, signal);
  } finally {
    if (table) bot.closeWindow(window);
    await settleInventory(bot, signal);
  }
}
