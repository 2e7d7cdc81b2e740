/**
 * The blocks one avatar's 3D views draw, kept between readings so that a
 * page gets every block once and after that only what changed: the blocks
 * that appeared or changed (`set`) and those gone or out of reach (`clear`).
 * A page that missed a reading, or just opened, gets them all (`full`).
 */
import type { SceneBlocks } from '../../src/game/game.ts';

/** One message to a page's 3D view. */
export interface BlocksMessage {
  /** The reading it brings the page to. */
  seq: number;
  /** The page drops what it has and takes `set` as everything. */
  full: boolean;
  /** The block names `set` uses (only ever grows for one avatar, so earlier indices stay good). */
  palette: string[];
  /** Four numbers per block: x, y, z and its index into `palette`. */
  set: number[];
  /** Three numbers per block gone: x, y, z. */
  clear: number[];
}

/**
 * @example
 * const feed = new BlockFeed();
 * feed.take(reading);          // true: a new reading
 * feed.message(-1);            // everything, for a page that has nothing
 * feed.message(feed.seq - 1);  // what changed since the reading before
 */
export class BlockFeed {
  /** The number of the latest reading (0: none yet). */
  seq = 0;
  readonly #palette: string[] = [];
  readonly #index = new Map<string, number>();
  /** `x,y,z` → palette index, as of the latest reading. */
  #blocks = new Map<string, number>();
  #takenAt = -1;
  #diff: { set: number[]; clear: number[] } = { set: [], clear: [] };
  /** The messages of the latest reading, made once for every page that needs them. */
  #sent = new Map<'full' | 'diff', string>();

  /** Take a reading; false when it is the one taken last (a game answers with its last reading when asked again soon). */
  take(reading: SceneBlocks): boolean {
    if (reading.takenAt === this.#takenAt) return false;
    this.#takenAt = reading.takenAt;
    const next = new Map<string, number>();
    const set: number[] = [];
    const { blocks, palette } = reading;
    for (let i = 0; i + 3 < blocks.length; i += 4) {
      const [x, y, z, p] = [blocks[i] ?? 0, blocks[i + 1] ?? 0, blocks[i + 2] ?? 0, blocks[i + 3] ?? 0];
      const key = `${x},${y},${z}`;
      const index = this.#paletteIndex(palette[p] ?? 'stone');
      next.set(key, index);
      if (this.#blocks.get(key) !== index) set.push(x, y, z, index);
    }
    const clear: number[] = [];
    for (const key of this.#blocks.keys()) {
      if (!next.has(key)) clear.push(...key.split(',').map(Number));
    }
    this.#blocks = next;
    this.#diff = { set, clear };
    this.#sent.clear();
    this.seq += 1;
    return true;
  }

  /** What a page that has seen reading `seen` needs (as JSON), or null when it has the latest or there is none. */
  message(seen: number): string | null {
    if (this.seq === 0 || seen === this.seq) return null;
    const kind = seen === this.seq - 1 ? 'diff' : 'full';
    let text = this.#sent.get(kind);
    if (text === undefined) {
      const body: BlocksMessage =
        kind === 'diff'
          ? { seq: this.seq, full: false, palette: this.#palette, ...this.#diff }
          : { seq: this.seq, full: true, palette: this.#palette, set: this.#all(), clear: [] };
      text = JSON.stringify(body);
      this.#sent.set(kind, text);
    }
    return text;
  }

  /** Blocks held now. */
  get size(): number {
    return this.#blocks.size;
  }

  #all(): number[] {
    const out: number[] = [];
    for (const [key, p] of this.#blocks) out.push(...key.split(',').map(Number), p);
    return out;
  }

  #paletteIndex(name: string): number {
    let i = this.#index.get(name);
    if (i === undefined) {
      i = this.#palette.length;
      this.#palette.push(name);
      this.#index.set(name, i);
    }
    return i;
  }
}
