// @ts-check
'use strict';
/*
 * Vanilla's window click rules, run on the server's own inventory for the
 * embedded world's windows (see windows.cjs): pick up, place and split
 * (mode 0), shift-click (1), hotbar swap (2), throw (4), drag (5) and
 * double-click collect (6); a crafting window's result slot is computed from
 * its grid and taken by any of them. Middle-click clone (3) is creative-only
 * and does nothing here.
 *
 * A view is one open window: `get(slot)`/`set(slot, item)`, its crafting
 * result slot, grid slots and width (a furnace has none), which slots take
 * which items (`mayPlace`: a furnace's output takes nothing, its fuel slot
 * only fuel), where a shift-click sends an item (`quickMove`), and its
 * inventory ranges (`inv`, `main`, `hotbar` as [start, end)).
 */
const { stackable, copyItem, addToInventory, dropAtPlayer } = require('./inventory-util.cjs');

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {{ range: [number, number], reverse: boolean }} QuickMoveTarget
 * @typedef {object} View
 * @property {number} id window id
 * @property {number} size how many slots
 * @property {number} resultSlot the crafting result slot, or -1
 * @property {number[]} grid crafting grid slots (empty without a grid)
 * @property {number} width crafting grid width
 * @property {[number, number]} inv main inventory and hotbar, as [start, end)
 * @property {[number, number]} main
 * @property {[number, number]} hotbar
 * @property {(slot: number) => Item | null} get
 * @property {(slot: number, item: Item | null) => void} set
 * @property {(slot: number, item: Item) => boolean} [mayPlace] whether a player may put `item` into `slot` (default: yes)
 * @property {(slot: number, item: Item) => QuickMoveTarget[] | null} [quickMove] where a shift-click sends the item in `slot` (null: the default rule)
 * @typedef {{ cursor: Item | null, drag: { type: number, slots: number[] } | null }} ClickState
 */

/**
 * The click rules for one server.
 *
 * @param {{ serv: import('./types.cjs').Serv, book: ReturnType<typeof import('./recipes.cjs').createRecipeBook>, Item: import('./types.cjs').ItemClass }} ctx
 */
function createClickRules({ serv, book, Item }) {
  /** @param {View} view @param {number} slot @param {Item} item */
  const mayPlace = (view, slot, item) => slot !== view.resultSlot && (!view.mayPlace || view.mayPlace(slot, item));

  /** The recipe the grid makes now, or null. @param {View} view */
  function matchOf(view) {
    if (view.resultSlot < 0) return null;
    return book.match(
      view.grid.map((s) => view.get(s)),
      view.width,
    );
  }

  /** @param {View} view @returns {Item | null} */
  function resultOf(view) {
    const m = matchOf(view);
    return m ? new Item(m.result.id, m.result.count) : null;
  }

  /** Take one craft's ingredients from the grid; leftovers (buckets, bottles) go into the inventory. @param {Player} player @param {View} view */
  function consume(player, view) {
    for (const s of view.grid) {
      const item = view.get(s);
      if (!item) continue;
      const rest = book.remainderOf(item.type);
      if (item.count > 1) item.count -= 1;
      else view.set(s, null);
      if (rest !== null) {
        // addToInventory names window-0 slots (main from 9); the view's inventory starts at view.inv[0].
        const left = addToInventory(player, new Item(rest, 1), (slot, it) => view.set(slot - 9 + view.inv[0], it));
        if (left > 0) dropAtPlayer(serv, player, new Item(rest, 1), left);
      }
    }
  }

  /** Craft once if `fits(result)`; returns the result or null. @param {Player} player @param {View} view @param {(r: Item) => boolean} fits */
  function craftOnce(player, view, fits) {
    const result = resultOf(view);
    if (!result || !fits(result)) return null;
    consume(player, view);
    return result;
  }

  /**
   * Move `item` into window slots [start, end) (merging first, then empty slots that take it); returns what is left.
   * @param {View} view @param {Item} item @param {[number, number]} range @param {boolean} reverse @param {boolean} [dryRun]
   */
  function moveInto(view, item, [start, end], reverse, dryRun = false) {
    let left = item.count;
    const max = item.stackSize || 64;
    const order = [];
    for (let s = start; s < end; s++) order.push(s);
    if (reverse) order.reverse();
    const planned = new Set();
    for (const s of order) {
      if (left <= 0) break;
      const there = view.get(s);
      if (there && stackable(there, item) && there.count < max && mayPlace(view, s, item)) {
        const n = Math.min(left, max - there.count);
        left -= n;
        if (!dryRun) there.count += n;
      }
    }
    for (const s of order) {
      if (left <= 0) break;
      if (!view.get(s) && !planned.has(s) && mayPlace(view, s, item)) {
        const n = Math.min(left, max);
        left -= n;
        if (dryRun) planned.add(s);
        else view.set(s, copyItem(item, n));
      }
    }
    return left;
  }

  /** @param {ClickState} st @param {View} view @param {number} slot @param {number} button */
  function leftClick(st, view, slot, button) {
    const item = view.get(slot);
    const cursor = st.cursor;
    if (!cursor) {
      if (!item) return;
      if (button === 0) {
        st.cursor = item;
        view.set(slot, null);
      } else {
        const take = Math.ceil(item.count / 2);
        st.cursor = copyItem(item, take);
        if (item.count - take > 0) item.count -= take;
        else view.set(slot, null);
      }
      return;
    }
    if (!mayPlace(view, slot, cursor)) {
      // A slot that takes nothing (a furnace's output): clicking it with the same item takes what fits onto the cursor.
      if (item && stackable(item, cursor)) {
        const n = Math.min(item.count, (cursor.stackSize || 64) - cursor.count);
        if (n <= 0) return;
        cursor.count += n;
        if (item.count > n) item.count -= n;
        else view.set(slot, null);
      }
      return;
    }
    if (!item) {
      if (button === 0) {
        view.set(slot, cursor);
        st.cursor = null;
      } else {
        view.set(slot, copyItem(cursor, 1));
        if (cursor.count > 1) cursor.count -= 1;
        else st.cursor = null;
      }
      return;
    }
    if (stackable(item, cursor)) {
      const room = (item.stackSize || 64) - item.count;
      const n = Math.min(room, button === 0 ? cursor.count : 1);
      if (n <= 0) return;
      item.count += n;
      if (cursor.count > n) cursor.count -= n;
      else st.cursor = null;
      return;
    }
    view.set(slot, cursor);
    st.cursor = item;
  }

  /** @param {Player} player @param {ClickState} st @param {View} view */
  function resultClick(player, st, view) {
    const cursor = st.cursor;
    const made = craftOnce(player, view, (r) => !cursor || (stackable(cursor, r) && cursor.count + r.count <= (r.stackSize || 64)));
    if (!made) return;
    if (cursor) cursor.count += made.count;
    else st.cursor = made;
  }

  /** @param {Player} player @param {View} view @param {number} slot */
  function shiftClick(player, view, slot) {
    if (slot === view.resultSlot) {
      // Craft as many times as the grid and the inventory allow, the results going hotbar-last-slot first.
      for (let i = 0; i < 64; i++) {
        const made = craftOnce(player, view, (r) => moveInto(view, r, view.inv, true, true) === 0);
        if (!made) break;
        moveInto(view, made, view.inv, true);
      }
      return;
    }
    const item = view.get(slot);
    if (!item) return;
    /** @type {QuickMoveTarget[]} */
    let targets;
    const own = view.quickMove?.(slot, item);
    if (own) targets = own;
    else if (slot >= view.main[0] && slot < view.main[1]) targets = [{ range: view.hotbar, reverse: false }];
    else if (slot >= view.hotbar[0] && slot < view.hotbar[1]) targets = [{ range: view.main, reverse: false }];
    else targets = [{ range: view.inv, reverse: false }];
    let left = item.count;
    for (const { range, reverse } of targets) {
      if (left <= 0) break;
      left = moveInto(view, copyItem(item, left), range, reverse);
    }
    if (left <= 0) view.set(slot, null);
    else item.count = left;
  }

  /** @param {Player} player @param {View} view @param {number} slot @param {number} button */
  function hotbarSwap(player, view, slot, button) {
    if (button < 0 || button > 8) return; // 40 (offhand) is not part of a container window: left alone
    const target = view.hotbar[0] + button;
    if (slot === view.resultSlot) {
      const there = view.get(target);
      const made = craftOnce(player, view, (r) => !there || (stackable(there, r) && there.count + r.count <= (r.stackSize || 64)));
      if (!made) return;
      if (there) there.count += made.count;
      else view.set(target, made);
      return;
    }
    if (slot === target) return;
    const a = view.get(slot);
    const b = view.get(target);
    if (b && !mayPlace(view, slot, b)) return; // the hotbar item may not go there (a furnace's output)
    view.set(slot, b);
    view.set(target, a);
  }

  /** @param {Player} player @param {View} view @param {number} slot @param {number} button */
  function throwClick(player, view, slot, button) {
    if (slot === view.resultSlot) {
      const made = craftOnce(player, view, () => true);
      if (made) dropAtPlayer(serv, player, made);
      return;
    }
    const item = view.get(slot);
    if (!item) return;
    const n = button === 1 ? item.count : 1;
    dropAtPlayer(serv, player, item, n);
    if (item.count > n) item.count -= n;
    else view.set(slot, null);
  }

  /** @param {ClickState} st @param {View} view @param {number} slot @param {number} button */
  function dragClick(st, view, slot, button) {
    const kind = button & 3; // 0 start, 1 add slot, 2 end
    const type = button >> 2; // 0 left, 1 right, 2 middle
    if (kind === 0) {
      st.drag = slot === -999 && st.cursor ? { type, slots: [] } : null;
      return;
    }
    if (!st.drag || st.drag.type !== type) {
      st.drag = null;
      return;
    }
    if (kind === 1) {
      if (slot >= 0 && slot < view.size && slot !== view.resultSlot && !st.drag.slots.includes(slot)) st.drag.slots.push(slot);
      return;
    }
    const { slots } = st.drag;
    st.drag = null;
    const cursor = st.cursor;
    if (!cursor) return;
    const allowed = slots.filter((s) => mayPlace(view, s, cursor));
    if (allowed.length === 0 || type === 2) return;
    const per = type === 0 ? Math.floor(cursor.count / allowed.length) : 1;
    if (per <= 0) return;
    for (const s of allowed) {
      if (!st.cursor) break;
      const there = view.get(s);
      if (there && !stackable(there, cursor)) continue;
      const room = (cursor.stackSize || 64) - (there ? there.count : 0);
      const n = Math.min(per, room, st.cursor.count);
      if (n <= 0) continue;
      if (there) there.count += n;
      else view.set(s, copyItem(cursor, n));
      if (cursor.count > n) cursor.count -= n;
      else st.cursor = null;
    }
  }

  /** @param {ClickState} st @param {View} view */
  function pickupAll(st, view) {
    const cursor = st.cursor;
    if (!cursor) return;
    const max = cursor.stackSize || 64;
    for (const fullToo of [false, true]) {
      for (let s = 0; s < view.size && cursor.count < max; s++) {
        if (s === view.resultSlot) continue;
        const item = view.get(s);
        if (!item || !stackable(item, cursor) || (!fullToo && item.count >= max)) continue;
        const n = Math.min(item.count, max - cursor.count);
        cursor.count += n;
        if (item.count > n) item.count -= n;
        else view.set(s, null);
      }
    }
  }

  /**
   * Apply one window_click to a view.
   * @param {Player} player @param {ClickState} st the player's cursor and drag @param {View} view
   * @param {{ slot: number, mouseButton: number, mode: number }} click
   */
  function applyClick(player, st, view, { slot, mouseButton, mode }) {
    const inWindow = slot >= 0 && slot < view.size;
    switch (mode) {
      case 0:
        if (slot === -999) {
          if (st.cursor) {
            const n = mouseButton === 0 ? st.cursor.count : 1;
            dropAtPlayer(serv, player, st.cursor, n);
            if (st.cursor.count > n) st.cursor.count -= n;
            else st.cursor = null;
          }
        } else if (inWindow && slot === view.resultSlot) resultClick(player, st, view);
        else if (inWindow) leftClick(st, view, slot, mouseButton);
        return;
      case 1:
        if (inWindow) shiftClick(player, view, slot);
        return;
      case 2:
        if (inWindow) hotbarSwap(player, view, slot, mouseButton);
        return;
      case 4:
        if (inWindow) throwClick(player, view, slot, mouseButton);
        return;
      case 5:
        dragClick(st, view, slot, mouseButton);
        return;
      case 6:
        if (inWindow && slot !== view.resultSlot) pickupAll(st, view);
        return;
      default:
        // 3: middle-click clone, creative only.
        return;
    }
  }

  return { applyClick, resultOf };
}

module.exports = { createClickRules };
