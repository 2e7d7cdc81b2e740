// The 3D view's triangles: a cube per block with only the faces that can be seen (a face against an opaque
// neighbour is left out), plants as two crossed panes, creatures as boxes; flat colours by block name
// (colors.js), each face shaded by the way it faces, so the shapes read without textures or lights.
import { rgbOf } from './colors.js';

/** Blocks drawn as two crossed panes, not a cube. */
const PLANT = /(^|_)(short_grass|tall_grass|fern|large_fern|dandelion|poppy|tulip|orchid|bluet|daisy|cornflower|lily_of_the_valley|allium|sapling|dead_bush|bush|sugar_cane|mushroom|torch|seagrass|kelp|kelp_plant|wheat|carrots|potatoes|beetroots|vine|rose|peony|lilac|sunflower|pitcher_plant|torchflower)$/;
/** Blocks light passes: a neighbour's face against one of them is drawn. */
const SEE_THROUGH = /(^water$|^lava$|glass|_pane$|^ice$|_fence$|_fence_gate$|_door$|_trapdoor$|^ladder$|^snow$|_carpet$|_sign$|_rail$|^rail$)/;

// How light falls on each face (top, bottom, east, west, south, north).
const LIGHT = [1, 0.5, 0.8, 0.8, 0.66, 0.66];
// Per face: its normal, and its four corners (offsets from the block's lowest corner), counter-clockwise.
const FACES = [
  [[0, 1, 0], [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]]],
  [[0, -1, 0], [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]],
  [[1, 0, 0], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]],
  [[-1, 0, 0], [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]]],
  [[0, 0, 1], [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]],
  [[0, 0, -1], [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]]],
];

/** `x,y,z` of a block. */
export const keyOf = (x, y, z) => `${x},${y},${z}`;

/** Whether a block hides what is behind it (a cube of its own that light does not pass). */
export function opaque(name) {
  return name !== undefined && !PLANT.test(name) && !SEE_THROUGH.test(name);
}

/** Growable arrays of floats for the renderer: positions and colours, three per vertex. */
function buffers(vertices = 4096) {
  return { positions: new Float32Array(vertices * 3), colors: new Float32Array(vertices * 3), n: 0 };
}

function vertex(b, [x, y, z], r, g, bl) {
  if (b.n * 3 + 3 > b.positions.length) {
    for (const k of ['positions', 'colors']) {
      const bigger = new Float32Array(b[k].length * 2);
      bigger.set(b[k]);
      b[k] = bigger;
    }
  }
  const i = b.n * 3;
  b.positions[i] = x;
  b.positions[i + 1] = y;
  b.positions[i + 2] = z;
  b.colors[i] = r;
  b.colors[i + 1] = g;
  b.colors[i + 2] = bl;
  b.n += 1;
}

function finish(b) {
  return { positions: b.positions.subarray(0, b.n * 3), colors: b.colors.subarray(0, b.n * 3) };
}

/** A small steady variation per block, so a flat field of one colour still shows its blocks. */
function grain(x, y, z) {
  const n = Math.sin(x * 12.9898 + y * 78.233 + z * 37.719) * 43758.5453;
  return 0.93 + (n - Math.floor(n)) * 0.1;
}

function quad(b, corners, rgb, light) {
  const [r, g, bl] = [rgb[0] * light, rgb[1] * light, rgb[2] * light];
  for (const i of [0, 1, 2, 0, 2, 3]) vertex(b, corners[i], r, g, bl);
}

/** The faces of a box from `lo` to `hi` (each `[x, y, z]`), turned by `yaw` about the vertical line through `pivot` (`[x, z]`, its own centre by default). */
function box(b, lo, hi, rgb, yaw = 0, skip = () => false, pivot = [(lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2]) {
  const [cx, cz] = pivot;
  const [s, c] = [Math.sin(yaw), Math.cos(yaw)];
  const turn = ([x, y, z]) => [cx + (x - cx) * c + (z - cz) * s, y, cz - (x - cx) * s + (z - cz) * c];
  FACES.forEach(([, corners], f) => {
    if (skip(f)) return;
    quad(b, corners.map(([x, y, z]) => turn([x ? hi[0] : lo[0], y ? hi[1] : lo[1], z ? hi[2] : lo[2]])), rgb, LIGHT[f]);
  });
}

const DIRT = rgbOf('dirt');

/** The blocks' triangles: `blocks` maps `x,y,z` to a palette index. */
export function blockMesh(blocks, palette) {
  const b = buffers(blocks.size * 12);
  for (const [key, p] of blocks) {
    const name = palette[p];
    const [x, y, z] = key.split(',').map(Number);
    const g = grain(x, y, z);
    const rgb = rgbOf(name).map((v) => v * g);
    if (PLANT.test(name)) {
      const lo = 0.15;
      const hi = 0.85;
      const top = name === 'sugar_cane' || name.startsWith('tall') || name.startsWith('large') ? 1 : 0.7;
      quad(b, [[x + lo, y, z + lo], [x + hi, y, z + hi], [x + hi, y + top, z + hi], [x + lo, y + top, z + lo]], rgb, 0.9);
      quad(b, [[x + hi, y, z + lo], [x + lo, y, z + hi], [x + lo, y + top, z + hi], [x + hi, y + top, z + lo]], rgb, 0.8);
      continue;
    }
    const fluid = name === 'water' || name === 'lava';
    // A face is left out where its neighbour hides it, or is the same fluid or glass (no walls inside a lake).
    const hidden = (f) => {
      const [nx, ny, nz] = FACES[f][0];
      const other = palette[blocks.get(keyOf(x + nx, y + ny, z + nz))];
      return opaque(other) || (other === name && !opaque(name));
    };
    // A grass block is green on top and earth on its sides.
    const sides = name === 'grass_block' ? DIRT.map((v) => v * g) : rgb;
    FACES.forEach(([, corners], f) => {
      if (hidden(f)) return;
      const top = fluid && f === 0 ? 0.88 : 1;
      quad(b, corners.map(([cx, cy, cz]) => [x + cx, y + (cy ? top : 0), z + cz]), f === 0 ? rgb : sides, LIGHT[f]);
    });
  }
  return finish(b);
}

const KINDS = {
  player: { rgb: [0.23, 0.51, 0.96], w: 0.6, h: 1.8 },
  hostile: { rgb: [0.94, 0.27, 0.27], w: 0.6, h: 1.9 },
  passive: { rgb: [0.98, 0.8, 0.08], w: 0.9, h: 1.3 },
  other: { rgb: [0.64, 0.64, 0.64], w: 0.5, h: 0.5 },
};

/** The creatures near the avatar as boxes; with `self`, the avatar too (a body, and a head with a dark face the way it looks). */
export function thingMesh(entities, pose, self) {
  const b = buffers(256);
  for (const e of entities) {
    const k = KINDS[e.kind] ?? KINDS.other;
    const { x, y, z } = e.position;
    box(b, [x - k.w / 2, y, z - k.w / 2], [x + k.w / 2, y + k.h, z + k.w / 2], k.rgb);
  }
  if (self && pose) {
    const { x, y, z, yaw } = pose;
    box(b, [x - 0.3, y, z - 0.2], [x + 0.3, y + 1.35, z + 0.2], [0.92, 0.93, 0.95], yaw);
    // The head: its north side (−z before turning) is the face, drawn dark.
    box(b, [x - 0.25, y + 1.35, z - 0.25], [x + 0.25, y + 1.85, z + 0.25], [0.96, 0.84, 0.7], yaw, (f) => f === 5);
    box(b, [x - 0.25, y + 1.35, z - 0.26], [x + 0.25, y + 1.85, z - 0.25], [0.2, 0.16, 0.13], yaw, (f) => f !== 5, [x, z]);
  }
  return finish(b);
}
