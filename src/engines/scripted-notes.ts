/**
 * The scripted engine's notes: its own part of TASK.md (`## Goal`, `## Now`,
 * `## Plan`), kept current as the llm engine keeps its part with
 * `rewrite_task`. They are written when they change (a new goal, a step of the
 * plan done, blocked, done, out of the game), not every turn: where the avatar
 * stands is noted with each write, and moving alone writes nothing. The
 * avatar's other sections (Ambitions, Done, don't redo, Parked / blocked) are
 * left as they are.
 */
import type { Logger } from 'pino';
import type { Snapshot } from '../game/game.ts';
import type { TaskFile } from '../task/task-file.ts';
import { oneLine } from '../text.ts';

/** What the notes say: the goal, where the engine is with it, and the steps left. */
export interface NotesState {
  /** The goal, or null while choosing one. */
  goal: string | null;
  /** `away`: out of the game, so nothing is planned. */
  state: 'working' | 'done' | 'blocked' | 'away';
  /** Why it is blocked. */
  why?: string;
  /** The steps left, in words (`scripted-plan.ts`). */
  steps: readonly string[];
}

/** "At 12 64 -3 in the overworld": where a snapshot stands, in blocks. */
function place(snap: Snapshot): string {
  const p = snap.position;
  const dimension = snap.dimension.replace(/^minecraft:/, '').replace(/^the_/, '').replace(/_/g, ' ');
  return `At ${Math.floor(p.x)} ${Math.floor(p.y)} ${Math.floor(p.z)} in the ${dimension} when I wrote this.`;
}

/**
 * The bodies of `## Goal`, `## Now` and `## Plan` for a state; `snap` says where the avatar stands.
 *
 * @example
 * notesSections({ goal: 'collect 3 oak logs', state: 'working', steps: ['gather oak logs'] }, snap);
 * // → { Goal: 'collect 3 oak logs', Now: 'Working on step 1 of 1: gather oak logs.\nAt 12 64 -3 in the overworld when I wrote this.', Plan: '- gather oak logs' }
 */
export function notesSections(n: NotesState, snap: Snapshot | undefined): { Goal: string; Now: string; Plan: string } {
  const where = snap && n.state !== 'away' ? `\n${place(snap)}` : '';
  const goal = n.goal === null ? 'None yet: choosing one.' : oneLine(n.goal);
  const plan = n.steps.length > 0 ? n.steps.map((s) => `- ${s}`).join('\n') : null;
  if (n.goal === null) return { Goal: goal, Now: `Choosing my next goal.${where}`, Plan: '(a plan comes with my next goal)' };
  switch (n.state) {
    case 'away':
      return { Goal: goal, Now: "Out of the game; I carry on once I'm back.", Plan: plan ?? '(I plan again once I am back in the game)' };
    case 'done':
      return { Goal: goal, Now: `Done; choosing my next goal.${where}`, Plan: '(nothing left: the goal is done)' };
    case 'blocked':
      return { Goal: goal, Now: `Blocked: ${oneLine(n.why ?? 'no way forward')}. Next I take another route, or another goal.${where}`, Plan: plan ?? '(no step left that I know of)' };
    case 'working': {
      const first = n.steps[0];
      const doing = first ? `Working on step 1 of ${n.steps.length}: ${first}.` : 'Working on it.';
      return { Goal: goal, Now: `${doing}${where}`, Plan: plan ?? '(nothing left to plan: the check decides)' };
    }
  }
}

/**
 * Keeps an avatar's notes in its TASK.md: {@link ScriptedNotes.keep} writes them through {@link TaskFile.setOwnSections}
 * when they differ from what it wrote last.
 *
 * @example
 * const notes = new ScriptedNotes(ctx.task, ctx.log);
 * await notes.keep({ goal: 'explore', state: 'working', steps: ['explore somewhere new'] }, ctx.game.snapshot());
 */
export class ScriptedNotes {
  private written: string | null = null;

  constructor(
    private readonly task: TaskFile,
    private readonly log: Logger,
  ) {}

  /** Write the notes of `state` if they changed since the last write; a failed write is logged and tried again next time. */
  async keep(state: NotesState, snap: Snapshot | undefined): Promise<void> {
    const key = JSON.stringify(state);
    if (key === this.written) return;
    try {
      await this.task.setOwnSections(notesSections(state, snap));
      this.written = key;
    } catch (err) {
      this.log.warn({ err }, 'TASK.md: the notes were not written; trying again after the next turn');
    }
  }
}
