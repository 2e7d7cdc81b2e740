/**
 * An avatar's game as the core sees it when the game runs on an avatar host:
 * the same {@link AvatarGame} the loop and the engines know (state, reasons,
 * events, a snapshot read at once), kept up to date by the host's messages,
 * and its skills run there through {@link HostedGame.runSkill}.
 */
import { EventEmitter } from 'node:events';
import type { AvatarGame, GameCapabilities, GameEvents, GameServer, GameState, SayOutcome, Scene, Snapshot } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';
import type { GameEventMessage, GameStateMessage } from './protocol.ts';

/** What a hosted game asks of its pool (see `HostPool`). */
export interface HostLink {
  start(game: HostedGame): void;
  stop(game: HostedGame): Promise<void>;
  runSkill(game: HostedGame, id: string, params: unknown, signal: AbortSignal): Promise<SkillResult>;
  map(game: HostedGame, radius: number): Promise<TopDownMap | null>;
  scene(game: HostedGame, radius: number, blocks: boolean): Promise<Scene | null>;
  hear(game: HostedGame, on: boolean): void;
  say(game: HostedGame, line: string): Promise<SayOutcome>;
}

/** Why a hosted game is out of the world while its host starts again (for `/status`). */
export const HOST_RESTARTING = 'its avatar host stopped and is starting again';

/**
 * @example
 * const game = pool.game({ name: 'demo' }, server, EMBEDDED_CAPABILITIES);
 * await game.start();
 * const r = await game.runSkill('collect', { item: 'oak_log', count: 3 }, signal);
 */
export class HostedGame extends EventEmitter<GameEvents> implements AvatarGame {
  readonly username: string;
  readonly capabilities: GameCapabilities;
  /** The server the avatar plays on (sent to the host that builds its game). */
  readonly server: GameServer;
  #link: HostLink;
  #state: GameState = 'idle';
  #downReason: string | undefined;
  #endReason: string | undefined;
  #snapshot: Snapshot | undefined;
  #map: TopDownMap | null = null;
  #mapAsked = false;
  /** The scene asked of the host and not answered yet (with the blocks or not): a caller meanwhile gets the same answer. */
  #sceneAsked: { blocks: boolean; answer: Promise<Scene | null> } | null = null;
  #hearing = false;

  constructor(link: HostLink, username: string, server: GameServer, capabilities: GameCapabilities) {
    super();
    this.#link = link;
    this.username = username;
    this.server = server;
    this.capabilities = capabilities;
  }

  /** As its host last said (`connecting` from `start` until the host says more). */
  get state(): GameState {
    return this.#state;
  }

  /** Why it is out of the world while it tries again. */
  get downReason(): string | undefined {
    return this.#state === 'down' || this.#state === 'connecting' ? this.#downReason : undefined;
  }

  /** Why it gave up for good, once `ended`. */
  get endReason(): string | undefined {
    return this.#state === 'ended' ? this.#endReason : undefined;
  }

  /** Never here: the live bot is on the host (skills run there). */
  get bot(): undefined {
    return undefined;
  }

  /** Join the game on the least-loaded host (or the one it is on). */
  async start(): Promise<void> {
    if (this.#state !== 'idle' && this.#state !== 'ended') return;
    this.#state = 'connecting';
    this.#downReason = undefined;
    this.#link.start(this);
  }

  /** Leave the game; resolves once the host's bot has left. */
  async stop(): Promise<void> {
    await this.#link.stop(this);
    if (this.#state !== 'ended') this.#state = 'idle';
    this.#snapshot = undefined;
  }

  /** The host's latest snapshot while connected (or dead, where it lies). */
  snapshot(): Snapshot | undefined {
    return this.#state === 'connected' || this.#state === 'dead' ? this.#snapshot : undefined;
  }

  /** Run a skill on the host's game; the signal aborts it there. Never throws. */
  runSkill(id: string, params: unknown, signal: AbortSignal): Promise<SkillResult> {
    return this.#link.runSkill(this, id, params, signal);
  }

  /** The last map the host drew around the avatar (null until one came), asking it for a new one. */
  worldMap(radius: number): TopDownMap | null {
    if (!this.#mapAsked && this.#state === 'connected') {
      this.#mapAsked = true;
      void this.#link.map(this, radius).then((map) => {
        this.#map = map;
        this.#mapAsked = false;
      });
    }
    return this.#state === 'connected' ? this.#map : null;
  }

  /** The 3D view's look around the avatar, asked of its host (null while out of the world). Calls while one is out share its answer. */
  scene(radius: number, withBlocks: boolean): Promise<Scene | null> {
    if (this.#state !== 'connected') return Promise.resolve(null);
    const asked = this.#sceneAsked;
    if (asked && (asked.blocks || !withBlocks)) return asked.answer;
    const answer = this.#link.scene(this, radius, withBlocks).finally(() => {
      if (this.#sceneAsked?.answer === answer) this.#sceneAsked = null;
    });
    this.#sceneAsked = { blocks: withBlocks, answer };
    return answer;
  }

  /** Whether it reports the public chat it hears (its host is told with every start). */
  get hearing(): boolean {
    return this.#hearing;
  }

  /** Report the public chat it hears, or not: its host is told. */
  hearChat(on: boolean): void {
    if (on === this.#hearing) return;
    this.#hearing = on;
    this.#link.hear(this, on);
  }

  /** Say one line in the game's chat, on its host (paced there). */
  say(line: string): Promise<SayOutcome> {
    return this.#link.say(this, line);
  }

  /** The host said the game's state (pool only). */
  applyState(m: GameStateMessage): void {
    this.#state = m.state;
    this.#downReason = m.downReason ?? undefined;
    this.#endReason = m.endReason ?? undefined;
  }

  /** The host sent a snapshot (pool only). */
  applySnapshot(snapshot: Snapshot | null): void {
    this.#snapshot = snapshot ?? undefined;
  }

  /** The host passed on a game event (pool only). */
  applyEvent(m: GameEventMessage): void {
    (this.emit as (event: string, ...args: unknown[]) => boolean)(m.event, ...m.args);
  }

  /**
   * Its host went down, or no host can take it yet (pool only): out of the world, as after a dropped
   * connection, until a host says it is back (`reason`: why, for `/status`). `started` games only; a
   * stopped one stays idle.
   */
  hostLost(reason: string = HOST_RESTARTING): void {
    if (this.#state === 'idle' || this.#state === 'ended') return;
    const wasConnected = this.#state === 'connected' || this.#state === 'dead';
    this.#state = 'down';
    this.#downReason = reason;
    this.#snapshot = undefined;
    this.#mapAsked = false;
    if (wasConnected) this.emit('disconnected', reason);
  }
}
