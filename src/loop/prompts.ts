/**
 * The text prompts of the goal loop, one per turn kind. Kept short:
 * every turn is paid for, and small models follow short prompts best.
 */
import type { DirectionView, TurnRequest } from '../engines/engine.ts';
import { PROTOCOL_HELP } from '../engines/protocol-help.ts';
import { cutText } from '../text.ts';
import { formatDirectionLine } from '../task/directions.ts';
import { ownPartForPrompt, sectionText } from '../task/task-md.ts';

/** Standard nudge lines the loop may put in {@link TurnRequest.nudges}. */
export const NUDGES = {
  tryDifferent: 'Your last turn changed nothing: try something different.',
  rewriteTask: 'Your part of TASK.md is over 9 KB: rewrite it short (keep goal, plan, done, parked; move history to your lab log).',
  anotherRoute: 'Take another route, or pick another goal.',
} as const;

/** Most characters of ambitions quoted in a choose prompt. */
const AMBITIONS_MAX = 800;
/** Most characters of one lesson quoted in a prompt. */
const LESSON_MAX = 100;
/** Most characters of open direction listed in full in a resume prompt (the rest is in TASK.md). */
const RESUME_DIRECTIONS_MAX = 2000;

type Req = Omit<TurnRequest, 'prompt' | 'completion'>;

function goalLine(req: Req): string {
  if (!req.goal) return 'Goal: none yet.';
  const who = req.goal.setBy === 'owner' ? 'set by your owner' : 'your own choice';
  return `Goal (${who}): ${req.goal.text}`;
}

/** The direction summary and nudges every automatic prompt carries, then the protocol. */
function footer(req: Req, withSummary = true): string[] {
  const out: string[] = [];
  if (withSummary && req.directionSummary) out.push(req.directionSummary);
  for (const n of req.nudges) if (n.trim()) out.push(n.trim());
  out.push(PROTOCOL_HELP);
  return out;
}

/** Open direction in full, newest first, up to a size; says where the rest is. */
function directionList(directions: readonly DirectionView[]): string {
  if (directions.length === 0) return 'Open owner direction: none.';
  const lines: string[] = [];
  let size = 0;
  for (const d of [...directions].reverse()) {
    const line = formatDirectionLine({ ...d, by: null });
    if (lines.length > 0 && size + line.length > RESUME_DIRECTIONS_MAX) {
      lines.push(`(${directions.length - lines.length} older: see ## Owner direction in TASK.md)`);
      break;
    }
    lines.push(cutText(line, RESUME_DIRECTIONS_MAX));
    size += line.length;
  }
  return `Open owner direction (newest first):\n${lines.join('\n')}`;
}

function taskBlock(task: string): string {
  const own = ownPartForPrompt(task).trim();
  return own ? `Your TASK.md (your own part):\n${own}` : 'Your TASK.md is empty.';
}

/** A markdown list or paragraph as one line: `a; b; c`. */
function asList(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter((l) => l !== '')
    .join('; ');
}

function chooseBody(req: Req): string[] {
  const ambitions = sectionText(req.task, 'Ambitions');
  const recent = (req.recentGoals ?? []).slice(-5);
  const parked = req.parkedGoals ?? [];
  const list = [
    'You have no goal. Choose your next one, weighing in this order:',
    `1. ${/^owner direction\b/i.test(req.directionSummary) ? req.directionSummary : req.directionSummary ? `Owner direction: ${req.directionSummary}` : 'Owner direction: none open.'}`,
    `2. Your ambitions (TASK.md): ${ambitions ? cutText(asList(ambitions), AMBITIONS_MAX) : 'none written yet.'}`,
    '3. Efficiency and enjoyment: something you can do from where you are, that moves you forward and that you would enjoy.',
    `4. Your last finished goals (don't just repeat one): ${recent.length ? recent.map((g) => cutText(g, 150)).join(' | ') : 'none yet.'}`,
    `5. Owner goals set aside (they have priority): ${parked.length ? parked.map((g) => cutText(g, 200)).join(' | ') : 'none.'}`,
  ];
  return [list.join('\n'), ...lessonsBlock(req), 'Reply with GOAL: <one line> and start on it.'];
}

/** The last lessons of the lab log, one line each (oldest first), or nothing when there are none. */
function lessonsBlock(req: Req): string[] {
  const lessons = req.lessons ?? [];
  if (lessons.length === 0) return [];
  return [`Lessons of your last goals (newest last):\n${lessons.map((l) => `- ${cutText(l, LESSON_MAX)}`).join('\n')}`];
}

function continueBody(req: Req): string[] {
  const out = [goalLine(req)];
  const check = req.checkFailure?.trim();
  if (check) out.push(/^the check says/i.test(check) ? `Not done yet. Continue: ${check}` : `Not done yet. Continue: the check says ${check}`);
  else out.push('Continue with your goal.');
  return out;
}

function blockedBody(req: Req): string[] {
  const out = ['You reported blocked.'];
  // The loop may already carry this as a nudge; say it once.
  if (!req.nudges.some((n) => /another route/i.test(n))) out.push(NUDGES.anotherRoute);
  if (req.goal?.setBy === 'owner') out.push("If you set your owner's goal aside, it is parked and offered again later.");
  out.push('To switch, reply GOAL: <one line>.');
  return [goalLine(req), out.join(' ')];
}

function wrapupBody(req: Req): string[] {
  return [
    goalLine(req),
    'Your goal, or a step of it, has ended. Write the lesson of this goal for your lab log in a few lines: what worked, what did not, what to do next time. Update TASK.md only if your plan or route changed.',
  ];
}

function resumeBody(req: Req): string[] {
  return [
    `You are ${req.avatar}, back in the game after a restart; carry on.`,
    goalLine(req),
    directionList(req.directions),
    taskBlock(req.task),
    ...lessonsBlock(req),
  ];
}

function freshBody(req: Req): string[] {
  return [
    `You are ${req.avatar}. This is a fresh session: your earlier conversation is gone, but nothing you learned is lost.`,
    goalLine(req) + (req.goal ? '' : ' Choose one: reply GOAL: <one line>.'),
    directionList(req.directions),
    taskBlock(req.task),
    ...lessonsBlock(req),
    'Your lessons are in lab-log.md next to TASK.md; read it when stuck.',
  ];
}

function questionBody(req: Req): string[] {
  return [
    `Your owner asks: ${req.message ?? ''}`,
    `Answer in a sentence or two. Do not change your goal. (${goalLine(req)})`,
    'End with STATUS: working.',
  ];
}

function directionBody(req: Req): string[] {
  const message = req.message ?? '';
  const match = [...req.directions].reverse().find((d) => d.text === message.trim()) ?? req.directions[req.directions.length - 1];
  const label = match ? `#${match.n}` : '';
  return [
    goalLine(req),
    label ? `New owner direction ${label}: ${message}` : `New owner direction: ${message}`,
    'If it is about what you are doing now, do it now. If it is a lasting rule, follow it from now on. If it asks for something specific, you may make it your goal (GOAL: <one line>).',
    label ? `When it is done or no longer applies, end a reply with DIRECTION: done ${match?.n ?? ''}.` : '',
  ].filter((l) => l !== '');
}

/**
 * Render the text prompt of one turn from its structured request.
 *
 * @example
 * const base = { kind: 'continue', avatar: 'steve', goal, directionSummary, directions, task: '', nudges: [] } as const;
 * const request: TurnRequest = { ...base, prompt: renderPrompt(base), completion };
 */
export function renderPrompt(req: Req): string {
  let body: string[];
  let tail: string[];
  switch (req.kind) {
    case 'choose':
      // The summary is item 1 of the list: not repeated in the footer.
      body = chooseBody(req);
      tail = footer(req, false);
      break;
    case 'continue':
      body = continueBody(req);
      tail = footer(req);
      break;
    case 'blocked':
      body = blockedBody(req);
      tail = footer(req);
      break;
    case 'wrapup':
      body = wrapupBody(req);
      tail = footer(req);
      break;
    case 'resume':
      body = resumeBody(req);
      tail = footer(req);
      break;
    case 'fresh':
      body = freshBody(req);
      tail = footer(req);
      break;
    case 'direction':
      body = directionBody(req);
      tail = footer(req);
      break;
    case 'question':
      body = questionBody(req);
      tail = [];
      break;
  }
  return [...body, ...tail].join('\n\n');
}
