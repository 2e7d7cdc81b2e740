'use strict';
/*
 * Crafting for the embedded world: the player's 2×2 grid and the crafting table.
 *
 * flying-squid 1.12.0 hands the raw 1.21.4 `window_click` packet (which has no
 * `item` field) to prismarine-windows, so its inventory drifts from the
 * client's and nothing can be crafted. This plugin replaces each player's
 * `window_click` handler with vanilla's click rules (pick up, place, split,
 * shift-click, hotbar swap, throw, drag, double-click) run on the server's own
 * inventory, computes the result slot from minecraft-data's recipes, and
 * answers like vanilla: the result slot is sent after every click on the grid,
 * and when the client's stateId or its predicted slots differ from the
 * server's, the whole window is sent (mineflayer's resync click relies on it).
 *
 * A crafting table opens a `minecraft:crafting` window; it closes (items back
 * into the inventory, the overflow dropped) when its player closes it, walks
 * more than 8 blocks away, the table is gone, or the player leaves.
 */
const { createRecipeBook } = require('./recipes.cjs');
const { addToInventory, dropAtPlayer, giveOrDrop } = require('./inventory-util.cjs');
const { createClickRules } = require('./window-clicks.cjs');
const { guard } = require('./guard.cjs');

/** Vanilla closes a container whose player is farther than this from it. */
const TABLE_REACH = 8;

/**
 * Install crafting on a flying-squid server.
 *
 * @param serv the flying-squid server
 * @param {{ registry: object, Item: Function }} ctx
 */
function crafting(serv, { registry, Item }) {
  const book = createRecipeBook(registry);
  const craftingType = require('prismarine-windows')(registry).windows['minecraft:crafting'].type;
  const sessions = new WeakMap();
  const { applyClick, resultOf } = createClickRules({ serv, book, Item });

  const sameItem = (a, b) => (!a && !b) || (!!a && !!b && a.type === b.type && a.count === b.count);
  const fromNotch = (n) => {
    const item = Item.fromNotch(n);
    return item && item.count > 0 ? item : null;
  };

  /** The view of the window a player has open: the inventory (id 0) or their crafting table. */
  function viewFor(player, st, windowId) {
    const inv = player.inventory.slots;
    if (windowId === 0) {
      return {
        id: 0,
        size: 46,
        width: 2,
        grid: [1, 2, 3, 4],
        inv: [9, 45], // main + hotbar, as window slots [start, end)
        main: [9, 36],
        hotbar: [36, 45],
        get: (s) => inv[s] ?? null,
        set: (s, item) => {
          if (item) item.slot = s;
          inv[s] = item;
        },
        invSlotOf: (s) => s,
      };
    }
    if (st.table && st.table.id === windowId) {
      const grid = st.table.grid;
      return {
        id: windowId,
        size: 46,
        width: 3,
        grid: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        inv: [10, 46],
        main: [10, 37],
        hotbar: [37, 46],
        get: (s) => (s <= 9 ? (grid[s - 1] ?? null) : (inv[s - 1] ?? null)),
        set: (s, item) => {
          if (s <= 9) grid[s - 1] = item;
          else {
            if (item) item.slot = s - 1;
            inv[s - 1] = item;
          }
        },
        invSlotOf: (s) => s - 1,
      };
    }
    return null;
  }

  function snapshotOf(view) {
    const out = [];
    for (let s = 0; s < view.size; s++) {
      const item = s === 0 ? null : view.get(s);
      out.push(item ? { type: item.type, count: item.count } : null);
    }
    return out;
  }

  function windowItems(player, st, view) {
    const items = [];
    for (let s = 0; s < view.size; s++) items.push(Item.toNotch(s === 0 ? resultOf(view) : view.get(s)));
    player._client.write('window_items', { windowId: view.id, items, carriedItem: Item.toNotch(st.cursor) });
  }

  function onClick(player, st, click) {
    const view = viewFor(player, st, click.windowId);
    if (!view) return; // a click on a window that is already closed
    const before = snapshotOf(view);
    applyClick(player, st, view, click);
    const after = snapshotOf(view);

    // What the client believes now: the server's state before the click plus the slots it says it changed.
    const predicted = before.slice();
    for (const { location, item } of click.changedSlots ?? []) {
      if (location >= 0 && location < view.size) predicted[location] = fromNotch(item);
    }
    let differs = click.stateId !== st.stateId || !sameItem(fromNotch(click.cursorItem), st.cursor);
    for (let s = 1; s < view.size && !differs; s++) differs = !sameItem(predicted[s], after[s]);
    const gridTouched = click.slot === 0 || (click.slot >= 1 && click.slot <= view.grid.length) || view.grid.some((s) => !sameItem(before[s], after[s]));

    if (differs) windowItems(player, st, view);
    else if (gridTouched) player._client.write('set_slot', { windowId: view.id, slot: 0, item: Item.toNotch(resultOf(view)) });
  }

  /**
   * Return a window's grid and the cursor to the inventory (dropping what does not fit). When the player has
   * left (`send` false) the slots are set without packets, before flying-squid saves the player.
   */
  function emptyGrid(player, st, items, send) {
    const back = items.filter(Boolean);
    if (st.cursor) back.push(st.cursor);
    st.cursor = null;
    st.drag = null;
    for (const item of back) {
      if (send) giveOrDrop(serv, player, item);
      else {
        const left = addToInventory(player, item, (slot, it) => {
          it.slot = slot;
          player.inventory.slots[slot] = it;
        });
        if (left > 0) dropAtPlayer(serv, player, item, left);
      }
    }
  }

  function closeTable(player, st, { tellClient, send = true }) {
    const table = st.table;
    if (!table) return;
    st.table = null;
    clearInterval(table.watch);
    if (tellClient) player._client.write('close_window', { windowId: table.id });
    emptyGrid(player, st, table.grid, send);
  }

  function closeInventoryGrid(player, st, send = true) {
    const grid = [1, 2, 3, 4].map((s) => player.inventory.slots[s] ?? null);
    for (const s of [1, 2, 3, 4]) player.inventory.slots[s] = null;
    if (send && grid.some(Boolean)) for (const s of [0, 1, 2, 3, 4]) player._client.write('set_slot', { windowId: 0, slot: s, item: Item.toNotch(null) });
    emptyGrid(player, st, grid, send);
  }

  function openTable(player, st, position) {
    if (st.table) closeTable(player, st, { tellClient: false });
    st.windowCounter = (st.windowCounter % 100) + 1;
    const center = position.offset(0.5, 0.5, 0.5);
    const table = { id: st.windowCounter, position: position.clone(), center, grid: Array(9).fill(null), watch: null };
    st.table = table;
    // Close it when the player walks away or the table is gone (vanilla checks every tick; twice a second is enough).
    table.watch = setInterval(guard('crafting: watching a table', () => {
      if (st.table !== table) return;
      if (player.position.distanceTo(center) > TABLE_REACH) {
        closeTable(player, st, { tellClient: true });
        return;
      }
      player.world.getBlockType(table.position).then(
        (type) => {
          if (st.table === table && type !== registry.blocksByName.crafting_table.id) closeTable(player, st, { tellClient: true });
        },
        (err) => process.stderr.write(`crafting: reading the table block failed: ${err && err.stack ? err.stack : String(err)}\n`),
      );
    }), 500);
    player._client.write('open_window', {
      windowId: table.id,
      inventoryType: craftingType,
      windowTitle: serv._createChatComponent({ translate: 'container.crafting' }).toNetworkFormat(),
    });
    windowItems(player, st, viewFor(player, st, table.id));
  }

  serv.on('newPlayer', (player) => {
    const st = { stateId: 0, cursor: null, drag: null, table: null, windowCounter: 0 };
    sessions.set(player, st);

    // Every inventory packet carries the next state id (mineflayer sends back the last one it saw), and while a
    // table is open the player's own slots are sent as that window's slots, as vanilla does.
    const client = player._client;
    const write = client.write.bind(client);
    client.write = (name, params) => {
      if (name === 'set_slot' || name === 'window_items') {
        st.stateId = (st.stateId + 1) & 0x7fff;
        params = { ...params, stateId: st.stateId };
        if (name === 'set_slot' && params.windowId === 0 && st.table && params.slot >= 9 && params.slot <= 44) {
          params.windowId = st.table.id;
          params.slot += 1;
        }
      }
      return write(name, params);
    };

    // flying-squid's own handler (prismarine-windows on the raw packet) would change the inventory a second time.
    for (const listener of client.listeners('window_click')) client.off('window_click', listener);
    client.on('window_click', guard('crafting: window click', (click) => onClick(player, st, click)));
    client.on(
      'close_window',
      guard('crafting: closing a window', ({ windowId }) => {
        if (st.table && windowId === st.table.id) closeTable(player, st, { tellClient: false });
        else if (windowId === 0) closeInventoryGrid(player, st);
      }),
    );
    // Before flying-squid's logout handler saves the player: the grid and cursor go back into the inventory.
    client.prependListener(
      'end',
      guard('crafting: a player leaving', () => {
        closeTable(player, st, { tellClient: false, send: false });
        closeInventoryGrid(player, st, false);
      }),
    );
  });

  serv.onBlockInteraction('crafting_table', guard('crafting: opening a table', ({ block, player }) => {
    const st = sessions.get(player);
    if (!st) return false;
    const held = player.inventory.slots[36 + player.heldItemSlot];
    if (player.crouching && held) return false; // sneaking with an item in hand places it instead
    openTable(player, st, block.position);
    return true;
  }));

  return {
    /** Whether a player has a crafting table open (for tests and the operator). */
    tableOpen(player) {
      return !!sessions.get(player)?.table;
    },
    /** The item on a player's cursor, or null. */
    cursorOf(player) {
      return sessions.get(player)?.cursor ?? null;
    },
  };
}

module.exports = crafting;
