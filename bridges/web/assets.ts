/**
 * The page's files (`bridges/web/assets/`): read once at start, served from
 * memory. Plain HTML, CSS and JavaScript modules; no build step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('./assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/** One file, ready to send. */
export interface Asset {
  body: string;
  type: string;
}

/**
 * @example
 * const assets = Assets.load();
 * assets.get('app.js')?.type; // 'text/javascript; charset=utf-8'
 */
export class Assets {
  private constructor(private readonly files: ReadonlyMap<string, Asset>) {}

  /** Read every file of the assets folder. */
  static load(dir: string = DIR): Assets {
    const files = new Map<string, Asset>();
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (type) files.set(name, { body: readFileSync(join(dir, name), 'utf8'), type });
    }
    return new Assets(files);
  }

  /** A file by its name (only the folder's own files; nothing else can be named). */
  get(name: string): Asset | undefined {
    return this.files.get(name);
  }

  /** An HTML page's text. Throws when the page is missing (a broken checkout). */
  page(name: string): string {
    const page = this.files.get(name);
    if (!page) throw new Error(`the dashboard page ${name} is missing from ${DIR}`);
    return page.body;
  }

  /** The names and sizes of the files (the benchmark's first-load figure). */
  sizes(): { name: string; bytes: number }[] {
    return [...this.files].map(([name, a]) => ({ name, bytes: Buffer.byteLength(a.body) }));
  }
}
