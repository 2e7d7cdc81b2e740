/**
 * The live streams of open 3D views (Server-Sent Events). Nothing is read
 * for them while none is open: with one open, the avatar's game is asked
 * every {@link POSE_MS} where it stands and looks and who is near (sent when
 * it changed), and every {@link BLOCKS_MS} for the blocks around it (sent as
 * what changed, `block-feed.ts`). Every stream is asked for with the page's
 * own viewer, so what a page may see is decided for it each time, by the same
 * rights as the world view; a closed page stops it all.
 */
import type { Logger } from 'pino';
import type { ChatContext } from '../../src/chat.ts';
import type { Dashboard, SceneView } from '../../src/dashboard.ts';
import { UserError } from '../../src/errors.ts';
import { SCENE_BLOCKS_MS } from '../../src/game/scene.ts';
import type { Destination } from '../../src/store/schema.ts';
import { BlockFeed } from './block-feed.ts';

/** How often a watched avatar's pose and the creatures near it are looked at (ms). */
export const POSE_MS = 200;
/** How often its blocks are asked for (ms); its game reads them at most this often whoever asks. */
export const BLOCKS_MS = SCENE_BLOCKS_MS;
/** Most open 3D views of one signed-in page's session; a new one beyond that closes the oldest. */
export const SCENES_PER_SESSION = 2;

/** One message to a 3D view: an SSE event name and its JSON data. */
export interface SceneEvent {
  event: 'pose' | 'blocks' | 'problem' | 'signed-out';
  data: string;
}

/** An open 3D view's stream. */
export interface SceneClient {
  /** The page's viewer (rights as in the chat the link was asked in). */
  viewer: ChatContext;
  /** The page's own destination (its session). */
  dest: Destination;
  /** The avatar it shows, as the page named it. */
  avatar: string;
  /** Whether the session still lasts. */
  valid(): boolean;
  send(event: SceneEvent): void;
  close(): void;
}

interface Shown {
  /** The block reading the page has (-1: none). */
  seq: number;
  pose: string;
  problem: string;
}

/** What one view's viewer was answered: the view, or why not (nothing: the session ended). */
interface Seen {
  client: SceneClient;
  view?: SceneView;
  err?: unknown;
}

interface Feed {
  blocks: BlockFeed;
  askedAt: number;
}

/**
 * @example
 * const scenes = new LiveScenes(dashboard, log);
 * const stop = scenes.add(client); // poses and blocks until stop()
 */
export class LiveScenes {
  readonly #clients = new Map<SceneClient, Shown>();
  /** Per avatar as the pages name it: its blocks as last sent. Gone with its last page. */
  readonly #feeds = new Map<string, Feed>();
  #timer: NodeJS.Timeout | undefined;
  #busy = false;

  constructor(
    private readonly dashboard: Dashboard,
    private readonly log: Logger,
  ) {}

  /** Start streaming to a 3D view; returns the function that ends it. */
  add(client: SceneClient): () => void {
    const same = [...this.#clients.keys()].filter((c) => c.dest === client.dest);
    for (const old of same.slice(0, Math.max(0, same.length - SCENES_PER_SESSION + 1))) {
      old.close();
      this.#remove(old);
    }
    this.#clients.set(client, { seq: -1, pose: '', problem: '' });
    this.#timer ??= setInterval(() => void this.#tick(), POSE_MS);
    this.#timer.unref();
    void this.#tick();
    return () => this.#remove(client);
  }

  /** 3D views open now. */
  get size(): number {
    return this.#clients.size;
  }

  /** Avatars whose blocks are kept for open views now. */
  get watched(): number {
    return this.#feeds.size;
  }

  /** Close every stream (shutdown). */
  closeAll(): void {
    for (const client of [...this.#clients.keys()]) {
      client.close();
      this.#remove(client);
    }
  }

  #remove(client: SceneClient): void {
    this.#clients.delete(client);
    if (![...this.#clients.keys()].some((c) => c.avatar === client.avatar)) this.#feeds.delete(client.avatar);
    if (this.#clients.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #tick(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const byAvatar = new Map<string, SceneClient[]>();
      for (const client of this.#clients.keys()) byAvatar.set(client.avatar, [...(byAvatar.get(client.avatar) ?? []), client]);
      await Promise.all([...byAvatar].map(([avatar, clients]) => this.#update(avatar, clients)));
    } finally {
      this.#busy = false;
    }
  }

  /** Ask the avatar's game once for all its views (each with its own viewer) and send each what changed. */
  async #update(avatar: string, clients: SceneClient[]): Promise<void> {
    let feed = this.#feeds.get(avatar);
    if (!feed) this.#feeds.set(avatar, (feed = { blocks: new BlockFeed(), askedAt: 0 }));
    const now = Date.now();
    const withBlocks = now - feed.askedAt >= BLOCKS_MS;
    if (withBlocks) feed.askedAt = now;
    const ask = async (client: SceneClient): Promise<Seen> => {
      if (!client.valid()) return { client };
      try {
        return { client, view: await this.dashboard.scene(client.viewer, avatar, withBlocks) };
      } catch (err) {
        return { client, err };
      }
    };
    const seen = await Promise.all(clients.map(ask));
    const blocks = seen.find((s) => s.view?.scene?.blocks)?.view?.scene?.blocks;
    if (blocks) feed.blocks.take(blocks);
    for (const { client, view, err } of seen) {
      const shown = this.#clients.get(client);
      if (!shown) continue;
      if (!client.valid()) {
        client.send({ event: 'signed-out', data: '{}' });
        client.close();
        this.#remove(client);
      } else if (view) {
        this.#show(client, shown, view, feed.blocks);
      } else {
        // What the viewer may not (or no longer) see is said in chat's own words; anything else is logged.
        const text = err instanceof UserError ? err.message : 'Something went wrong; the log says what.';
        if (!(err instanceof UserError)) this.log.error({ err }, 'web: a 3D view update failed');
        const problem = JSON.stringify({ text });
        if (problem !== shown.problem) client.send({ event: 'problem', data: (shown.problem = problem) });
        // A view that may see it again starts from nothing.
        shown.seq = -1;
        shown.pose = '';
      }
    }
  }

  #show(client: SceneClient, shown: Shown, view: SceneView, blocks: BlockFeed): void {
    shown.problem = '';
    const pose = JSON.stringify({ name: view.name, pose: view.scene?.pose ?? null, entities: view.scene?.entities ?? [] });
    if (pose !== shown.pose) client.send({ event: 'pose', data: (shown.pose = pose) });
    const message = blocks.message(shown.seq);
    if (message !== null) {
      client.send({ event: 'blocks', data: message });
      shown.seq = blocks.seq;
    }
  }
}
