// @ts-check
'use strict';
/*
 * Inventory windows for the embedded world: the player's own window (id 0, with its 2×2 crafting grid) and
 * one open container at a time (a crafting table, a furnace), with vanilla's click rules run on the server's
 * own inventory (window-clicks.cjs).
 *
 * flying-squid 1.12.0 hands the raw 1.21.4 `window_click` packet (which has no `item` field) to
 * prismarine-windows, so its inventory drifts from the client's. Here each player's `window_click` handler
 * is replaced; after a click the server answers like vanilla: the crafting result slot is sent after every
 * click on a grid, and when the client's stateId or its predicted slots differ from the server's, the whole
 * window is sent (mineflayer's resync click relies on it). Every inventory packet carries the next state
 * id, and while a container is open the player's own slots are sent as that window's slots.
 *
 * A container closes (its owner gives back what it held) when its player closes it, walks more than 8
 * blocks away, its block is gone, another one opens, or the player leaves.
 */
const { addToInventory, dropAtPlayer, giveOrDrop } = require('./inventory-util.cjs');
const { createClickRules } = require('./window-clicks.cjs');
const { guard } = require('./guard.cjs');

/** Vanilla closes a container whose player is farther than this from it. */
const REACH = 8;
/** Window-0 slots of the player's main inventory and hotbar. */
const INV_START = 9;

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {import('./window-clicks.cjs').View} View
 * @typedef {import('./window-clicks.cjs').ClickState} ClickState
 */

/**
 * What a container kind gives the window layer when it opens for a player.
 * @typedef {object} ContainerSpec
 * @property {number} inventoryType the window type id (prismarine-windows)
 * @property {string} title the translation key of its title
 * @property {number} slots how many container slots come before the player's inventory
 * @property {import('vec3').Vec3} position the block it belongs to
 * @property {number} blockType the block type that must stay at `position`
 * @property {(slot: number) => Item | null} get a container slot (0 ≤ slot < `slots`)
 * @property {(slot: number, item: Item | null) => void} set
 * @property {number} [resultSlot] a crafting result slot (computed from `grid`), if any
 * @property {number[]} [grid] crafting grid slots
 * @property {number} [width] crafting grid width
 * @property {View['mayPlace']} [mayPlace] which items its own slots take (the player's inventory slots take anything)
 * @property {View['quickMove']} [quickMove]
 * @property {() => void} [afterClick] after each click of this player on the window
 * @property {(send: boolean) => Item[]} onClose unregister; returns what goes back into the player's inventory
 */

/**
 * @typedef {ContainerSpec & { id: number, view: View, watch: NodeJS.Timeout | null }} OpenContainer
 * @typedef {ClickState & { stateId: number, container: OpenContainer | null, windowCounter: number }} Session
 */

/**
 * The window layer of one server.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, Item: any, book: ReturnType<typeof import('./recipes.cjs').createRecipeBook> }} ctx
 */
function createWindows(serv, { registry, Item, book }) {
  /** @type {WeakMap<Player, Session>} */
  const sessions = new WeakMap();
  const { applyClick, resultOf } = createClickRules({ serv, book, Item });

  /** @param {Item | null} a @param {Item | null} b */
  const sameItem = (a, b) => (!a && !b) || (!!a && !!b && a.type === b.type && a.count === b.count);
  /** @param {unknown} n @returns {Item | null} */
  const fromNotch = (n) => {
    const item = Item.fromNotch(n);
    return item && item.count > 0 ? item : null;
  };

  /** @param {Player} player @returns {View} */
  function inventoryView(player) {
    const inv = player.inventory.slots;
    return {
      id: 0,
      size: 46,
      resultSlot: 0,
      width: 2,
      grid: [1, 2, 3, 4],
      inv: [9, 45],
      main: [9, 36],
      hotbar: [36, 45],
      get: (s) => inv[s] ?? null,
      set: (s, item) => {
        if (item) item.slot = s;
        inv[s] = item;
      },
    };
  }

  /** @param {Player} player @param {ContainerSpec} spec @param {number} id @returns {View} */
  function containerView(player, spec, id) {
    const inv = player.inventory.slots;
    const n = spec.slots;
    /** @type {View} */
    const view = {
      id,
      size: n + 36,
      resultSlot: spec.resultSlot ?? -1,
      width: spec.width ?? 0,
      grid: spec.grid ?? [],
      inv: [n, n + 36],
      main: [n, n + 27],
      hotbar: [n + 27, n + 36],
      get: (s) => (s < n ? spec.get(s) : (inv[s - n + INV_START] ?? null)),
      set: (s, item) => {
        if (s < n) spec.set(s, item);
        else {
          if (item) item.slot = s - n + INV_START;
          inv[s - n + INV_START] = item;
        }
      },
    };
    const mayPlace = spec.mayPlace;
    // The container's rule is about its own slots; the player's inventory takes anything.
    if (mayPlace) view.mayPlace = (s, item) => s >= n || mayPlace(s, item);
    if (spec.quickMove) view.quickMove = spec.quickMove;
    return view;
  }

  /** @param {Player} player @param {Session} st @param {number} windowId @returns {View | null} */
  function viewFor(player, st, windowId) {
    if (windowId === 0) return inventoryView(player);
    if (st.container && st.container.id === windowId) return st.container.view;
    return null;
  }

  /** @param {View} view */
  function snapshotOf(view) {
    /** @type {Array<{ type: number, count: number } | null>} */
    const out = [];
    for (let s = 0; s < view.size; s++) {
      const item = s === view.resultSlot ? null : view.get(s);
      out.push(item ? { type: item.type, count: item.count } : null);
    }
    return out;
  }

  /** Send a whole window (slots and cursor). @param {Player} player @param {Session} st @param {View} view */
  function windowItems(player, st, view) {
    const items = [];
    for (let s = 0; s < view.size; s++) items.push(Item.toNotch(s === view.resultSlot ? resultOf(view) : view.get(s)));
    player._client.write('window_items', { windowId: view.id, items, carriedItem: Item.toNotch(st.cursor) });
  }

  /** @param {Player} player @param {Session} st @param {any} click the window_click packet */
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
    for (let s = 0; s < view.size && !differs; s++) if (s !== view.resultSlot) differs = !sameItem(/** @type {any} */ (predicted[s]), /** @type {any} */ (after[s]));
    const hasGrid = view.resultSlot >= 0;
    const gridTouched =
      hasGrid && (click.slot === view.resultSlot || view.grid.includes(click.slot) || view.grid.some((s) => !sameItem(/** @type {any} */ (before[s]), /** @type {any} */ (after[s]))));

    if (differs) windowItems(player, st, view);
    else if (gridTouched) player._client.write('set_slot', { windowId: view.id, slot: view.resultSlot, item: Item.toNotch(resultOf(view)) });
    if (view.id !== 0) st.container?.afterClick?.();
  }

  /**
   * Return items and the cursor to the inventory (dropping what does not fit). When the player has left (`send`
   * false) the slots are set without packets, before flying-squid saves the player.
   * @param {Player} player @param {Session} st @param {Array<Item | null>} items @param {boolean} send
   */
  function giveBack(player, st, items, send) {
    const back = /** @type {Item[]} */ (items.filter(Boolean));
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

  /** @param {Player} player @param {Session} st @param {{ tellClient: boolean, send?: boolean }} opts */
  function closeContainer(player, st, { tellClient, send = true }) {
    const c = st.container;
    if (!c) return;
    st.container = null;
    if (c.watch) clearInterval(c.watch);
    if (tellClient) player._client.write('close_window', { windowId: c.id });
    giveBack(player, st, c.onClose(send), send);
  }

  /** @param {Player} player @param {Session} st @param {boolean} [send] */
  function closeInventoryGrid(player, st, send = true) {
    const grid = [1, 2, 3, 4].map((s) => player.inventory.slots[s] ?? null);
    for (const s of [1, 2, 3, 4]) player.inventory.slots[s] = null;
    if (send && grid.some(Boolean)) for (const s of [0, 1, 2, 3, 4]) player._client.write('set_slot', { windowId: 0, slot: s, item: Item.toNotch(null) });
    giveBack(player, st, grid, send);
  }

  /**
   * Open a container window for a player (closing the one open now).
   * @param {Player} player @param {ContainerSpec} spec
   * @returns {OpenContainer | null} null when the player has no session (not joined yet)
   */
  function open(player, spec) {
    const st = sessions.get(player);
    if (!st) return null;
    if (st.container) closeContainer(player, st, { tellClient: false });
    st.windowCounter = (st.windowCounter % 100) + 1;
    const id = st.windowCounter;
    /** @type {OpenContainer} */
    const c = { ...spec, id, view: containerView(player, spec, id), watch: null };
    st.container = c;
    const center = spec.position.offset(0.5, 0.5, 0.5);
    // Close it when the player walks away or the block is gone (vanilla checks every tick; twice a second is enough).
    c.watch = setInterval(
      guard('windows: watching a container', () => {
        if (st.container !== c) return;
        if (player.position.distanceTo(center) > REACH) {
          closeContainer(player, st, { tellClient: true });
          return;
        }
        player.world.getBlockType(spec.position).then(
          (type) => {
            if (st.container === c && type !== spec.blockType) closeContainer(player, st, { tellClient: true });
          },
          (err) => process.stderr.write(`windows: reading a container block failed: ${err && err.stack ? err.stack : String(err)}\n`),
        );
      }),
      500,
    );
    player._client.write('open_window', {
      windowId: id,
      inventoryType: spec.inventoryType,
      windowTitle: serv._createChatComponent({ translate: spec.title }).toNetworkFormat(),
    });
    windowItems(player, st, c.view);
    return c;
  }

  serv.on('newPlayer', (/** @type {Player} */ player) => {
    /** @type {Session} */
    const st = { stateId: 0, cursor: null, drag: null, container: null, windowCounter: 0 };
    sessions.set(player, st);

    const client = player._client;
    const write = client.write.bind(client);
    client.write = (/** @type {string} */ name, /** @type {any} */ params) => {
      if (name === 'set_slot' || name === 'window_items') {
        st.stateId = (st.stateId + 1) & 0x7fff;
        params = { ...params, stateId: st.stateId };
        if (name === 'set_slot' && params.windowId === 0 && st.container && params.slot >= INV_START && params.slot <= 44) {
          params.windowId = st.container.id;
          params.slot += st.container.slots - INV_START;
        }
      }
      return write(name, params);
    };

    // flying-squid's own handler (prismarine-windows on the raw packet) would change the inventory a second time.
    for (const listener of client.listeners('window_click')) client.off('window_click', /** @type {any} */ (listener));
    client.on('window_click', guard('windows: window click', (/** @type {any} */ click) => onClick(player, st, click)));
    client.on(
      'close_window',
      guard('windows: closing a window', (/** @type {{ windowId: number }} */ { windowId }) => {
        if (st.container && windowId === st.container.id) closeContainer(player, st, { tellClient: false });
        else if (windowId === 0) closeInventoryGrid(player, st);
      }),
    );
    // Before flying-squid's logout handler saves the player: the grids and cursor go back into the inventory.
    client.prependListener(
      'end',
      guard('windows: a player leaving', () => {
        closeContainer(player, st, { tellClient: false, send: false });
        closeInventoryGrid(player, st, false);
      }),
    );
  });

  return {
    open,
    /** Close the player's container, if one is open (its items go back). @param {Player} player @param {boolean} tellClient */
    close(player, tellClient) {
      const st = sessions.get(player);
      if (st) closeContainer(player, st, { tellClient });
    },
    /** A player died: its container and its 2×2 grid close, their items and the cursor back in its inventory. @param {Player} player */
    died(player) {
      const st = sessions.get(player);
      if (!st) return;
      closeContainer(player, st, { tellClient: true });
      closeInventoryGrid(player, st);
    },
    /**
     * A player respawned (a new player entity, as in vanilla: its window ids start again): its whole inventory
     * window is sent, as a client that respawned expects it.
     * @param {Player} player
     */
    respawned(player) {
      const st = sessions.get(player);
      if (!st) return;
      st.windowCounter = 0;
      windowItems(player, st, inventoryView(player));
    },
    /** The container a player has open, or null. @param {Player} player */
    containerOf(player) {
      return sessions.get(player)?.container ?? null;
    },
    /** The item on a player's cursor, or null. @param {Player} player */
    cursorOf(player) {
      return sessions.get(player)?.cursor ?? null;
    },
    /**
     * Tell a viewer of an open container that one of its slots changed (not by the viewer's own click).
     * @param {Player} player @param {OpenContainer} c @param {number} slot
     */
    sendSlot(player, c, slot) {
      if (sessions.get(player)?.container !== c) return;
      player._client.write('set_slot', { windowId: c.id, slot, item: Item.toNotch(c.get(slot)) });
    },
    /** A window property (a furnace's fuel and progress). @param {Player} player @param {OpenContainer} c @param {number} property @param {number} value */
    sendProperty(player, c, property, value) {
      if (sessions.get(player)?.container !== c) return;
      player._client.write('craft_progress_bar', { windowId: c.id, property, value });
    },
    /** The window type id of a window key (`minecraft:furnace`). @param {string} key */
    typeOf(key) {
      /** @type {(r: unknown) => { windows: Record<string, { type: number }> }} */
      const windowsFor = /** @type {any} */ (require('prismarine-windows'));
      const def = windowsFor(registry).windows[key];
      if (!def) throw new Error(`no window ${key} in this version`);
      return def.type;
    },
  };
}

module.exports = { createWindows };
