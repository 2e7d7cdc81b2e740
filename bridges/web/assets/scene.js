// The 3D view: what the avatar sees, through its eyes or from behind it, drawn from the blocks and poses
// its own stream sends (/api/avatars/<name>/scene). The stream is open only while the view is on screen:
// a hidden tab or another page closes it, and then nothing is read for it in mindlink.
import { h } from './dom.js';
import { renderer } from './gl.js';
import { blockMesh, keyOf, opaque, thingMesh } from './scene-mesh.js';

const EYES = 1.62;
const BEHIND = 4;
const HEADINGS = ['north', 'north-west', 'west', 'south-west', 'south', 'south-east', 'east', 'north-east'];

/** Where the camera is and looks, from the avatar's pose: at its eyes, or behind and above it (pulled in before a wall). */
function cameraOf(pose, mode, blocks, palette) {
  const eye = [pose.x, pose.y + EYES, pose.z];
  const ahead = [-Math.sin(pose.yaw) * Math.cos(pose.pitch), Math.sin(pose.pitch), -Math.cos(pose.yaw) * Math.cos(pose.pitch)];
  if (mode === 'eyes') return { eye, target: eye.map((v, i) => v + ahead[i]) };
  // Behind it (the opposite of the way it faces, level) and a little above.
  const back = [Math.sin(pose.yaw), 0.45, Math.cos(pose.yaw)];
  let distance = BEHIND;
  for (let d = 0.3; d <= BEHIND; d += 0.2) {
    const p = eye.map((v, i) => v + back[i] * d);
    if (opaque(palette[blocks.get(keyOf(Math.floor(p[0]), Math.floor(p[1]), Math.floor(p[2])))])) {
      distance = Math.max(0.3, d - 0.3);
      break;
    }
  }
  return { eye: eye.map((v, i) => v + back[i] * distance), target: [eye[0], eye[1] - 0.3, eye[2]] };
}

function heading(yaw) {
  const turn = (((yaw / (2 * Math.PI)) % 1) + 1) % 1;
  return HEADINGS[Math.round(turn * 8) % 8];
}

/** The 3D view of an avatar, built into a new element; `close()` ends its stream. */
export function sceneView(name) {
  const canvas = h('canvas', { class: 'scene', 'aria-label': `What ${name} sees, in 3D` });
  const caption = h('p', { class: 'muted', 'data-scene-caption': '' }, 'Waiting for the avatar’s world…');
  let mode = 'eyes';
  const buttons = ['eyes', 'behind'].map((m) =>
    h('button', { class: 'btn', type: 'button', 'data-camera': m, 'aria-pressed': String(m === mode), on: { click: () => setMode(m) } }, m === 'eyes' ? 'Its eyes' : 'From behind'),
  );
  const element = h('div', { class: 'scene-pane' }, h('div', { class: 'scene-wrap' }, canvas), h('div', { class: 'camera' }, ...buttons), caption);

  const gl = renderer(canvas);
  if (!gl) {
    caption.textContent = 'This browser cannot draw 3D (WebGL is off).';
    return { element, close() {} };
  }
  const blocks = new Map();
  let palette = [];
  let pose = null;
  let entities = [];
  let problem = null;
  let queued = false;

  const draw = () => {
    queued = false;
    gl.set('things', thingMesh(entities, pose, mode === 'behind'));
    gl.draw(pose ? cameraOf(pose, mode, blocks, palette) : null);
    caption.textContent = problem ?? (pose ? `${name} at ${Math.floor(pose.x)} ${Math.floor(pose.y)} ${Math.floor(pose.z)} · facing ${heading(pose.yaw)} · ${entities.length} ${entities.length === 1 ? 'creature' : 'creatures'} near` : `${name} is not in the game right now.`);
  };
  const redraw = () => {
    if (!queued) requestAnimationFrame(draw);
    queued = true;
  };
  function setMode(m) {
    mode = m;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.camera === m));
    redraw();
  }

  const on = {
    pose(p) {
      problem = null;
      pose = p.pose;
      entities = p.entities;
      redraw();
    },
    blocks(b) {
      if (b.full) blocks.clear();
      palette = b.palette;
      for (let i = 0; i < b.clear.length; i += 3) blocks.delete(keyOf(b.clear[i], b.clear[i + 1], b.clear[i + 2]));
      for (let i = 0; i < b.set.length; i += 4) blocks.set(keyOf(b.set[i], b.set[i + 1], b.set[i + 2]), b.set[i + 3]);
      gl.set('blocks', blockMesh(blocks, palette));
      redraw();
    },
    problem(p) {
      // What it may no longer see goes from the screen too.
      problem = p.text;
      pose = null;
      blocks.clear();
      gl.set('blocks', blockMesh(blocks, palette));
      redraw();
    },
  };

  let source = null;
  const open = () => {
    if (source || document.hidden) return;
    source = new EventSource(`/api/avatars/${encodeURIComponent(name)}/scene`);
    for (const [event, fn] of Object.entries(on)) source.addEventListener(event, (e) => fn(JSON.parse(e.data)));
    source.addEventListener('signed-out', () => shut());
  };
  const shut = () => {
    source?.close();
    source = null;
  };
  const visibility = () => (document.hidden ? shut() : open());
  document.addEventListener('visibilitychange', visibility);
  const resize = () => redraw();
  window.addEventListener('resize', resize);
  open();
  return {
    element,
    close() {
      shut();
      document.removeEventListener('visibilitychange', visibility);
      window.removeEventListener('resize', resize);
    },
  };
}
