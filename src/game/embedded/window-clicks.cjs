'use strict';
/*
 * Vanilla's window click rules, run on the server's own inventory for the
 * embedded world's crafting (see crafting.cjs): pick up, place and split
 * (mode 0), shift-click (1), hotbar swap (2), throw (4), drag (5) and
 * double-click collect (6), with the crafting result slot 0 computed from the
 * grid and taken by any of them. Middle-click clone (3) is creative-only and
 * does nothing here.
 *
 * A view is one open window: `get(slot)`/`set(slot, item)`, its grid slots and
 * width, and its inventory ranges (`inv`, `main`, `hotbar` as [start, end)).
 */
const { stackable, copyItem, addToInventory, dropAtPlayer } = require('./inventory-util.cjs');

/**
 * The click rules for one server.
 *
 * @param {{ serv: object, book: ReturnType<typeof import('./recipes.cjs').createRecipeBook>, Item: Function }} ctx
 * @returns {{ applyClick(player, st, view, click): void, resultOf(view): object | null }}
 *   `st` holds the player's `cursor` and `drag` state; `click` is the window_click packet.
 */
function createClickRules({ serv, book, Item }) {
  /** The recipe the grid makes now, or null. */
  function matchOf(view) {
    return book.match(
      view.grid.map((s) => view.get(s)),
      view.width,
    );
  }

  function resultOf(view) {
    const m = matchOf(view);
    return m ? new Item(m.result.id, m.result.count) : null;
  }

  /** Take one craft's ingredients from the grid; leftovers (buckets, bottles) go into the inventory. */
  function consume(player, view) {
    for (const s of view.grid) {
      const item = view.get(s);
      if (!item) continue;
      const rest = book.remainderOf(item.type);
      if (item.count > 1) item.count -= 1;
      else view.set(s, null);
      if (rest !== null) {
        const left = addToInventory(player, new Item(rest, 1), (slot, it) => view.set(slot + (view.id === 0 ? 0 : 1), it));
        if (left > 0) dropAtPlayer(serv, player, new Item(rest, 1), left);
      }
    }
  }

  /** Craft once if `fits(result)`; returns the result or null. */
  function craftOnce(player, view, fits) {
    const result = resultOf(view);
    if (!result || !fits(result)) return null;
    consume(player, view);
    return result;
  }

  /** Move `item` into window slots [start, end) (merging first, then empty slots); returns what is left. */
  function moveInto(view, item, [start, end], reverse, dryRun = false) {
    let left = item.count;
    const max = item.stackSize || 64;
    const order = [];
    for (let s = start; s < end; s++) order.push(s);
    if (reverse) order.reverse();
    const planned = new Map();
    for (const s of order) {
      if (left <= 0) break;
      const there = view.get(s);
      if (there && stackable(there, item) && there.count < max) {
        const n = Math.min(left, max - there.count);
        left -= n;
        if (!dryRun) there.count += n;
      }
    }
    for (const s of order) {
      if (left <= 0) break;
      if (!view.get(s) && !planned.has(s)) {
        const n = Math.min(left, max);
        left -= n;
        if (dryRun) planned.set(s, n);
        else view.set(s, copyItem(item, n));
      }
    }
    return left;
  }

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

  function resultClick(player, st, view) {
    const cursor = st.cursor;
    const made = craftOnce(player, view, (r) => !cursor || (stackable(cursor, r) && cursor.count + r.count <= (r.stackSize || 64)));
    if (!made) return;
    if (cursor) cursor.count += made.count;
    else st.cursor = made;
  }

  function shiftClick(player, st, view, slot) {
    if (slot === 0) {
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
    let range;
    if (slot >= view.main[0] && slot < view.main[1]) range = view.hotbar;
    else if (slot >= view.hotbar[0] && slot < view.hotbar[1]) range = view.main;
    else range = view.inv;
    const left = moveInto(view, item, range, false);
    if (left <= 0) view.set(slot, null);
    else item.count = left;
  }

  function hotbarSwap(player, st, view, slot, button) {
    if (button < 0 || button > 8) return; // 40 (offhand) is not part of a table window: left alone
    const target = view.hotbar[0] + button;
    if (slot === 0) {
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
    view.set(slot, b);
    view.set(target, a);
  }

  function throwClick(player, st, view, slot, button) {
    if (slot === 0) {
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
      if (slot > 0 && slot < view.size && !st.drag.slots.includes(slot)) st.drag.slots.push(slot);
      return;
    }
    const { slots } = st.drag;
    st.drag = null;
    const cursor = st.cursor;
    if (!cursor || slots.length === 0 || type === 2) return;
    const per = type === 0 ? Math.floor(cursor.count / slots.length) : 1;
    if (per <= 0) return;
    for (const s of slots) {
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

  function pickupAll(st, view) {
    const cursor = st.cursor;
    if (!cursor) return;
    const max = cursor.stackSize || 64;
    for (const fullToo of [false, true]) {
      for (let s = 1; s < view.size && cursor.count < max; s++) {
        const item = view.get(s);
        if (!item || !stackable(item, cursor) || (!fullToo && item.count >= max)) continue;
        const n = Math.min(item.count, max - cursor.count);
        cursor.count += n;
        if (item.count > n) item.count -= n;
        else view.set(s, null);
      }
    }
  }

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
        } else if (slot === 0) resultClick(player, st, view);
        else if (inWindow) leftClick(st, view, slot, mouseButton);
        return;
      case 1:
        if (inWindow) shiftClick(player, st, view, slot);
        return;
      case 2:
        if (inWindow) hotbarSwap(player, st, view, slot, mouseButton);
        return;
      case 4:
        if (inWindow) throwClick(player, st, view, slot, mouseButton);
        return;
      case 5:
        dragClick(st, view, slot, mouseButton);
        return;
      case 6:
        if (inWindow && slot !== 0) pickupAll(st, view);
        return;
      default:
        // 3: middle-click clone, creative only.
        return;
    }
  }

  return { applyClick, resultOf };
}

module.exports = { createClickRules };
