/**
 * The scripted engine's words: a message read as a goal line, a goal inside a
 * sentence, a duration, and a direction acknowledged in the first person.
 */
import { oneLine } from '../text.ts';

/** A direction or message as a goal line: one line, wrapping punctuation removed. */
export function asGoalText(s: string): string {
  return oneLine(s).replace(/^(?:(?:your\s+)?new\s+goal(?:\s+is)?|your\s+goal\s+is|goal)\s*:\s*/i, '').replace(/[.!]+$/, '');
}

/** "Collect 10 sand" → "collect 10 sand", for use inside a sentence. */
export function inSentence(goal: string): string {
  return goal.charAt(0).toLowerCase() + goal.slice(1);
}

/** A duration in words: "45 s", "3 min". */
export function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  return `${Math.round(s / 60)} min`;
}

/** Turn a direction into a first-person acknowledgement. */
export function acknowledge(message: string): string {
  const m = oneLine(message).replace(/[.!]+$/, '');
  const short = m.length > 160 ? `${m.slice(0, 157)}…` : m;
  const body = short.replace(/^(?:please|pls|ok|okay)\s*,?\s+/i, '').replace(/^(?:you\s+(?:should|must|need\s+to|have\s+to)|i\s+want\s+you\s+to)\s+/i, '');
  const lower = body.charAt(0).toLowerCase() + body.slice(1);
  if (/^(?:don'?t|do\s+not)\s+/i.test(body)) return `Understood: I won't ${lower.replace(/^(?:don'?t|do\s+not)\s+/i, '')}.`;
  if (/^(?:never|always)\s+/i.test(body)) return `Understood: I'll ${lower}.`;
  if (/^(?:stay|keep|avoid|be|try|use|stop|go|come|look|build|help|find|bring|protect|guard|wait|sleep|return|head|focus|prefer|leave|remember|watch|check|save|store|put|give|take|fight|kill|defend)\b/i.test(body)) {
    return `Understood: I'll ${lower}.`;
  }
  return `Understood, noted: ${short}.`;
}
