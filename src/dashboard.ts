/**
 * The dashboard's read model (docs/dashboard.md): given who is looking,
 * the avatars they may see and what they may see of each — decided by the
 * same rights code as chat (`src/people/people.ts` through `src/rights.ts`),
 * so the page never shows more than the chat would. Watchers see what
 * `/status`, `/direction` and the avatar's posts show; who may control an
 * avatar also sees its thought stream, its own notes and its usage; schedules
 * are for its owner and admins, as `/schedules`; the places it remembers are
 * drawn on its world view for whoever may see it, as `/places`. Everything is plain data;
 * every text is plain text, secrets scrubbed.
 */
import type { AvatarManager } from './avatars/manager.ts';
import type { Places } from './avatars/places.ts';
import type { ChatContext } from './chat.ts';
import { formatUsage, type Prices } from './engines/llm/usage.ts';
import type { Scene, Snapshot } from './game/game.ts';
import { SCENE_RADIUS } from './game/scene.ts';
import type { TopDownMap } from './game/top-down.ts';
import { scrubSecrets } from './logger.ts';
import type { DisplayState } from './loop/goal-loop.ts';
import { directionText } from './task/directions.ts';
import { TaskFile } from './task/task-file.ts';
import { ownPart } from './task/task-md.ts';
import type { People } from './people/people.ts';
import type { RecentActivity, RecentLine } from './recent.ts';
import { canControl, canSchedule } from './rights.ts';
import { formatRun } from './schedule/runs.ts';
import type { ScheduleDesk } from './schedule/desk.ts';
import { DEFAULT_PORT, formatAddress } from './servers/address.ts';
import type { Server } from './store/schema.ts';
import type { DeepReadonly } from './store/readonly.ts';
import type { Avatar } from './store/schema.ts';
import type { Store } from './store/store.ts';
import { oneLine, plainGoal } from './text.ts';

/** Items a row shows; the rest are counted. */
const ROW_ITEMS = 6;
/** Blocks the world view shows around the avatar (each way). */
export const MAP_RADIUS = 24;

/** An avatar's goal as the page shows it. */
export interface GoalView {
  /** One line, markup removed, at most 200 characters (as `/status`). */
  line: string;
  /** The whole goal as written (secrets scrubbed, one line). */
  text: string;
  /** `Set by you`, `Set by ada`, `Chosen by the avatar`. */
  by: string;
}

/** One row of the dashboard. */
export interface AvatarRow {
  name: string;
  state: DisplayState;
  /** What the status pill says: `working`, `choosing`, `waiting – reconnecting`, `stopped` … */
  status: string;
  /** While waiting: why it is out of the game. */
  statusDetail: string | null;
  goal: GoalView | null;
  /** Running without a goal, picking one ("Choosing next goal"). */
  choosing: boolean;
  /** The server by name and version (`survival (1.21.4)`); admins also see its address (`survival · play.example.net:25565 (1.21.4)`), as `/servers` shows it. */
  server: string;
  engine: string;
  health: number | null;
  food: number | null;
  /** The largest stacks first, at most a few; `moreItems` counts the rest. */
  items: { item: string; count: number }[];
  moreItems: number;
  position: { x: number; y: number; z: number } | null;
  /** Whether the viewer may play, stop and steer it. */
  mayControl: boolean;
}

/** The avatar page: the row and what lies behind it. */
export interface AvatarDetails extends AvatarRow {
  /** Open owner direction, oldest first. */
  directions: { n: number; day: string; text: string }[];
  /** The latest `Done:`, `New goal …`, `Direction #n done: …`, play and stop lines, newest last. */
  news: { at: number; kind: string; text: string }[];
  /** One line per turn (as `/verbose`), newest last; null when the viewer may not see it. */
  thoughts: { at: number; text: string }[] | null;
  /** The avatar's own part of TASK.md; null when the viewer may not see it. */
  notes: string | null;
  /** Model tokens (`/usage`), one line each; null when the viewer may not see them. */
  usage: string[] | null;
  /** Scheduled goals (`/schedules`); null when the viewer may not see them. */
  schedules: { id: number; when: string; goal: string; next: string; by: string }[] | null;
}

/** What the world view shows: the blocks around the avatar from above, and who is near. */
export interface WorldView {
  name: string;
  map: TopDownMap | null;
  /** Players and mobs near the avatar (world coordinates). */
  entities: Snapshot['nearbyEntities'];
  position: { x: number; y: number; z: number } | null;
  /** The places the avatar remembers on its server, in the dimension it is in (none while it is out of the game). */
  places: { name: string; x: number; y: number; z: number }[];
  takenAt: number;
}

/** What the 3D view shows: where the avatar stands and looks, who is near and the blocks around it, as its own game sees them. */
export interface SceneView {
  name: string;
  /** Null while it is out of the game. */
  scene: Scene | null;
}

/** The parts the read model reads. */
export interface DashboardParts {
  people: People;
  avatars: AvatarManager;
  store: Store;
  recent: RecentActivity;
  schedules: ScheduleDesk;
  places: Places;
  prices: Prices;
}

/**
 * @example
 * const dashboard = new Dashboard({ people, avatars, store, recent, schedules: desk, places, prices });
 * dashboard.rows(chat);                 // every avatar the viewer may see
 * await dashboard.details(chat, 'demo'); // throws the chat's own UserError when they may not
 */
export class Dashboard {
  constructor(private readonly parts: DashboardParts) {}

  /** A number that moves whenever something a page shows from the store or the loop may have changed. */
  version(): string {
    const { store, recent } = this.parts;
    return `${store.state.version}.${store.record.version}.${store.schedules.version}.${recent.version}`;
  }

  /** One row per avatar the viewer may see, in the order they were made. */
  rows(viewer: ChatContext): AvatarRow[] {
    return this.parts.people.rightsOf(viewer).visible().map((a) => this.row(viewer, a));
  }

  /** Everything the viewer may see of one avatar. Throws the same UserError as `/status` would. */
  async details(viewer: ChatContext, name: string): Promise<AvatarDetails> {
    const { people, recent, avatars, store, schedules, prices } = this.parts;
    const avatar = people.rightsOf(viewer).resolve(name);
    const row = this.row(viewer, avatar);
    const role = people.rightsOf(viewer).role(avatar);
    const controls = canControl(role);
    const sight = people.rightsOf(viewer).sight(avatar);
    const lines = (l: readonly RecentLine[]): { at: number; kind: string; text: string }[] => l.map((x) => ({ at: x.at, kind: x.kind, text: scrubSecrets(x.text) }));
    let notes: string | null = null;
    if (controls) notes = scrubSecrets(ownPart(await new TaskFile(store.avatarFiles.of(avatar.name), avatar.name).read())).trim();
    return {
      ...row,
      directions: avatar.directions.open.map((d) => ({ n: d.n, day: d.at.slice(0, 10), text: scrubSecrets(directionText(d.text, sight.fullDirection)) })),
      news: lines(recent.news(avatar.name)),
      thoughts: controls ? lines(recent.turns(avatar.name)).map(({ at, text }) => ({ at, text })) : null,
      notes,
      usage: controls ? usageLines(avatars, avatar, prices) : null,
      schedules: canSchedule(role)
        ? schedules.list(viewer, avatar.name).entries.map(({ schedule: s, next, zone, byName }) => ({
            id: s.id,
            when: s.when === s.cron ? s.cron : `${s.when} (${s.cron})`,
            goal: plainGoal(s.goal, 200),
            next: next ? `${formatRun(next, zone)} ${zone}` : 'never',
            by: byName,
          }))
        : null,
    };
  }

  /** The world around one avatar, as its own game sees it. Throws the same UserError as `/status` would. */
  world(viewer: ChatContext, name: string): WorldView {
    const avatar = this.parts.people.rightsOf(viewer).resolve(name);
    const game = this.parts.avatars.game(avatar.name);
    const snap = game?.snapshot();
    const places = snap ? this.parts.places.of(avatar.name).filter((p) => p.dimension === snap.dimension) : [];
    return {
      name: avatar.name,
      map: snap ? (game?.worldMap?.(MAP_RADIUS) ?? null) : null,
      entities: snap?.nearbyEntities ?? [],
      position: snap ? snap.position : null,
      places: places.map((p) => ({ name: p.name, x: p.x, y: p.y, z: p.z })),
      takenAt: snap?.takenAt ?? Date.now(),
    };
  }

  /**
   * The 3D view's look around one avatar (with `withBlocks`, the blocks too), read from its game only now
   * that a page asks. Throws the same UserError as `/status` would.
   */
  async scene(viewer: ChatContext, name: string, withBlocks: boolean): Promise<SceneView> {
    const avatar = this.parts.people.rightsOf(viewer).resolve(name);
    const game = this.parts.avatars.game(avatar.name);
    return { name: avatar.name, scene: (await game?.scene?.(SCENE_RADIUS, withBlocks)) ?? null };
  }

  private row(viewer: ChatContext, avatar: DeepReadonly<Avatar>): AvatarRow {
    const { avatars, people, store } = this.parts;
    const state = avatars.displayState(avatar.name);
    const down = avatars.downReason(avatar.name);
    const snap = avatars.snapshot(avatar.name);
    const server = store.state.data.servers.find((s) => s.id === avatar.server);
    const items = Object.entries(snap?.inventory ?? {})
      .filter(([, n]) => n > 0)
      .sort((x, y) => y[1] - x[1]);
    const goal = avatar.goal;
    const viewerId = people.personOf(viewer.from)?.id;
    const by = !goal ? '' : goal.setBy === 'self' ? 'Chosen by the avatar' : goal.setById && goal.setById === viewerId ? 'Set by you' : `Set by ${people.personName(goal.setById)}`;
    return {
      name: avatar.name,
      state,
      status: state === 'waiting' ? 'waiting – reconnecting' : state === 'dead' ? 'dead – respawning' : state,
      statusDetail: down ?? null,
      goal: goal ? { line: plainGoal(goal.text), text: scrubSecrets(oneLine(goal.text)), by } : null,
      choosing: goal === null && state === 'choosing',
      server: serverText(server, avatar.server, people.rightsOf(viewer).admin),
      engine: avatar.engine,
      health: snap ? Math.round(snap.health) : null,
      food: snap ? Math.round(snap.food) : null,
      items: items.slice(0, ROW_ITEMS).map(([item, count]) => ({ item, count })),
      moreItems: Math.max(0, items.length - ROW_ITEMS),
      position: snap ? { x: Math.round(snap.position.x), y: Math.round(snap.position.y), z: Math.round(snap.position.z) } : null,
      mayControl: canControl(people.rightsOf(viewer).role(avatar)),
    };
  }
}

/** A server as a row shows it: its name and version to everyone, its address only to admins. */
function serverText(server: Server | undefined, id: string, admin: boolean): string {
  if (!server) return id;
  const address = admin && server.host !== null ? ` · ${formatAddress({ host: server.host, port: server.port ?? DEFAULT_PORT })}` : '';
  // An empty version is found at each join.
  return `${server.id}${address}${server.version ? ` (${server.version})` : ''}`;
}

/** `/usage`'s figures for the page: in all and on the current goal, or one line saying there are none. */
function usageLines(avatars: AvatarManager, avatar: DeepReadonly<Avatar>, prices: Prices): string[] {
  const used = avatars.usage(avatar.name);
  if (!used.total || used.total.requests === 0) return [`No model tokens used yet (${avatar.engine} engine).`];
  const lines = [`in all: ${formatUsage(used.total, prices)}`];
  if (avatar.goal && used.current) lines.push(`current goal: ${formatUsage(used.current, prices)}`);
  for (const g of used.ended.slice(-3).reverse()) lines.push(`${g.outcome}: ${plainGoal(g.text, 60)} — ${formatUsage(g.usage, prices)}`);
  return lines;
}
