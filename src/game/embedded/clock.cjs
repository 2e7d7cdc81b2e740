// @ts-check
'use strict';
/*
 * The embedded world's clock across restarts: flying-squid 1.12.0 starts every world at tick 0 (morning),
 * so a world restarted at night would jump to day. Here the time of day is written to `<world>/clock.json`
 * every 30 s and on shutdown (a temp file, then a rename) and read back at start. `/time` still sets it.
 */
const fs = require('node:fs');
const path = require('node:path');

const SAVE_EVERY_MS = 30_000;

/**
 * Keep a server's time of day across restarts.
 *
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ worldFolder: string }} ctx
 */
function clock(serv, { worldFolder }) {
  const file = path.join(worldFolder, 'clock.json');
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (Number.isInteger(saved?.time) && saved.time >= 0) serv.time = saved.time % 24000;
  } catch (err) {
    // No clock yet (a new world) starts in the morning; anything else is said, and the world starts in the morning.
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') process.stderr.write(`clock: reading ${file} failed: ${/** @type {Error} */ (err).message}\n`);
  }
  let saving = Promise.resolve();
  const save = () => {
    const text = `${JSON.stringify({ time: serv.time })}\n`;
    saving = saving
      .then(async () => {
        await fs.promises.writeFile(`${file}.tmp`, text, { mode: 0o600 });
        await fs.promises.rename(`${file}.tmp`, file);
      })
      .catch((err) => {
        process.stderr.write(`clock: saving ${file} failed: ${err && err.message}\n`);
      });
    return saving;
  };
  setInterval(() => void save(), SAVE_EVERY_MS).unref();
  return { flush: save };
}

/** The tick of the day (0–23999) of a world time. @param {number} time */
const dayTick = (time) => ((time % 24000) + 24000) % 24000;

/** Whether the sun is up at a world time (vanilla's daylight in clear weather). @param {number} time */
function isDay(time) {
  const t = dayTick(time);
  return t < 12542 || t >= 23460;
}

/** Whether it is dark enough on the surface for monsters to spawn (vanilla, clear weather). @param {number} time */
function isNight(time) {
  const t = dayTick(time);
  return t >= 13188 && t < 22812;
}

module.exports = { clock, isDay, isNight };
