/**
 * The buttons of mindlink's cards (docs/discord.md "Cards and buttons"): what each one stands
 * for, and its id. An id is `<kind>:<avatar>` and carries all a press needs, so a card keeps
 * working after a restart (nothing is held in memory) and acts on the avatar as it is at the press.
 * Names are 3–16 letters, digits or `_`, so an id fits Discord's 100 characters and Telegram's
 * 64 bytes and needs no escaping on either.
 */
import type { LoopPostKind } from './loop/decide.ts';
import type { Card, CardAction } from './store/schema.ts';

/**
 * What a button does. On a `/status` card: `play`, `stop`, `refresh` and `goal` (asks for the goal
 * first), each then showing the card again as the avatar is now, with the same buttons; `view` is the
 * refresh of a card with no others (one made for someone who may only watch). On a `Done:` post:
 * `newgoal` (asks for the goal) and `status` (a `/status` card of its own).
 */
export type ActionKind = 'play' | 'stop' | 'refresh' | 'view' | 'goal' | 'newgoal' | 'status';

const KINDS: readonly ActionKind[] = ['play', 'stop', 'refresh', 'view', 'goal', 'newgoal', 'status'];

/** The label and look of each kind. */
const LOOK: Record<ActionKind, Pick<CardAction, 'label' | 'style'>> = {
  play: { label: 'Play', style: 'primary' },
  stop: { label: 'Stop', style: 'danger' },
  refresh: { label: 'Refresh', style: 'secondary' },
  view: { label: 'Refresh', style: 'secondary' },
  goal: { label: 'Goal…', style: 'secondary' },
  newgoal: { label: 'New goal…', style: 'primary' },
  status: { label: 'Status', style: 'secondary' },
};

/** A button that stands for `kind` on `avatar`'s card. */
export function cardAction(kind: ActionKind, avatar: string): CardAction {
  return { id: `${kind}:${avatar}`, ...LOOK[kind] };
}

/** A pressed button's id read back: what it does and to which avatar; null for an id mindlink never made. */
export interface PressedAction {
  kind: ActionKind;
  avatar: string;
}

/**
 * Read a button's id.
 *
 * @example
 * parseActionId('stop:steve') // → { kind: 'stop', avatar: 'steve' }
 * parseActionId('drop:steve') // → null
 */
export function parseActionId(id: string): PressedAction | null {
  const m = /^([a-z]+):([A-Za-z0-9_]{3,16})$/.exec(id);
  const kind = KINDS.find((k) => k === m?.[1]);
  return kind && m?.[2] ? { kind, avatar: m[2] } : null;
}

/** Whether a kind asks for text (the goal) before it acts. */
export function asksForGoal(kind: ActionKind): boolean {
  return kind === 'goal' || kind === 'newgoal';
}

/** Whether a press of this kind shows the pressed card again as the avatar is now (else it answers with a message of its own). */
export function updatesCard(kind: ActionKind): boolean {
  return kind === 'play' || kind === 'stop' || kind === 'refresh' || kind === 'view' || kind === 'goal';
}

/**
 * The buttons of a status card: with `controls` (made for someone who may steer the avatar) Play or Stop
 * (by whether it plays), Refresh and Goal…; else Refresh alone. A card shown again after a press keeps
 * the buttons it had, whoever pressed (each press is checked on its own).
 *
 * @example
 * statusActions('steve', true, true).map((a) => a.id) // → ['stop:steve', 'refresh:steve', 'goal:steve']
 */
export function statusActions(avatar: string, playing: boolean, controls: boolean): CardAction[] {
  if (!controls) return [cardAction('view', avatar)];
  return [cardAction(playing ? 'stop' : 'play', avatar), cardAction('refresh', avatar), cardAction('goal', avatar)];
}

/**
 * The buttons a post about an avatar carries: a `Done:` offers a new goal (where the chat may steer
 * it, a `control` link) and its status; other posts carry none.
 *
 * @example
 * postCard('steve', 'done', 'control') // → { fields: [], actions: [New goal…, Status] }
 */
export function postCard(avatar: string, kind: LoopPostKind, mode: 'control' | 'watch'): Card | undefined {
  if (kind !== 'done') return undefined;
  const actions = mode === 'control' ? [cardAction('newgoal', avatar), cardAction('status', avatar)] : [cardAction('status', avatar)];
  return { fields: [], actions };
}
