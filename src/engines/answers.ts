/**
 * Answers to owners' common questions, read from the game snapshot: counts of
 * an item, the inventory, position, health and food, time of day, the goal and
 * who set it, XP, what is nearby. Anything else gets an honest one-liner.
 * Used by the scripted engine's `question` turns.
 */
import type { Snapshot } from '../game/game.ts';
import type { GoalView } from './engine.ts';
import { countItems, itemLabel, matchesItem, normaliseItem } from '../game/items.ts';

/** What the scripted engine can answer, for the "I can't tell" reply. */
const CAN_ANSWER = 'ask me what I have, how many of something, where I am, my health or food, the time, my goal, my level or what is nearby';

function fmtCoord(n: number): string {
  return String(Math.floor(n));
}

/** "the overworld", "the nether", "the end". */
function dimensionName(dim: string): string {
  const d = dim.replace(/^minecraft:/, '').replace(/^the_/, '');
  if (d === 'overworld') return 'the overworld';
  if (d === 'nether') return 'the nether';
  if (d === 'end') return 'the end';
  return d.replace(/_/g, ' ');
}

/** Day phase of a 0–24000 tick time. */
export function dayPhase(timeOfDay: number): 'morning' | 'day' | 'evening' | 'night' | 'dawn' {
  const t = ((timeOfDay % 24000) + 24000) % 24000;
  if (t < 1000) return 'morning';
  if (t < 12000) return 'day';
  if (t < 13000) return 'evening';
  if (t < 23000) return 'night';
  return 'dawn';
}

/**
 * A short inventory line: the biggest stacks first, at most `max` entries.
 *
 * @example
 * shortInventory({ oak_log: 5, dirt: 12 }); // '12 dirt, 5 oak logs'
 */
export function shortInventory(inventory: Record<string, number>, max = 8): string {
  const entries = Object.entries(inventory)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (entries.length === 0) return 'nothing';
  const shown = entries.slice(0, max).map(([name, n]) => `${n} ${itemLabel(name, n)}`);
  const more = entries.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more kind${more === 1 ? '' : 's'}` : shown.join(', ');
}

function goalLine(goal: GoalView | null, state: string | undefined): string {
  if (state === 'stopped') return "I'm stopped; /play starts me again.";
  if (state === 'choosing' || !goal) return goal ? `I'm choosing my next goal (the last one was: ${goal.text}).` : "I'm choosing my next goal.";
  const who = goal.setBy === 'owner' ? 'set by my owner' : 'my own choice';
  return `I'm working on: ${goal.text} (${who}).`;
}

function hungerWord(food: number): string {
  if (food >= 18) return 'not hungry';
  if (food >= 12) return 'a little hungry';
  if (food >= 6) return 'hungry';
  return 'starving';
}

/** Words that follow "how much" / "do you have" but are not items. */
const NOT_ITEMS = new Set([
  'do', 'you', 'your', 'it', 'them', 'that', 'this', 'thing', 'stuff', 'item', 'inventory', 'health', 'hp', 'heart',
  'hunger', 'xp', 'experience', 'level', 'time', 'goal', 'plan', 'task', 'idea', 'question', 'problem', 'space', 'room', 'left',
]);

/** The item a "how many X" / "do you have X" question is about, or null. */
function askedItem(q: string): string | null {
  const m =
    /^how\s+(?:many|much)\s+(.+?)\s+(?:do|have|did|are)\s+(?:you|u)\b/.exec(q) ??
    /^how\s+(?:many|much)\s+(.+?)\s*(?:you\s+(?:have|got)|in\s+your\s+inventory|left)?\s*$/.exec(q) ??
    /^(?:do|did)\s+(?:you|u)\s+(?:have|hold|carry|got)\s+(?:any\s+)?(.+?)\s*$/.exec(q) ??
    /^(?:have|got)\s+you\s+(?:got\s+)?(?:any\s+)?(.+?)\s*$/.exec(q);
  const phrase = m?.[1]?.replace(/\b(?:with you|on you|now|right now|yet|in (?:your|the) inventory)\b/g, '').trim();
  const item = phrase ? normaliseItem(phrase) : null;
  return item && !NOT_ITEMS.has(item) ? item : null;
}

function countAnswer(item: string, snap: Snapshot): string {
  const n = countItems(snap.inventory, item);
  const kinds = Object.entries(snap.inventory).filter(([name, c]) => c > 0 && name !== item && matchesItem(item, name));
  if (n === 0) return `I have no ${itemLabel(item, 2)}.`;
  const parts = kinds.length > 0 && (kinds.length > 1 || snap.inventory[item] === undefined)
    ? ` (${kinds.sort(([, a], [, b]) => b - a).map(([name, c]) => `${c} ${itemLabel(name, c)}`).join(', ')})`
    : '';
  return `I have ${n} ${itemLabel(item, n)}${parts}.`;
}

/** An answer from the snapshot, and whether it answers (false: the honest "I can't tell that from here" line). */
export interface SnapshotAnswer {
  text: string;
  answered: boolean;
}

/**
 * Answer an owner's question in a sentence from the snapshot, saying whether it could: a question about
 * none of what the snapshot holds gets the "I can't tell that from here" line with `answered: false` (the
 * hybrid engine then asks its model).
 *
 * @example
 * answerFromSnapshot('why did you pick that goal?', snap, goal); // { text: "I can't tell that from here; ask me …", answered: false }
 */
export function answerFromSnapshot(question: string, snap: Snapshot | undefined, goal: GoalView | null, state?: string): SnapshotAnswer {
  const text = answerQuestion(question, snap, goal, state);
  return { text, answered: !text.startsWith(CANNOT_TELL) };
}

/** How the answer to a question the snapshot cannot answer begins. */
const CANNOT_TELL = "I can't tell that from here";

/**
 * Answer an owner's question in a sentence from the snapshot.
 *
 * @param question the owner's message
 * @param snap the current snapshot, or undefined when not in the game
 * @param goal the current goal, if any
 * @param state the loop state word (`working`, `choosing`, `stopped`…), when known
 * @example
 * answerQuestion('where are you?', snap, null); // 'I'm at 10 64 -20 in the overworld.'
 */
export function answerQuestion(question: string, snap: Snapshot | undefined, goal: GoalView | null, state?: string): string {
  const q = question
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[?!.]+/g, ' ')
    .replace(/^(?:hey|hi|hello|ok|so|and|please|tell me|can you tell me|could you tell me)\s*,?\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();

  if (/\bwho\b.*\b(?:set|gave|chose|picked|decided)\b.*\bgoal\b|\bwhose goal\b/.test(q)) {
    if (!goal) return 'I have no goal right now, so nobody set one; I\'ll choose one myself.';
    return goal.setBy === 'owner' ? `My owner set it: ${goal.text}.` : `I chose it myself: ${goal.text}.`;
  }
  if (/\b(?:what(?:'s| is| are)?|whats)\b.*\b(?:doing|up to|working on|goal|task|plan)\b|^(?:your\s+)?goal$|\bwhat(?:'s| is) your (?:current )?(?:goal|task)\b/.test(q)) {
    return goalLine(goal, state);
  }

  if (!snap) return "I'm not in the game right now, so I can't see that; I'll be back once the connection is up.";

  const item = askedItem(q);
  if (item) return countAnswer(item, snap);

  if (/\binventory\b|\bwhat\b.*\b(?:have|carry|carrying|holding|hold|got)\b|\bwhat(?:'s| is)\s+in\s+your\b|^items$/.test(q)) {
    const inv = shortInventory(snap.inventory);
    return inv === 'nothing' ? 'My inventory is empty.' : `I'm carrying ${inv}.`;
  }
  if (/\bwhere\b|\bcoord(?:inate)?s?\b|\bposition\b|\blocation\b/.test(q)) {
    const p = snap.position;
    return `I'm at ${fmtCoord(p.x)} ${fmtCoord(p.y)} ${fmtCoord(p.z)} in ${dimensionName(snap.dimension)}.`;
  }
  if (/\bhungry\b|\bfood\b|\bstarving\b|\bhunger\b/.test(q)) {
    return `Food ${Math.round(snap.food)}/20: I'm ${hungerWord(snap.food)}.`;
  }
  if (/\bhealth\b|\bhp\b|\bhow are you\b|\bare you (?:ok|okay|alright|hurt|alive|fine)\b|\bhow(?:'s| is) it going\b|\bhearts?\b/.test(q)) {
    return `Health ${Math.round(snap.health)}/20, food ${Math.round(snap.food)}/20.`;
  }
  if (/\btime\b|\bday\b|\bnight\b|\bdark\b|\bmorning\b|\bevening\b/.test(q)) {
    const phase = dayPhase(snap.timeOfDay);
    const article = phase === 'day' || phase === 'night' ? '' : 'the ';
    return `It's ${article}${phase} in the game (tick ${Math.round(snap.timeOfDay)} of 24000).`;
  }
  if (/\blevel\b|\bxp\b|\bexperience\b/.test(q)) {
    return `I'm level ${snap.xp.level} (${snap.xp.points} XP points).`;
  }
  if (/\bwho\b.*\b(?:near|around|with|see|online)\b|\bany(?:one| players?)\b.*\b(?:near|around)\b|\bplayers?\b/.test(q)) {
    const players = snap.nearbyEntities.filter((e) => e.kind === 'player');
    if (players.length === 0) return "I don't see any players near me.";
    return `Near me: ${players.map((p) => `${p.name} (${Math.round(p.distance)} blocks)`).join(', ')}.`;
  }
  if (/\bnearby\b|\baround you\b|\bsee\b|\bsurround/.test(q)) {
    const blocks = Object.entries(snap.nearbyBlocks)
      .sort(([, a], [, b]) => a - b)
      .slice(0, 5)
      .map(([name, d]) => `${name.replace(/_/g, ' ')} ${Math.round(d)} blocks away`);
    const mobs = snap.nearbyEntities
      .filter((e) => e.kind !== 'player')
      .slice(0, 3)
      .map((e) => `a ${e.name.replace(/_/g, ' ')} ${Math.round(e.distance)} blocks away`);
    const all = [...blocks, ...mobs];
    return all.length > 0 ? `I see ${all.join(', ')}.` : "I don't see anything notable nearby.";
  }
  if (/\b(?:danger|hostile|monsters?|mobs?|zombies?|creepers?|skeletons?|safe)\b/.test(q)) {
    const hostile = snap.nearbyEntities.filter((e) => e.kind === 'hostile');
    if (hostile.length === 0) return 'No hostile mobs near me.';
    return `Hostile near me: ${hostile.map((e) => `${e.name.replace(/_/g, ' ')} (${Math.round(e.distance)} blocks)`).join(', ')}.`;
  }
  return `${CANNOT_TELL}; ${CAN_ANSWER}.`;
}
