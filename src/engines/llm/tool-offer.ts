/**
 * Which tools a turn offers (docs/engines.md, "What a turn costs"): every tool's schema is sent with every
 * request that offers it, so a request carries only the tools the avatar can use now. What it can always use
 * to find its way (`look`, `go_to`, `explore`, `collect`) is always there; the others come with what makes
 * them useful: `craft` with something to craft from, `smelt` with a furnace, fuel and something to smelt,
 * `eat` with food, `fight` with a mob in sight (or an animal the goal's plan hunts), `flee` with a hostile
 * one, the tools about players with a player in sight (or a goal naming one), `place` with a goal outside
 * the goal language (a build), and the notes (`rewrite_task`, `lab_log`) on the turns where plans and
 * lessons change. A wrap-up, which only writes its lesson, offers `look` and `rewrite_task`. A built-in
 * tool or skill the model calls that this turn did not offer still runs (it may know it from an earlier
 * turn): offering less only keeps the request small.
 */
import type { GameCapabilities, Snapshot } from '../../game/game.ts';
import { FOOD_ITEMS } from '../../game/items.ts';
import { fuelTicks, smeltsInto } from '../../game/smelting.ts';
import { parseGoal, type GoalIntent } from '../../goals/goal-language.ts';
import { craftSteps, gatherSteps, situationOf } from '../craft-plan.ts';
import type { TurnRequest } from '../engine.ts';
import type { KnownPlaces } from '../../goals/places.ts';
import { asksToRemember, REMEMBER_PLACE } from '../place-skills.ts';
import type { ToolSchema } from './messages.ts';

/** Tools every acting turn offers: enough to see, move, search and gather whatever the state. */
const ALWAYS: ReadonlySet<string> = new Set(['look', 'go_to', 'explore', 'collect']);

/** The tools of a wrap-up. */
const WRAPUP: ReadonlySet<string> = new Set(['look', 'rewrite_task']);

/** A furnace this close (or carried) counts for `smelt`: the skill walks to one it can see. */
const FURNACE_REACH = 32;

/** The turns whose prompt is about the plan: where `rewrite_task` is offered. */
const PLAN_TURNS: ReadonlySet<TurnRequest['kind']> = new Set(['choose', 'blocked', 'direction', 'resume', 'fresh']);

/** What a turn's tools are chosen by. */
export interface OfferFacts {
  req: Pick<TurnRequest, 'kind' | 'goal' | 'nudges' | 'handover'> & Partial<Pick<TurnRequest, 'message' | 'directions'>>;
  /** The avatar's state now; undefined while it is out of the game (then only the tools that need no state). */
  snap: Snapshot | undefined;
  caps: GameCapabilities;
  /** In-game chat from other players came with this turn. */
  heardChat: boolean;
  /** The places the avatar remembers (`go to base` is a goal of the language then). */
  places?: KnownPlaces;
}

/** Whether the goal's plan hunts an animal for its drop (beef for `get 2 cooked beef`): the animal may be out of sight yet. */
function huntsFor(intent: GoalIntent | undefined, snap: Snapshot): boolean {
  if (intent?.kind !== 'collect' && intent?.kind !== 'craft') return false;
  const steps = intent.kind === 'collect' ? gatherSteps(intent.item, intent.count, snap) : craftSteps(intent.item, intent.count, situationOf(snap));
  return steps.some((step) => step.kind === 'hunt');
}

const held = (snap: Snapshot, ok: (item: string) => boolean): boolean => Object.entries(snap.inventory).some(([item, n]) => n > 0 && ok(item));

/**
 * Whether one tool (by name) is of use this turn; tools not named here (kept skills, `write_skill`, skills
 * added later) are left to their own rules and always pass.
 */
function useful(name: string, f: OfferFacts): boolean {
  const { req, snap, caps } = f;
  // A wrap-up writes its lesson (its reply) and, if the plan changed, TASK.md: it does not act.
  if (req.kind === 'wrapup') return WRAPUP.has(name);
  if (ALWAYS.has(name)) return true;
  const intent = req.goal ? parseGoal(req.goal.text, f.places) : undefined;
  const outsideLanguage = intent?.kind === 'unknown';
  const anyItem = snap !== undefined && held(snap, () => true);
  const mobs = snap?.nearbyEntities.filter((e) => e.kind === 'hostile' || e.kind === 'passive') ?? [];
  const player = snap?.nearbyEntities.some((e) => e.kind === 'player') === true;
  switch (name) {
    case 'craft':
      return caps.crafting && anyItem;
    case 'smelt':
      return (
        snap !== undefined &&
        (held(snap, (i) => i === 'furnace') || (snap.nearbyBlocks['furnace'] ?? Infinity) <= FURNACE_REACH) &&
        held(snap, (i) => smeltsInto(i) !== undefined) &&
        held(snap, (i) => fuelTicks(i) > 0)
      );
    case 'eat':
      return snap !== undefined && snap.food < 20 && held(snap, (i) => FOOD_ITEMS.has(i));
    case 'fight':
      return mobs.length > 0 || (snap !== undefined && huntsFor(intent, snap));
    case 'flee':
      return mobs.some((e) => e.kind === 'hostile');
    case 'follow':
    case 'come_to':
      return player || intent?.kind === 'follow' || intent?.kind === 'come_to' || req.kind === 'direction';
    case 'say':
      return player || f.heardChat || intent?.kind === 'say' || req.kind === 'direction';
    case 'place':
      // Goals in the goal language never need a block placed by hand (the craft skill places its table).
      return anyItem && (outsideLanguage || req.kind === 'direction' || req.kind === 'blocked' || req.handover !== undefined);
    case 'rewrite_task':
      return PLAN_TURNS.has(req.kind) || req.nudges.some((n) => n.includes('TASK.md'));
    case REMEMBER_PLACE:
      return asksToRemember(req);
    case 'lab_log':
      // A wrap-up's reply is the lesson itself (the loop writes it to the lab log).
      return req.kind === 'blocked';
    default:
      return true;
  }
}

/**
 * The tools of one acting turn: those of `all` that are of use now (see the file's comment), in their order.
 *
 * @example
 * const tools = offeredTools(allTools, { req, snap: game.snapshot(), caps: game.capabilities, heardChat: false });
 * // an avatar with an empty inventory and nothing in sight: collect, go_to, explore, look
 */
export function offeredTools(all: readonly ToolSchema[], f: OfferFacts): ToolSchema[] {
  return all.filter((t) => useful(t.function.name, f));
}
