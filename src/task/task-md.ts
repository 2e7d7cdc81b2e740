/**
 * TASK.md: the avatar's short notes (docs/goal-loop.md "TASK.md").
 *
 * The file has the avatar's own sections (Goal, Ambitions, Now, Plan, Done,
 * don't redo, Parked / blocked, and anything else it adds) and three sections
 * that mindlink owns and rewrites (Owner direction, Done direction, Finished
 * goals). mindlink never changes a byte of the avatar's own part: it only
 * removes its own sections, wherever they are, and appends them again at the end.
 */
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Direction, DoneDirection, GoalRecordEntry } from '../store/schema.ts';
import { cutText, oneLine } from '../text.ts';
import { DONE_SHOWN, DONE_TEXT_MAX, formatDirectionLine, isoDay } from './directions.ts';

/** The avatar's own sections, in order. */
export const OWN_SECTIONS: readonly string[] = ['Goal', 'Ambitions', 'Now', 'Plan', "Done, don't redo", 'Parked / blocked'];
/** The sections mindlink owns and rewrites, in order, always at the end of the file. */
export const MINDLINK_SECTIONS: readonly string[] = ['Owner direction', 'Done direction', 'Finished goals'];
/** The avatar is asked to keep its own part under this many bytes. */
export const OWN_SOFT_LIMIT = 6 * 1024;
/** Past this many bytes of own part, every automatic prompt asks the avatar to rewrite it short. */
export const OWN_REWRITE_LIMIT = 9 * 1024;
/** TASK.md shows this many finished goals. */
export const FINISHED_SHOWN = 15;

/** The note that ends an own part cut for a prompt. */
export const CUT_NOTE = '(…cut; the rest is in TASK.md)';

/** One finished goal as listed under `## Finished goals`. */
export interface FinishedGoalLine {
  text: string;
  setBy: 'owner' | 'self';
  /** ISO time the goal ended. */
  ended: string;
  /** `done`, `blocked`, `replaced`, `parked`… */
  outcome: string;
}

/** What mindlink writes into its own sections. */
export interface MindlinkParts {
  /** Open owner direction, newest last; each shown in full. */
  open: readonly DeepReadonly<Direction>[];
  /** Done direction, newest last; the {@link DONE_SHOWN} latest are shown. */
  done: readonly DeepReadonly<DoneDirection>[];
  /** Finished goals, newest last; the {@link FINISHED_SHOWN} latest are shown. */
  finished: FinishedGoalLine[];
}

/**
 * The mindlink sections of an avatar's TASK.md, from its record and the goal record: its direction book
 * and its last 15 goals done.
 *
 * @example
 * await task.update(mindlinkParts(avatar, store.record.data.goals));
 */
export function mindlinkParts(avatar: DeepReadonly<Avatar>, goals: readonly DeepReadonly<GoalRecordEntry>[]): MindlinkParts {
  const finished = goals
    .filter((g) => g.avatar === avatar.name && g.outcome === 'done')
    .slice(-15)
    .map((g) => ({ text: g.text, setBy: g.setBy, ended: g.ended, outcome: g.outcome }));
  return { open: avatar.directions.open, done: avatar.directions.done, finished };
}

const MINDLINK_KEYS = new Set(MINDLINK_SECTIONS.map((s) => s.toLowerCase()));
/** A level-2 heading's title. */
const H2 = /^## +(.*?)[ \t#]*\r?$/;
/** Any markdown heading ends a mindlink section (so the avatar's `# …` or `### …` after it is kept). */
const ANY_HEADING = /^#{1,6}[ \t]/;
const FENCE = /^ {0,3}(```|~~~)/;

/**
 * The starting TASK.md of a new avatar.
 *
 * @example
 * await writeFile(path, initialTask('steve'));
 */
export function initialTask(avatar: string): string {
  return [
    `# TASK.md — ${avatar}`,
    '',
    '_Where you stand now. Update it when your goal, plan or route changes; keep your part under about 6 KB; history and lessons go in lab-log.md._',
    '',
    '## Goal',
    'None yet: choose one.',
    '',
    '## Ambitions',
    '- full iron tools (pickaxe, axe, sword)',
    '- a shelter with a bed and a door, near wood and water',
    '- a food supply (a wheat farm or animals)',
    '- armour, then diamonds',
    '',
    '## Now',
    'Just spawned; no base yet.',
    '',
    '## Plan',
    '- collect logs, make planks, sticks and a crafting table',
    '- wooden then stone pickaxe',
    '',
    "## Done, don't redo",
    '(one line per finished step, with its date)',
    '',
    '## Parked / blocked',
    '(what, why, and what would unblock it)',
    '',
    '## Owner direction',
    '',
    '## Done direction',
    '',
    '## Finished goals',
    '',
  ].join('\n');
}

interface Region {
  /** Whether this text is mindlink's (a mindlink heading and the lines mindlink writes under it). */
  mindlink: boolean;
  text: string;
}

/** Lines mindlink writes under its headings: `#n (date…) …` and `- YYYY-MM-DD …`. */
const OURS = /^(?:#\d+ \(|- \d{4}-\d{2}-\d{2} )/;

/**
 * Cut the file into mindlink and own regions. A mindlink region is one of
 * {@link MINDLINK_SECTIONS}' headings with the lines mindlink writes under it;
 * anything else the avatar put there (a note, a fenced block) stays the avatar's.
 */
export function regions(md: string): Region[] {
  const lines = md.split(/(?<=\n)/);
  const bare = (line: string): string => line.replace(/\r?\n$/, '');
  const out: Region[] = [];
  const push = (mindlink: boolean, text: string): void => {
    const last = out[out.length - 1];
    if (last && last.mindlink === mindlink) last.text += text;
    else out.push({ mindlink, text });
  };
  let inMindlink = false;
  let fenced = false;
  lines.forEach((line, i) => {
    const text = bare(line);
    const fence = FENCE.test(text);
    if (!fenced && ANY_HEADING.test(text)) {
      const title = H2.exec(text)?.[1]?.trim().toLowerCase();
      inMindlink = title !== undefined && MINDLINK_KEYS.has(title);
      push(inMindlink, line);
      return;
    }
    const wasFenced = fenced;
    if (fence) fenced = !fenced;
    if (!inMindlink || wasFenced || fence) {
      push(false, line);
      return;
    }
    if (OURS.test(text)) {
      push(true, line);
      return;
    }
    if (text.trim() === '') {
      // A blank line is mindlink's unless it leads into the avatar's own text.
      let j = i + 1;
      while (j < lines.length && bare(lines[j] ?? '').trim() === '') j++;
      const next = j < lines.length ? bare(lines[j] ?? '') : null;
      push(next === null || ANY_HEADING.test(next) || OURS.test(next), line);
      return;
    }
    push(false, line);
  });
  return out;
}

/**
 * Everything in TASK.md that is not a mindlink section, byte for byte.
 *
 * @example
 * ownPart('# T\n## Plan\nx\n## Owner direction\n#1 (2026-01-01) hi\n'); // → '# T\n## Plan\nx\n'
 */
export function ownPart(md: string): string {
  return regions(md)
    .filter((r) => !r.mindlink)
    .map((r) => r.text)
    .join('');
}

/**
 * UTF-8 size of the avatar's own part (mindlink sections are not counted).
 *
 * @example
 * if (ownSize(md) > OWN_REWRITE_LIMIT) nudges.push(NUDGES.rewriteTask);
 */
export function ownSize(md: string): number {
  return Buffer.byteLength(ownPart(md), 'utf8');
}

/**
 * Whether the own part is past {@link OWN_REWRITE_LIMIT} (every automatic prompt then asks for a short rewrite).
 *
 * @example
 * if (needsRewrite(md)) nudges.push('TASK.md is long: rewrite your own part short.');
 */
export function needsRewrite(md: string): boolean {
  return ownSize(md) > OWN_REWRITE_LIMIT;
}

/** One done direction line, cut to {@link DONE_TEXT_MAX} characters. */
function doneLine(d: DoneDirection): string {
  return cutText(`#${d.n} (${isoDay(d.at)}, done ${isoDay(d.doneAt)}) ${oneLine(d.text)}`, DONE_TEXT_MAX);
}

/** One finished goal line. */
function finishedLine(g: FinishedGoalLine): string {
  return `- ${isoDay(g.ended)} ${oneLine(g.outcome)}: ${cutText(oneLine(g.text), DONE_TEXT_MAX)} (${g.setBy})`;
}

/**
 * TASK.md with mindlink's sections rewritten from `parts` and placed at the end;
 * the avatar's own part is kept byte for byte (only a missing final newline is added).
 *
 * @example
 * const next = renderTask(current, { open: book.open, done: book.done, finished });
 */
export function renderTask(md: string, parts: MindlinkParts): string {
  let own = ownPart(md);
  if (own !== '' && !own.endsWith('\n')) own += '\n';
  const sections = [
    ['## Owner direction', ...parts.open.map(formatDirectionLine)],
    ['## Done direction', ...parts.done.slice(-DONE_SHOWN).map(doneLine)],
    ['## Finished goals', ...parts.finished.slice(-FINISHED_SHOWN).map(finishedLine)],
  ];
  return own + sections.map((lines) => `${lines.join('\n')}\n`).join('\n');
}

/** Cut a string to at most `max` UTF-8 bytes without splitting a character. */
function cutBytes(text: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (bytes + b > max) break;
    out += ch;
    bytes += b;
  }
  return out;
}

/**
 * The own part for a prompt: whole when it fits in `max` UTF-8 bytes, else cut
 * on a line boundary and ended with {@link CUT_NOTE} (the result still fits).
 *
 * @example
 * const notes = ownPartForPrompt(await taskFile.read());
 */
export function ownPartForPrompt(md: string, max: number = OWN_SOFT_LIMIT): string {
  const own = ownPart(md);
  if (Buffer.byteLength(own, 'utf8') <= max) return own;
  const note = `\n${CUT_NOTE}\n`;
  const room = Math.max(0, max - Buffer.byteLength(note, 'utf8'));
  let kept = '';
  let bytes = 0;
  for (const line of own.split(/(?<=\n)/)) {
    const b = Buffer.byteLength(line, 'utf8');
    if (bytes + b > room) {
      // A first line longer than the whole room is cut inside the line.
      if (kept === '') kept = cutBytes(line, room);
      break;
    }
    kept += line;
    bytes += b;
  }
  return `${kept.replace(/\n$/, '')}${note}`;
}

/**
 * The body of the first `## heading` section (case-insensitive), trimmed; `''` when absent.
 *
 * @example
 * sectionText(md, 'Ambitions'); // → '- full iron tools …'
 */
export function sectionText(md: string, heading: string): string {
  const want = heading.trim().toLowerCase();
  const lines = md.split(/\r?\n/);
  let fenced = false;
  let inside = false;
  const body: string[] = [];
  for (const line of lines) {
    const isFence = FENCE.test(line);
    if (!fenced && ANY_HEADING.test(line)) {
      if (inside) break;
      inside = H2.exec(line)?.[1]?.trim().toLowerCase() === want;
      continue;
    }
    if (isFence) fenced = !fenced;
    if (inside) body.push(line);
  }
  return body.join('\n').trim();
}

/** A line markdown would read as a heading or a fence, made plain text by a leading backslash. */
function inertLine(line: string): string {
  return /^ {0,3}(?:#|```|~~~)/.test(line) ? `\\${line.trimStart()}` : line;
}

/**
 * The avatar's own part with the bodies of some `## ` sections replaced (headings matched case-insensitively, the
 * first of each); every other byte is kept. A section not there yet is added at the end. A body line that would
 * read as a heading or a fence is escaped, so a body never opens a section or a code block.
 *
 * @example
 * withSections('## Goal\nNone yet.\n\n## Now\nJust spawned.\n', { Goal: 'collect 3 oak logs' });
 * // → '## Goal\ncollect 3 oak logs\n\n## Now\nJust spawned.\n'
 */
export function withSections(own: string, bodies: Readonly<Record<string, string>>): string {
  const wanted = new Map(Object.entries(bodies).map(([title, body]) => [title.trim().toLowerCase(), { title, body }]));
  const bodyOf = (body: string): string => `${body.split(/\r?\n/).map(inertLine).join('\n').replace(/\s+$/, '')}\n`;
  const lines = own.split(/(?<=\n)/);
  let out = '';
  let fenced = false;
  let skipping = false;
  for (const line of lines) {
    const text = line.replace(/\r?\n$/, '');
    if (!fenced && ANY_HEADING.test(text)) {
      const key = H2.exec(text)?.[1]?.trim().toLowerCase();
      const replace = key === undefined ? undefined : wanted.get(key);
      if (skipping) out += '\n';
      skipping = replace !== undefined;
      out += line.endsWith('\n') ? line : `${line}\n`;
      if (replace && key !== undefined) {
        out += bodyOf(replace.body);
        wanted.delete(key);
      }
      continue;
    }
    if (FENCE.test(text)) fenced = !fenced;
    if (!skipping) out += line;
  }
  for (const { title, body } of wanted.values()) {
    const lead = out === '' || out.endsWith('\n\n') ? '' : out.endsWith('\n') ? '\n' : '\n\n';
    out += `${lead}## ${title}\n${bodyOf(body)}`;
  }
  return out;
}
