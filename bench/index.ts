/**
 * Runs every benchmark file in bench/ (each exports a default async function that prints its figures).
 * `npm run bench` runs them all; `npm run bench -- game` runs only bench/game.ts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = new Set(process.argv.slice(2));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .filter((f) => only.size === 0 || only.has(f.replace(/\.ts$/, '')))
  .sort();

for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: () => Promise<void> };
  if (typeof mod.default !== 'function') continue;
  console.log(`\n== ${file} ==`);
  const started = Date.now();
  await mod.default();
  console.log(`(${file} took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
