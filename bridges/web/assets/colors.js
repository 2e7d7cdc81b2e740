// A colour per block name, for the world view's map and its 3D view (a small palette; the rest by family,
// and any other name gets a muted colour of its own).

const COLORS = {
  grass_block: '#5f9f3c', short_grass: '#6cad47', tall_grass: '#6cad47', fern: '#5e9a45', dirt: '#866043', coarse_dirt: '#77553a',
  podzol: '#6a4a2c', farmland: '#7a5233', dirt_path: '#9c8453', mud: '#3c3837', stone: '#8b8b8b', cobblestone: '#7b7b7b',
  andesite: '#8a8b8c', diorite: '#c4c3c0', granite: '#9a6b57', deepslate: '#4f4f55', tuff: '#6b6d66', bedrock: '#343434',
  gravel: '#8c8582', sand: '#dccf94', red_sand: '#be6a2c', sandstone: '#d6c88e', clay: '#a1a7b4', water: '#3f76e4', lava: '#e3641b',
  snow: '#f3f8fb', snow_block: '#f3f8fb', ice: '#9ec3f2', packed_ice: '#8db4ea', coal_ore: '#5c5c5c', iron_ore: '#a98f7b',
  copper_ore: '#8b7a5d', gold_ore: '#c8b04a', diamond_ore: '#6fc4c0', crafting_table: '#a0703e', furnace: '#6d6d6d',
  torch: '#ffd86b', dandelion: '#e7d23a', poppy: '#c9322a', sugar_cane: '#8cc46a', cactus: '#2f7d32', pumpkin: '#d98a1f',
};

const hex = (r, g, b) => `#${[r, g, b].map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('')}`;

/** `#rrggbb` of an HSL colour (hue in degrees, saturation and lightness 0–1). */
function hsl(hue, s, l) {
  const k = (n) => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return hex(f(0), f(8), f(4));
}

const known = new Map();

/** The colour of a block, `#rrggbb`. */
export function colorOf(name) {
  let c = known.get(name);
  if (c) return c;
  c = COLORS[name];
  if (!c) {
    if (name.endsWith('_log') || name.endsWith('_wood') || name.endsWith('_stem')) c = '#6d5332';
    else if (name.endsWith('_leaves')) c = name.startsWith('birch') ? '#3f6b28' : '#2b5a1f';
    else if (name.endsWith('_planks') || name.endsWith('_stairs') || name.endsWith('_slab') || name.endsWith('_fence')) c = '#b28a58';
    else if (name.endsWith('_ore')) c = '#8f8478';
    else if (name.includes('water') || name.includes('kelp') || name.includes('seagrass')) c = '#3f76e4';
    else if (name.endsWith('_flower') || name.endsWith('_tulip') || name.endsWith('_orchid')) c = '#d96bb0';
    else if (name.includes('wool') || name.includes('concrete') || name.includes('terracotta')) c = '#c9a88f';
    else {
      let hash = 0;
      for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
      c = hsl(Math.abs(hash) % 360, 0.18, 0.52);
    }
  }
  known.set(name, c);
  return c;
}

/** The colour of a block as three numbers 0–1 (for WebGL). */
export function rgbOf(name) {
  const n = parseInt(colorOf(name).slice(1), 16);
  return [(n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
