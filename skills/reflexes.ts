/**
 * Reflexes: fast reactions with no engine call, in priority order
 * defend (a hostile within 4 blocks → fight) > eat (food < 14 and food it
 * would eat carried) > flee (health ≤ 6 and a hostile within 16) > shelter
 * (at night, a hostile within 16 and the avatar weak: health ≤ 12, no sword or
 * axe, or two hostiles or more within 16; not under a roof already → dig in
 * until it is calm or day). Shelter comes before flee while the nearest
 * hostile is more than 6 blocks away: there is time to dig in.
 *
 * A defence that brings health down to the flee level is cut short, so the
 * next look flees.
 *
 * A reflex pre-empts the running skill through the game's skill gate: the
 * skill stops, the reflex runs its own skill, then the gate is released and
 * the interrupted skill takes its work up again (skills/common.ts). On a game
 * without a gate (a test fake) the reflex's skill simply runs.
 */
import type { Bot } from 'mineflayer';
import type { Logger } from 'pino';
import type { AvatarGame } from '../src/game/game.ts';
import { isDaytime } from '../src/game/night.ts';
import type { Skill } from '../src/game/skill.ts';
import { isHostile } from '../src/game/snapshot.ts';
import { runSkill } from './run.ts';
import { eat, foodToEat } from './eat.ts';
import { fight } from './fight.ts';
import { flee } from './flee.ts';
import { hasWeapon } from './melee.ts';
import { shelter, underRoof } from './shelter.ts';

/** Options of {@link Reflexes}. */
export interface ReflexOptions {
  /** How often the reflexes look around. */
  tickMs?: number;
  /** After a reflex fails, the same reflex waits this long before trying again. */
  cooldownMs?: number;
}

/** Defaults of {@link ReflexOptions}. */
export const DefaultReflexOptions = { tickMs: 500, cooldownMs: 5000 } satisfies Required<ReflexOptions>;

/** Distance at which a hostile is fought. */
export const DEFEND_RANGE = 4;
/** Eat below this food level. */
export const EAT_BELOW = 14;
/** Flee at or below this health with a hostile within {@link FLEE_SCAN}. */
export const FLEE_AT_HEALTH = 6;
const FLEE_SCAN = 16;
/** At night, at or below this health (or with no weapon) with a hostile within 16 blocks, the avatar shelters. */
export const SHELTER_AT_HEALTH = 12;
/** A hostile farther than this gives time to dig in (a zombie walks about 7 blocks while the avatar digs 3 down): shelter before flee. */
export const SHELTER_BEFORE_FLEE = 6;

interface Action {
  reflex: 'defend' | 'eat' | 'flee' | 'shelter';
  skill: Skill;
  params: Record<string, unknown>;
  why: string;
}

/** Every reflex that could fire now, in priority order. Pure: reads the bot only. */
export function reflexesDue(bot: Bot): Action[] {
  const me = bot.entity?.position;
  if (!me) return [];
  const due: Action[] = [];
  const hostile = bot.nearestEntity((e) => isHostile(e) && e.position.distanceTo(me) <= FLEE_SCAN);
  const d = hostile ? hostile.position.distanceTo(me) : Infinity;
  if (hostile && d <= DEFEND_RANGE) {
    due.push({ reflex: 'defend', skill: fight, params: { target: hostile.name }, why: `${hostile.name} at ${d.toFixed(1)} blocks` });
  }
  if (bot.food < EAT_BELOW && foodToEat(bot)) due.push({ reflex: 'eat', skill: eat, params: {}, why: `food ${bot.food}/20` });
  // Outnumbered, hurt or unarmed at night: hide rather than fight.
  const many = hostile ? Object.values(bot.entities).filter((e) => isHostile(e) && e.position.distanceTo(me) <= FLEE_SCAN).length : 0;
  const weak = bot.health <= SHELTER_AT_HEALTH || !hasWeapon(bot) || many >= 2;
  const shelterDue = hostile && weak && bot.time && !isDaytime(bot.time.timeOfDay) && !underRoof(bot);
  const hide: Action | undefined = shelterDue
    ? { reflex: 'shelter', skill: shelter, params: {}, why: `night, ${many} hostile within ${FLEE_SCAN} blocks (nearest ${hostile.name} at ${d.toFixed(1)}), health ${bot.health}/20${hasWeapon(bot) ? '' : ', no weapon'}` }
    : undefined;
  // With the nearest hostile far enough to dig in before it arrives, hiding comes before running: at night, a run
  // over the open sky only meets more of them, and health does not come back while they follow.
  if (hide && d > SHELTER_BEFORE_FLEE) due.push(hide);
  if (hostile && bot.health <= FLEE_AT_HEALTH) {
    due.push({
      reflex: 'flee',
      skill: flee,
      params: { from: { x: hostile.position.x, z: hostile.position.z } },
      why: `health ${bot.health}/20 with ${hostile.name} at ${d.toFixed(1)} blocks`,
    });
  }
  if (hide && d <= SHELTER_BEFORE_FLEE) due.push(hide);
  return due;
}

/** The reflex that should fire now, if any (the first of {@link reflexesDue}). */
export function chooseReflex(bot: Bot): Action | undefined {
  return reflexesDue(bot)[0];
}

/**
 * The reflex loop of one avatar.
 *
 * @example
 * const reflexes = new Reflexes(game, log); reflexes.start(); … reflexes.stop();
 */
export class Reflexes {
  #game: AvatarGame;
  #log: Logger;
  #opts: Required<ReflexOptions>;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  /** The reflex acting now. */
  #running: Action['reflex'] | undefined;
  #controller: AbortController | undefined;
  #cooldownUntil = new Map<string, number>();

  constructor(game: AvatarGame, log: Logger, opts: ReflexOptions = {}) {
    this.#game = game;
    // Bound to the avatar once (the avatar manager's logger usually is already: pino would write the key twice).
    this.#log = log.child(log.bindings().avatar === game.username ? { component: 'reflexes' } : { avatar: game.username, component: 'reflexes' });
    this.#opts = { ...DefaultReflexOptions, ...opts };
  }

  /** Start ticking (idempotent). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.tick(), this.#opts.tickMs);
    this.#timer.unref();
  }

  /** Stop ticking and abort a reflex in progress. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#controller?.abort(new Error('reflexes stopped'));
  }

  /** Look once and act if needed (also called by the timer). */
  tick(): void {
    // A fight going badly gives way: at flee health the defence stops, and the next look flees.
    if (this.#busy && this.#running === 'defend' && (this.#game.bot?.health ?? 20) <= FLEE_AT_HEALTH) {
      this.#controller?.abort(new Error('health too low to go on fighting'));
      return;
    }
    if (this.#busy || this.#game.state !== 'connected') return;
    const bot = this.#game.bot;
    if (!bot) return;
    // The first reflex due that is not resting after a failure (a defence cut short lets flight come next).
    const action = reflexesDue(bot).find((a) => (this.#cooldownUntil.get(a.reflex) ?? 0) <= Date.now());
    if (!action) return;
    this.#busy = true;
    this.#running = action.reflex;
    const controller = new AbortController();
    this.#controller = controller;
    const gate = this.#game.gate;
    this.#log.info({ reflex: action.reflex, why: action.why, interrupted: gate?.current }, `reflex: ${action.reflex}`);
    const started = Date.now();
    const act = () => runSkill(action.skill, this.#game, action.params, controller.signal);
    void (gate ? gate.preempt(action.reflex, act) : act())
      .then((result) => {
        this.#log.info({ reflex: action.reflex, code: result.code, ms: Date.now() - started }, `reflex ${action.reflex}: ${result.detail}`);
        // Digging in failed here (hard ground, no lid): not again for a while, or it would try every few seconds.
        const wait = action.reflex === 'shelter' ? this.#opts.cooldownMs * 6 : this.#opts.cooldownMs;
        if (!result.ok) this.#cooldownUntil.set(action.reflex, Date.now() + wait);
      })
      .catch((err: unknown) => {
        this.#log.warn({ err, reflex: action.reflex }, 'reflex failed');
        this.#cooldownUntil.set(action.reflex, Date.now() + this.#opts.cooldownMs);
      })
      .finally(() => {
        this.#busy = false;
        this.#running = undefined;
        if (this.#controller === controller) this.#controller = undefined;
      });
  }
}
