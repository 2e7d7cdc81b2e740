/**
 * The files the build compiles (scripts/build.mjs) and `npm start` checks the build against
 * (scripts/start.mjs): every file under src, bridges, commands and skills (the web page's assets are copied).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const DIRS = ['src', 'bridges', 'commands', 'skills'];

/** Every source file (relative to `root`), with its last change (ms). */
export function sourceFiles(root) {
  const out = [];
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push({ file: child, mtimeMs: statSync(path.join(root, child)).mtimeMs });
    }
  };
  for (const dir of DIRS) walk(dir);
  return out;
}
