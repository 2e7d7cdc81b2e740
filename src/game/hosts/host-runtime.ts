/**
 * What an avatar host does with the core's messages: it builds the games of
 * the avatars placed on it (through the same {@link GameProvider} the core
 * uses in one process, so reflexes attach the same way), runs their skills
 * through the same skill registry, and tells the core every state change,
 * event and snapshot. A snapshot goes to the core after each state change
 * and each skill (taken then, as a snapshot in one process would be), and
 * whenever it changed, at most every `snapshotEveryMs` (those reuse the
 * nearest blocks last read instead of searching again).
 */
import type { Logger } from 'pino';
import type { AvatarGame, GameProvider, Snapshot } from '../game.ts';
import type { SkillRegistry, SkillRegistryFactory } from '../skill.ts';
import { sceneOf } from '../scene.ts';
import { takeSnapshot } from '../snapshot.ts';
import { topDownMap } from '../top-down.ts';
import type { CoreToHost, GameEventName, GameStateMessage, HostToCore } from './protocol.ts';

/** Options of {@link runHost}. */
export interface HostRuntimeOptions {
  games: GameProvider;
  skills: SkillRegistryFactory;
  log: Logger;
  /** How the host talks to the core (the process's IPC channel). */
  send(msg: HostToCore): void;
  /** A block claim of an avatar of another host (the skills' claims hear of it). */
  foreignClaim?(key: string, by: string, until: number | null): void;
  snapshotEveryMs?: number;
  aliveEveryMs?: number;
}

/** Defaults of {@link HostRuntimeOptions}. */
export const DefaultHostRuntimeOptions = { snapshotEveryMs: 1000, aliveEveryMs: 2000 } satisfies Required<Pick<HostRuntimeOptions, 'snapshotEveryMs' | 'aliveEveryMs'>>;

const EVENTS: readonly GameEventName[] = ['connected', 'disconnected', 'ended', 'failed', 'died', 'respawned', 'whispered', 'heard'];

/** Events that change nothing of the game's state or snapshot: passed on alone (a line heard in the chat). */
const ALONE: ReadonlySet<GameEventName> = new Set(['heard']);

interface Hosted {
  game: AvatarGame;
  skills: SkillRegistry;
  /** The core's number of this placement: every message about the avatar carries it. */
  placement: number;
  /** Whether it reports the public chat it hears (as the core last told it). */
  hears: boolean;
  /** The last snapshot sent, as a string without its time, to send only what changed. */
  lastKey: string;
  lastState: string;
}

/** A running host: hand it each message of the core; `shutdown` leaves every game. */
export interface HostRuntime {
  handle(msg: CoreToHost): void;
  /** The avatars it plays, each with its placement. */
  playing(): Array<[avatar: string, placement: number]>;
  /** The avatars that report the public chat they hear (over NATS, the core finds from it a `hear` that was lost). */
  hearing(): string[];
  /** Each avatar's state and snapshot as they are now, for a core that may have missed what was said (over NATS). */
  current(): Array<{ state: GameStateMessage; snapshot: Snapshot | null }>;
  /** Leave one avatar's game if it plays it under `placement` (its skills abort): the core gave it to another host, or its lease is lost (`why`). */
  leave(avatar: string, placement: number, why: string): void;
  shutdown(): Promise<void>;
}

/**
 * @example
 * const host = runHost({ games, skills: createSkillRegistry, log, send: (m) => process.send?.(m) });
 * process.on('message', (m) => host.handle(m as CoreToHost));
 */
export function runHost(opts: HostRuntimeOptions): HostRuntime {
  const o = { ...DefaultHostRuntimeOptions, ...opts };
  const { send, log } = o;
  const hosted = new Map<string, Hosted>();
  const running = new Map<number, { avatar: string; controller: AbortController }>();

  const stateOf = (name: string, h: Hosted): GameStateMessage => {
    h.lastState = `${h.game.state}|${h.game.downReason ?? ''}|${h.game.endReason ?? ''}`;
    return { type: 'state', avatar: name, placement: h.placement, state: h.game.state, downReason: h.game.downReason ?? null, endReason: h.game.endReason ?? null };
  };
  const sendState = (name: string, h: Hosted): void => {
    const key = `${h.game.state}|${h.game.downReason ?? ''}|${h.game.endReason ?? ''}`;
    if (key !== h.lastState) send(stateOf(name, h));
  };
  const sendSnapshot = (name: string, h: Hosted, fresh: boolean): void => {
    const bot = h.game.bot;
    const snapshot = fresh ? (h.game.snapshot() ?? null) : bot?.entity ? takeSnapshot(bot, { reuseBlocks: true }) : null;
    const key = snapshot ? JSON.stringify({ ...snapshot, takenAt: 0 }) : 'none';
    if (!fresh && key === h.lastKey) return;
    h.lastKey = key;
    send({ type: 'snapshot', avatar: name, placement: h.placement, snapshot });
  };

  const open = (name: string, placement: number, server: Parameters<GameProvider['create']>[1]): Hosted => {
    const existing = hosted.get(name);
    if (existing) {
      // Placed here again: what it is now goes to the core under the new number.
      existing.placement = placement;
      existing.lastKey = '';
      existing.lastState = '';
      return existing;
    }
    const game = o.games.create({ name }, server, log.child({ avatar: name }));
    const h: Hosted = { game, skills: o.skills(game), placement, hears: false, lastKey: '', lastState: '' };
    hosted.set(name, h);
    for (const event of EVENTS) {
      game.on(event, (...args: unknown[]) => {
        if (!ALONE.has(event)) {
          sendState(name, h);
          sendSnapshot(name, h, true);
        }
        send({ type: 'event', avatar: name, placement: h.placement, event, args } as HostToCore);
      });
    }
    return h;
  };

  const ticker = setInterval(() => {
    for (const [name, h] of hosted) {
      sendState(name, h);
      if (h.game.state === 'connected') sendSnapshot(name, h, false);
    }
  }, o.snapshotEveryMs);
  ticker.unref();
  const playing = (): Array<[string, number]> => [...hosted].map(([name, h]) => [name, h.placement]);
  const alive = setInterval(() => send({ type: 'alive', avatars: playing() }), o.aliveEveryMs);
  alive.unref();

  const drop = async (name: string): Promise<void> => {
    const h = hosted.get(name);
    if (!h) return;
    hosted.delete(name);
    for (const r of running.values()) if (r.avatar === name) r.controller.abort(new Error('the avatar left this host'));
    await h.game.stop();
    o.games.release?.(h.game);
  };

  const leave = (avatar: string, placement: number, why: string): void => {
    if (hosted.get(avatar)?.placement !== placement) return;
    log.info({ avatar, placement, why }, 'leaving the game');
    void drop(avatar).catch((err: unknown) => log.warn({ err, avatar }, 'leaving the game failed'));
  };

  const handle = (msg: CoreToHost): void => {
    switch (msg.type) {
      case 'start': {
        const h = open(msg.avatar, msg.placement, msg.server);
        h.hears = msg.hear;
        h.game.hearChat?.(msg.hear);
        void h.game.start().then(() => sendState(msg.avatar, h));
        return;
      }
      case 'hear': {
        const h = hosted.get(msg.avatar);
        if (h?.placement !== msg.placement) return;
        h.hears = msg.on;
        h.game.hearChat?.(msg.on);
        return;
      }
      case 'say': {
        const h = hosted.get(msg.avatar);
        const said = h?.placement === msg.placement && h.game.say ? h.game.say(msg.line) : Promise.resolve('not_in_game' as const);
        void said
          .catch((err: unknown) => {
            log.warn({ err, avatar: msg.avatar }, 'saying a line failed');
            return 'not_in_game' as const;
          })
          .then((outcome) => send({ type: 'said', call: msg.call, placement: msg.placement, outcome }));
        return;
      }
      case 'stop':
        void drop(msg.avatar)
          .catch((err: unknown) => log.warn({ err, avatar: msg.avatar }, 'leaving the game failed'))
          .finally(() => send({ type: 'stopped', call: msg.call, placement: msg.placement }));
        return;
      case 'drop':
        leave(msg.avatar, msg.placement, 'the avatar plays on another host now');
        return;
      case 'skill': {
        const h = hosted.get(msg.avatar);
        if (!h || h.placement !== msg.placement) {
          send({ type: 'skillResult', call: msg.call, placement: msg.placement, result: { ok: false, code: 'not_connected', detail: 'not in the game right now' } });
          return;
        }
        const controller = new AbortController();
        if (msg.aborted) controller.abort(new Error('aborted'));
        running.set(msg.call, { avatar: msg.avatar, controller });
        log.debug({ avatar: msg.avatar, skill: msg.skill, call: msg.call }, 'running a skill');
        void h.skills
          .run(msg.skill, msg.params, controller.signal)
          .then((result) => {
            sendSnapshot(msg.avatar, h, true);
            send({ type: 'skillResult', call: msg.call, placement: msg.placement, result });
          })
          .finally(() => running.delete(msg.call));
        return;
      }
      case 'abort': {
        const controller = running.get(msg.call)?.controller;
        if (controller) log.debug({ call: msg.call, reason: msg.reason }, 'aborting a skill');
        controller?.abort(new Error(msg.reason));
        return;
      }
      case 'map': {
        const bot = hosted.get(msg.avatar)?.game.bot;
        send({ type: 'map', call: msg.call, placement: msg.placement, map: bot?.entity ? topDownMap(bot, msg.radius) : null });
        return;
      }
      case 'scene': {
        const bot = hosted.get(msg.avatar)?.game.bot;
        send({ type: 'scene', call: msg.call, placement: msg.placement, scene: bot?.entity ? sceneOf(bot, msg.radius, msg.blocks) : null });
        return;
      }
      case 'claim':
        o.foreignClaim?.(msg.key, msg.by, msg.until);
        return;
      // Both are the host entry's (src/avatar-host.ts): the world comes before the runtime exists, a shutdown ends it.
      case 'world':
      case 'shutdown':
        return;
    }
  };

  return {
    handle,
    playing,
    hearing: () => [...hosted].filter(([, h]) => h.hears).map(([name]) => name),
    current: () =>
      [...hosted].map(([name, h]) => {
        const snapshot = h.game.snapshot() ?? null;
        h.lastKey = snapshot ? JSON.stringify({ ...snapshot, takenAt: 0 }) : 'none';
        return { state: stateOf(name, h), snapshot };
      }),
    leave,
    async shutdown() {
      clearInterval(ticker);
      clearInterval(alive);
      for (const r of running.values()) r.controller.abort(new Error('the host is stopping'));
      await Promise.all([...hosted.keys()].map((name) => drop(name).catch((err: unknown) => log.warn({ err, avatar: name }, 'leaving the game failed'))));
      await o.games.close();
    },
  };
}
