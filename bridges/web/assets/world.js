// The world view: the blocks around the avatar from above (from its own world data), with the avatar,
// other players and mobs marked, and the places it remembers as labelled pins, redrawn as the live stream sends
// new maps; beside it the 3D view (scene.js).
import { colorOf } from './colors.js';
import { fill, h } from './dom.js';

const MARKS = { avatar: '#ffffff', player: '#3b82f6', hostile: '#ef4444', passive: '#facc15', other: '#a3a3a3', place: '#d946ef' };

function shade(hex, heightDiff) {
  const factor = Math.max(0.55, Math.min(1.25, 1 + heightDiff * 0.045));
  const n = parseInt(hex.slice(1), 16);
  const c = (v) => Math.max(0, Math.min(255, Math.round(v * factor)));
  return `rgb(${c(n >> 16)} ${c((n >> 8) & 255)} ${c(n & 255)})`;
}

function draw(canvas, view) {
  const map = view.map;
  const ctx = canvas.getContext('2d');
  const dpr = window.devicePixelRatio || 1;
  // Whole device pixels per block, so neighbouring blocks meet without seams.
  const size = map ? map.size : 49;
  const devCell = Math.max(1, Math.floor(((canvas.clientWidth || 600) * dpr) / size));
  canvas.width = devCell * size;
  canvas.height = devCell * size;
  const cell = devCell / dpr;
  const side = cell * size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, side, side);
  if (!map) return;
  for (let i = 0; i < map.cells.length; i++) {
    const p = map.cells[i];
    if (p < 0) continue;
    const x = i % map.size;
    const z = Math.floor(i / map.size);
    // Light from the north-west: a block lower than its north-west neighbour lies in its shadow.
    const nw = x > 0 && z > 0 ? map.heights[i - map.size - 1] : map.heights[i];
    const shadow = nw > map.heights[i] ? -3 : nw < map.heights[i] ? 1.5 : 0;
    ctx.fillStyle = shade(colorOf(map.palette[p]), map.heights[i] * 0.4 + shadow);
    ctx.fillRect(x * cell, z * cell, cell, cell);
  }
  const at = (pos) => [(pos.x - map.x0) * cell, (pos.z - map.z0) * cell];
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  for (const e of view.entities) {
    const [x, y] = at(e.position);
    if (x < 0 || y < 0 || x > side || y > side) continue;
    dot(ctx, x, y, cell * 0.45 + 2, MARKS[e.kind] ?? MARKS.other);
    if (e.kind === 'player') label(ctx, e.name, x, y - cell - 4);
  }
  const [ax, ay] = [(map.avatar.x + 0.5 - map.x0) * cell, (map.avatar.z + 0.5 - map.z0) * cell];
  ctx.save();
  ctx.translate(ax, ay);
  // mineflayer's yaw is 0 facing north (−z) and grows counter-clockwise seen from above.
  ctx.rotate(-map.avatar.yaw);
  ctx.beginPath();
  ctx.moveTo(0, -cell * 1.4);
  ctx.lineTo(cell * 0.8, cell * 0.7);
  ctx.lineTo(0, cell * 0.3);
  ctx.lineTo(-cell * 0.8, cell * 0.7);
  ctx.closePath();
  ctx.fillStyle = '#ffffff';
  ctx.strokeStyle = '#111111';
  ctx.lineWidth = 2;
  ctx.fill();
  ctx.stroke();
  ctx.restore();
  label(ctx, view.name, ax, ay - cell * 1.6);
  // The places on top: a pin on the block's centre, its name above.
  for (const p of placesOnMap(view)) {
    const [x, y] = at({ x: p.x + 0.5, z: p.z + 0.5 });
    pin(ctx, x, y, cell * 0.5 + 3);
    label(ctx, p.name, x, y - cell * 0.5 - 7);
  }
}

/** The places that fall on the map. */
function placesOnMap(view) {
  const map = view.map;
  if (!map) return [];
  return (view.places ?? []).filter((p) => p.x >= map.x0 && p.x < map.x0 + map.size && p.z >= map.z0 && p.z < map.z0 + map.size);
}

/** A place's mark: a diamond. */
function pin(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
  ctx.fillStyle = MARKS.place;
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2;
  ctx.fill();
  ctx.stroke();
}

/** The places as a list: on the map, or how far off it. */
function placeItems(view) {
  const on = new Set(placesOnMap(view).map((p) => p.name));
  const me = view.position;
  return (view.places ?? []).map((p) => {
    const away = me ? Math.round(Math.hypot(me.x - p.x, me.y - p.y, me.z - p.z)) : null;
    const where = on.has(p.name) ? 'on the map' : away === null ? 'off the map' : `${away} blocks away, off the map`;
    return h('li', { 'data-place': p.name }, h('strong', {}, p.name), ` ${p.x} ${p.y} ${p.z} · ${where}`);
  });
}

function dot(ctx, x, y, r, color) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = color;
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2;
  ctx.fill();
  ctx.stroke();
}

function label(ctx, text, x, y) {
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgb(0 0 0 / 70%)';
  ctx.fillStyle = '#ffffff';
  ctx.strokeText(text, x, y);
  ctx.fillText(text, x, y);
}

/** The world view: `world(w)` from the live stream. */
export function worldView(main, name) {
  const canvas = h('canvas', { class: 'map', 'aria-label': `Map of the blocks around ${name}` });
  const caption = h('p', { class: 'muted', 'data-map-caption': '' }, 'Waiting for the avatar’s world…');
  const places = h('ul', { class: 'places', 'aria-label': `Places ${name} remembers` });
  const legend = h('div', { class: 'legend' },
    ...Object.entries({ [name]: MARKS.avatar, players: MARKS.player, monsters: MARKS.hostile, animals: MARKS.passive, places: MARKS.place }).map(([text, c]) => h('span', { style: null, 'data-c': c }, text)));
  for (const span of legend.children) span.style.setProperty('--c', span.dataset.c);
  // The 3D view's code loads only when a world view opens; its stream only while it shows.
  let scene = null;
  let closed = false;
  const pane = h('div', { class: 'scene-pane' }, h('p', { class: 'muted' }, 'Loading the 3D view…'));
  import('./scene.js').then(({ sceneView }) => {
    if (closed) return;
    scene = sceneView(name);
    pane.replaceWith(scene.element);
  });
  fill(
    main,
    h('a', { class: 'back', href: `/avatar/${encodeURIComponent(name)}`, 'data-nav': '' }, `← ${name}`),
    h('div', { class: 'heading' }, h('h1', {}, `What ${name} sees`), h('span', { class: 'count' }, 'from above, 49 × 49 blocks, and in 3D')),
    h('section', { class: 'world' }, h('div', { class: 'map-pane' }, h('div', { class: 'map-wrap' }, canvas), legend, caption, places), pane),
  );
  let last = null;
  window.addEventListener('resize', () => last && draw(canvas, last));
  return {
    world(w) {
      last = w;
      draw(canvas, w);
      caption.textContent = w.map
        ? `${name} at ${w.map.avatar.x} ${w.map.avatar.y} ${w.map.avatar.z} · ${w.entities.length} ${w.entities.length === 1 ? 'creature' : 'creatures'} near · north is up`
        : `${name} is not in the game right now.`;
      fill(places, placeItems(w));
    },
    problem(p) {
      caption.textContent = p.text;
    },
    close() {
      closed = true;
      scene?.close();
    },
  };
}
