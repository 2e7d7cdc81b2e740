/**
 * Which kept skills fit a goal: the words of the goal against each skill's
 * name, description and the goal it was written for, each shared word
 * weighted by how rare it is among the avatar's skills (a TF-IDF overlap).
 * An avatar keeps tens of skills, not thousands: a few lines do what a
 * search package would, with nothing to install.
 */
import type { KeptSkill } from './manifest.ts';

/** Words that say nothing about which skill fits. */
const STOP = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'some', 'more', 'it', 'me', 'my', 'i', 'you', 'your', 'is', 'are', 'then', 'into', 'up', 'get', 'go']);

/**
 * The words of a text: lower case, split at anything but letters and digits (`oak_log` → `oak`, `log`),
 * a plural's `s` dropped, numbers and stop words left out.
 *
 * @example
 * words('Collect 3 oak_logs') // → ['collect', 'oak', 'log']
 */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/**
 * The `k` skills that fit `goal` best, best first; a skill that shares no word with the goal is not offered.
 * Ties go to the skill that succeeded more often, then by name.
 *
 * @example
 * rankSkills('collect 3 oak logs', skills, 3) // → [chop_oak_logs, …]
 */
export function rankSkills(goal: string, skills: readonly KeptSkill[], k: number): KeptSkill[] {
  if (k <= 0 || skills.length === 0) return [];
  const bags = skills.map((s) => new Set(words(`${s.name} ${s.description} ${s.goal}`)));
  const idf = (w: string): number => Math.log(1 + skills.length / (1 + bags.filter((b) => b.has(w)).length));
  const wanted = [...new Set(words(goal))];
  const rate = (s: KeptSkill): number => (s.successes + 1) / (s.runs + 2);
  return skills
    .map((skill, i) => ({ skill, score: wanted.reduce((sum, w) => sum + (bags[i]?.has(w) ? idf(w) : 0), 0) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || rate(b.skill) - rate(a.skill) || (a.skill.name < b.skill.name ? -1 : 1))
    .slice(0, k)
    .map((r) => r.skill);
}
