// A small WebGL renderer for the 3D view: coloured triangles (the blocks, the creatures), a perspective
// camera, and fog into the sky's colour so the edge of what the avatar's world data holds fades away.
// Drawn only when something changed, never in a loop.

const VERTEX = `
attribute vec3 position;
attribute vec3 color;
uniform mat4 viewProjection;
uniform vec3 eye;
varying vec3 vColor;
varying float vDistance;
void main() {
  vColor = color;
  vDistance = distance(position, eye);
  gl_Position = viewProjection * vec4(position, 1.0);
}`;

const FRAGMENT = `
precision mediump float;
uniform vec3 sky;
uniform vec2 fog;
varying vec3 vColor;
varying float vDistance;
void main() {
  gl_FragColor = vec4(mix(vColor, sky, smoothstep(fog.x, fog.y, vDistance)), 1.0);
}`;

function compile(gl, type, source) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`WebGL: ${gl.getShaderInfoLog(shader)}`);
  return shader;
}

function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += a[k * 4 + r] * b[c * 4 + k];
    out[c * 4 + r] = sum;
  }
  return out;
}

function perspective(fovY, aspect, near, far) {
  const f = 1 / Math.tan(fovY / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

function lookAt(eye, target) {
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const norm = (v) => {
    const l = Math.hypot(...v) || 1;
    return v.map((x) => x / l);
  };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, target));
  // Straight up or down: any "up" across the view will do.
  const x = norm(cross(Math.abs(z[1]) > 0.999 ? [0, 0, 1] : [0, 1, 0], z));
  const y = cross(z, x);
  return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
}

/**
 * A renderer on `canvas`, or null where the browser has no WebGL. `set(layer, mesh)` replaces a layer's
 * triangles (`{ positions, colors }`, three floats per vertex each); `draw(camera)` draws every layer.
 */
export function renderer(canvas, { sky = [0.62, 0.78, 0.95], fog = [11, 17] } = {}) {
  // No antialiasing (costly where WebGL runs on the CPU); the drawing kept after it is shown, so a picture can be taken of it.
  const gl = canvas.getContext('webgl', { antialias: false, alpha: false, preserveDrawingBuffer: true });
  if (!gl) return null;
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`WebGL: ${gl.getProgramInfoLog(program)}`);
  gl.useProgram(program);
  const at = { position: gl.getAttribLocation(program, 'position'), color: gl.getAttribLocation(program, 'color') };
  const u = Object.fromEntries(['viewProjection', 'eye', 'sky', 'fog'].map((n) => [n, gl.getUniformLocation(program, n)]));
  gl.enable(gl.DEPTH_TEST);
  gl.enableVertexAttribArray(at.position);
  gl.enableVertexAttribArray(at.color);
  const layers = new Map();

  return {
    set(name, mesh) {
      let layer = layers.get(name);
      if (!layer) layers.set(name, (layer = { positions: gl.createBuffer(), colors: gl.createBuffer(), count: 0 }));
      gl.bindBuffer(gl.ARRAY_BUFFER, layer.positions);
      gl.bufferData(gl.ARRAY_BUFFER, mesh.positions, gl.DYNAMIC_DRAW);
      gl.bindBuffer(gl.ARRAY_BUFFER, layer.colors);
      gl.bufferData(gl.ARRAY_BUFFER, mesh.colors, gl.DYNAMIC_DRAW);
      layer.count = mesh.positions.length / 3;
    },
    /** `camera`: `{ eye: [x, y, z], target: [x, y, z] }`; null draws only the sky (nothing to show). */
    draw(camera) {
      const dpr = window.devicePixelRatio || 1;
      const width = Math.min(1280, Math.round((canvas.clientWidth || 640) * dpr));
      const height = Math.min(960, Math.round((canvas.clientHeight || 480) * dpr));
      if (canvas.width !== width || canvas.height !== height) [canvas.width, canvas.height] = [width, height];
      gl.viewport(0, 0, width, height);
      gl.clearColor(sky[0], sky[1], sky[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      if (!camera) return;
      const matrix = multiply(perspective((70 * Math.PI) / 180, width / height, 0.05, 64), lookAt(camera.eye, camera.target));
      gl.uniformMatrix4fv(u.viewProjection, false, matrix);
      gl.uniform3fv(u.eye, camera.eye);
      gl.uniform3fv(u.sky, sky);
      gl.uniform2fv(u.fog, fog);
      for (const layer of layers.values()) {
        if (layer.count === 0) continue;
        gl.bindBuffer(gl.ARRAY_BUFFER, layer.positions);
        gl.vertexAttribPointer(at.position, 3, gl.FLOAT, false, 0, 0);
        gl.bindBuffer(gl.ARRAY_BUFFER, layer.colors);
        gl.vertexAttribPointer(at.color, 3, gl.FLOAT, false, 0, 0);
        gl.drawArrays(gl.TRIANGLES, 0, layer.count);
      }
    },
  };
}
