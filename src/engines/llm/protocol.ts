/**
 * The reporting protocol: the plain-text lines a text-speaking engine's model
 * ends every reply with, read into the structured {@link TurnReport} of the
 * engine contract.
 *
 * ```
 * STATUS: working | done | blocked
 * GOAL: <one line, only when the goal changes>
 * SUBTASK: done|blocked <step>
 * DIRECTION: done <n>
 * ```
 *
 * The parser is tolerant of what models actually write (case, markdown
 * emphasis, backticks, bullets, quotes, trailing remarks) and never throws:
 * a line it cannot read is left in the body as ordinary text.
 */
import { cutText } from '../../text.ts';
import { GOAL_MAX, type TurnReport } from '../engine.ts';

export { GOAL_MAX };

/** What one engine reply reports. */
export interface Protocol {
  /** The last valid `STATUS:`; `working` when there is none. */
  status: 'working' | 'done' | 'blocked';
  /** Whether a valid `STATUS:` line was present. */
  statusGiven: boolean;
  /** The last non-empty `GOAL:` value (one line, ≤ {@link GOAL_MAX} chars), or null. */
  goal: string | null;
  /** The last valid `SUBTASK:` line, or null. */
  subtask: { state: 'done' | 'blocked'; step: string } | null;
  /** Owner direction numbers reported done, in the order given, without duplicates. */
  directionsDone: number[];
  /** The reply text with the recognised protocol lines removed, trimmed. */
  body: string;
}

type Key = 'status' | 'goal' | 'subtask' | 'direction';

/**
 * A protocol line: optional bullets/quotes/heading marks and emphasis, the key,
 * optional emphasis, a colon, optional emphasis, then the value.
 */
const LINE = /^[\s>*+\-#`_~]*(status|goal|subtask|direction)[\s*_`~]*:[\s*_`~]*(.*)$/i;
/** Markdown emphasis, backticks and quotes around a value. */
const WRAP = /^[\s*_`~"'“”]+|[\s*_`~"'“”]+$/g;

/** Strip the wrapping emphasis of a value. */
function unwrap(value: string): string {
  return value.replace(WRAP, '');
}

/** Result of reading one line's value, or null when the value is malformed. */
type Reading =
  | { key: 'status'; status: Protocol['status'] }
  | { key: 'goal'; goal: string | null }
  | { key: 'subtask'; state: 'done' | 'blocked'; step: string }
  | { key: 'direction'; numbers: number[] };

function readValue(key: Key, raw: string): Reading | null {
  const value = raw.trim();
  switch (key) {
    case 'status': {
      // The template echoed back ("working | done | blocked") says nothing.
      if (/^[*_`~\s]*working\s*\|\s*done/i.test(value)) return null;
      const m = /^[*_`~"'\s[(]*(working|done|blocked)\b/i.exec(value);
      if (!m?.[1]) return null;
      return { key, status: m[1].toLowerCase() as Protocol['status'] };
    }
    case 'goal': {
      const text = unwrap(value).replace(/\s+/g, ' ').trim();
      // An empty GOAL, or the template's placeholder, is ignored.
      if (text === '' || /^<[^>]*>(?:\s*\(.*\))?$/.test(text)) return { key, goal: null };
      return { key, goal: cutText(text, GOAL_MAX) };
    }
    case 'subtask': {
      if (/^[*_`~\s]*done\s*\|\s*blocked/i.test(value)) return null;
      const m = /^[*_`~\s]*(done|blocked)\b[*_`~]*\s*[:\-–—]?\s*(.*)$/i.exec(value);
      if (!m?.[1]) return null;
      const step = unwrap(m[2] ?? '').replace(/\s+/g, ' ').trim();
      return { key, state: m[1].toLowerCase() as 'done' | 'blocked', step };
    }
    case 'direction': {
      const plain = value.replace(/[*_`~]/g, '');
      const m = /^\s*done\b\s*:?\s*(#?\s*\d+(?:\s*(?:,|;|&|\band\b|\s)\s*#?\s*\d+)*)/i.exec(plain);
      if (!m?.[1]) return null;
      const numbers = [...m[1].matchAll(/\d+/g)].map((d) => Number(d[0])).filter((n) => Number.isSafeInteger(n) && n > 0);
      return numbers.length > 0 ? { key, numbers } : null;
    }
  }
}

/**
 * Read the reporting protocol out of an engine reply. Never throws.
 *
 * @example
 * parseProtocol('Got the logs.\n**STATUS:** done — all 3 logs\nDIRECTION: done 3, 4');
 * // → { status: 'done', statusGiven: true, goal: null, subtask: null, directionsDone: [3, 4], body: 'Got the logs.' }
 */
export function parseProtocol(text: string): Protocol {
  const result: Protocol = { status: 'working', statusGiven: false, goal: null, subtask: null, directionsDone: [], body: '' };
  const kept: string[] = [];
  for (const line of text.split(/\r\n?|[\n\u2028\u2029]/)) {
    const m = LINE.exec(line);
    const reading = m?.[1] ? readValue(m[1].toLowerCase() as Key, m[2] ?? '') : null;
    if (!reading) {
      kept.push(line);
      continue;
    }
    switch (reading.key) {
      case 'status':
        result.status = reading.status;
        result.statusGiven = true;
        break;
      case 'goal':
        if (reading.goal !== null) result.goal = reading.goal;
        break;
      case 'subtask':
        result.subtask = { state: reading.state, step: reading.step };
        break;
      case 'direction':
        for (const n of reading.numbers) if (!result.directionsDone.includes(n)) result.directionsDone.push(n);
        break;
    }
  }
  result.body = kept
    .join('\n')
    // A code fence left empty by the removed lines goes too.
    .replace(/^[ \t]*(```|~~~)[\w-]*[ \t]*\n(?:[ \t]*\n)*[ \t]*\1[ \t]*$/gm, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return result;
}

/**
 * The report of a reply written in the protocol: the protocol's fields, and the rest of the text as the engine's own words.
 *
 * @example
 * readReport('Got the logs.\nSTATUS: done\nDIRECTION: done 3');
 * // → { status: 'done', goal: null, subtask: null, directionsDone: [3], text: 'Got the logs.' }
 */
export function readReport(reply: string): TurnReport {
  const p = parseProtocol(reply);
  return { status: p.status, goal: p.goal, subtask: p.subtask, directionsDone: p.directionsDone, text: p.body };
}
