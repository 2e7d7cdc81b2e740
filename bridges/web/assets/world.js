// The world view: the blocks around the avatar from above (from its own world data), with the avatar,
// other players and mobs marked, redrawn as the live stream sends new maps.
import { fill, h } from './dom.js';

const COLORS = {
  grass_block: '#5f9f3c', short_grass: '#6cad47', tall_grass: '#6cad47', fern: '#5e9a45', dirt: '#866043', coarse_dirt: '#77553a',
  podzol: '#6a4a2c', farmland: '#7a5233', dirt_path: '#9c8453', mud: '#3c3837', stone: '#8b8b8b', cobblestone: '#7b7b7b',
  andesite: '#8a8b8c', diorite: '#c4c3c0', granite: '#9a6b57', deepslate: '#4f4f55', tuff: '#6b6d66', bedrock: '#343434',
  gravel: '#8c8582', sand: '#dccf94', red_sand: '#be6a2c', sandstone: '#d6c88e', clay: '#a1a7b4', water: '#3f76e4', lava: '#e3641b',
  snow: '#f3f8fb', snow_block: '#f3f8fb', ice: '#9ec3f2', packed_ice: '#8db4ea', coal_ore: '#5c5c5c', iron_ore: '#a98f7b',
  copper_ore: '#8b7a5d', gold_ore: '#c8b04a', diamond_ore: '#6fc4c0', crafting_table: '#a0703e', furnace: '#6d6d6d',
  torch: '#ffd86b', dandelion: '#e7d23a', poppy: '#c9322a', sugar_cane: '#8cc46a', cactus: '#2f7d32', pumpkin: '#d98a1f',
};
const MARKS = { avatar: '#ffffff', player: '#3b82f6', hostile: '#ef4444', passive: '#facc15', other: '#a3a3a3' };

function colorOf(name) {
  if (COLORS[name]) return COLORS[name];
  if (name.endsWith('_log') || name.endsWith('_wood') || name.endsWith('_stem')) return '#6d5332';
  if (name.endsWith('_leaves')) return name.startsWith('birch') ? '#3f6b28' : '#2b5a1f';
  if (name.endsWith('_planks') || name.endsWith('_stairs') || name.endsWith('_slab') || name.endsWith('_fence')) return '#b28a58';
  if (name.endsWith('_ore')) return '#8f8478';
  if (name.includes('water') || name.includes('kelp') || name.includes('seagrass')) return '#3f76e4';
  if (name.endsWith('_flower') || name.endsWith('_tulip') || name.endsWith('_orchid')) return '#d96bb0';
  if (name.includes('wool') || name.includes('concrete') || name.includes('terracotta')) return '#c9a88f';
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 18% 52%)`;
}

function shade(hex, heightDiff) {
  const factor = Math.max(0.55, Math.min(1.25, 1 + heightDiff * 0.045));
  if (!hex.startsWith('#')) return hex;
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
  const legend = h('div', { class: 'legend' },
    ...Object.entries({ [name]: MARKS.avatar, players: MARKS.player, monsters: MARKS.hostile, animals: MARKS.passive }).map(([text, c]) => h('span', { style: null, 'data-c': c }, text)));
  for (const span of legend.children) span.style.setProperty('--c', span.dataset.c);
  fill(
    main,
    h('a', { class: 'back', href: `/avatar/${encodeURIComponent(name)}`, 'data-nav': '' }, `← ${name}`),
    h('div', { class: 'heading' }, h('h1', {}, `What ${name} sees`), h('span', { class: 'count' }, 'from above, 49 × 49 blocks')),
    h('section', { class: 'world' }, h('div', { class: 'map-wrap' }, canvas), legend, caption),
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
    },
    problem(p) {
      caption.textContent = p.text;
    },
  };
}
