/**
 * The llm engine's conversation with one avatar, kept in its files as
 * `llm-session.json` (`DATA_DIR/avatars/<name>/`, or the database: `src/store/avatar-files.ts`)
 * so that a restart continues it.
 *
 * It holds whole turns (the user prompt, the model's tool calls and their
 * results, the final reply) and a summary: older turns are condensed into one
 * line each (what was called, what came back, what the model said), so every
 * request carries only the last turn or two in full. Compaction needs no
 * extra request to the model. A fresh session (a day old, or too big) starts
 * empty; the previous file is kept as `llm-session.prev.json`.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AvatarFolder } from '../../store/avatar-files.ts';
import type { SessionInfo, TurnKind } from '../engine.ts';
import { ChatMessageSchema, messageChars, type ChatMessage } from './messages.ts';

/** The file name of a session, in the avatar's folder. */
export const SESSION_FILE = 'llm-session.json';
/** The session before the last fresh start, kept for a look. */
const PREVIOUS_FILE = 'llm-session.prev.json';
/** Characters of whole recent turns kept before the oldest is condensed. */
export const KEEP_CHARS = 900;
/** Most whole turns kept. */
const KEEP_TURNS = 1;
/** Most summary lines kept (the newest). */
const SUMMARY_LINES = 3;
/** Most characters of a tool result in a kept (past) turn. */
const KEPT_RESULT_MAX = 120;
/** Most characters of one summary line. */
const SUMMARY_LINE_MAX = 110;

const TurnSchema = z.object({
  kind: z.string(),
  at: z.number(),
  messages: z.array(ChatMessageSchema),
  /** Summary lines of the tool calls, kept for condensing. */
  calls: z.array(z.string()),
});

/** One finished turn in the conversation. */
export type SessionTurn = z.infer<typeof TurnSchema>;

const SessionFileSchema = z.object({
  version: z.literal(1),
  startedAt: z.number(),
  summary: z.array(z.string()),
  turns: z.array(TurnSchema),
});
type SessionFile = z.infer<typeof SessionFileSchema>;

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One line for a finished turn: its kind, the tool calls and what the model said (with its status). */
export function condenseTurn(turn: SessionTurn): string {
  const last = [...turn.messages].reverse().find((m) => m.role === 'assistant' && !m.tool_calls?.length);
  const reply = last && last.role === 'assistant' ? (last.content ?? '') : '';
  const status = /^STATUS:\s*(\w+)/im.exec(reply)?.[1]?.toLowerCase() ?? 'working';
  const goal = /^GOAL:\s*(.+)$/im.exec(reply)?.[1];
  const said = reply
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !/^(STATUS|GOAL|SUBTASK|DIRECTION):/i.test(l));
  const parts = [
    ...turn.calls,
    ...(said ? [`said "${cut(said, 70)}"`] : []),
    ...(goal ? [`GOAL: ${cut(goal, 60)}`] : []),
    `STATUS ${status}`,
  ];
  return cut(`${turn.kind}: ${parts.join('; ')}`, SUMMARY_LINE_MAX);
}

/** A kept turn's prompt in one line: `(continue) Goal (set by your owner): collect 40 dirt`. */
function promptLine(kind: TurnKind, text: string): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return cut(`(${kind} prompt) ${first}`, 120);
}

/** The text that leads the first kept message when older turns were condensed. */
function summaryText(lines: readonly string[]): string {
  return `Earlier in this session (condensed, oldest first):\n${lines.map((l) => `- ${l}`).join('\n')}`;
}

/**
 * @example
 * const session = await LlmSession.open(folder, log);
 * const context = session.context();        // messages to send before this turn's
 * await session.commit('continue', turnMessages, calls);
 */
export class LlmSession {
  private data: SessionFile;
  /** The saves, one after the other (never rejects: a failed save is logged). */
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly folder: AvatarFolder,
    private readonly log: Logger,
    private readonly now: () => number,
    data: SessionFile,
  ) {
    this.data = data;
  }

  /** A new, empty session in `folder` (nothing read or written yet). */
  static fresh(folder: AvatarFolder, log: Logger, now: () => number = Date.now): LlmSession {
    return new LlmSession(folder, log, now, { version: 1, startedAt: now(), summary: [], turns: [] });
  }

  /** Read the saved session (a missing file starts one; an unreadable one is moved aside and a new one starts). */
  static async open(folder: AvatarFolder, log: Logger, now: () => number = Date.now): Promise<LlmSession> {
    const raw = await folder.read(SESSION_FILE);
    if (raw === null) return LlmSession.fresh(folder, log, now);
    let parsed: unknown;
    let problem: string | undefined;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      problem = (err as Error).message;
    }
    const checked = problem === undefined ? SessionFileSchema.safeParse(parsed) : undefined;
    if (checked?.success) return new LlmSession(folder, log, now, checked.data);
    // Nothing is lost: the unreadable file stays next to the new one for a look.
    const aside = `${SESSION_FILE}.unreadable-${now()}`;
    await folder.rename(SESSION_FILE, aside);
    log.warn({ file: folder.where(SESSION_FILE), movedTo: folder.where(aside), problem: problem ?? checked?.error.issues[0]?.message }, 'engine session unreadable; starting a fresh one');
    return LlmSession.fresh(folder, log, now);
  }

  /** Age and size, for the loop's fresh-session rotation. */
  info(): SessionInfo {
    return { startedAt: this.data.startedAt, size: JSON.stringify(this.data).length };
  }

  /** Whole turns kept (oldest first). */
  get turns(): readonly SessionTurn[] {
    return this.data.turns;
  }

  /** The summary lines of condensed turns. */
  get summary(): readonly string[] {
    return this.data.summary;
  }

  /**
   * The messages that come before a new turn's: the kept turns, with the summary
   * leading the first user message (so roles still alternate user/assistant).
   */
  context(): ChatMessage[] {
    const messages = this.data.turns.flatMap((t) => t.messages);
    return this.withSummary(messages);
  }

  /** `messages` with the summary put in front of the first user message (or as one when there is none). */
  withSummary(messages: ChatMessage[]): ChatMessage[] {
    if (this.data.summary.length === 0) return messages;
    const lead = summaryText(this.data.summary);
    const first = messages[0];
    if (first && first.role === 'user') return [{ role: 'user', content: `${lead}\n\n${first.content}` }, ...messages.slice(1)];
    return [{ role: 'user', content: lead }, ...messages];
  }

  /** Condense the oldest kept turn into the summary. Returns false when there is none. */
  condenseOldest(): boolean {
    const oldest = this.data.turns.shift();
    if (!oldest) return false;
    this.data.summary.push(condenseTurn(oldest));
    if (this.data.summary.length > SUMMARY_LINES) this.data.summary.splice(0, this.data.summary.length - SUMMARY_LINES);
    return true;
  }

  /** Drop the oldest summary line. Returns false when there is none. */
  dropSummaryLine(): boolean {
    return this.data.summary.shift() !== undefined;
  }

  /**
   * Keep the turn, compact to the keep size, save (resolves once saved, or the failure logged). The turn's prompt is kept as its first line only
   * (the next prompt restates goal, direction and state), and each tool result as its first line.
   */
  commit(kind: TurnKind, messages: ChatMessage[], calls: string[]): Promise<void> {
    const kept = messages.map((m, i): ChatMessage => {
      if (i === 0 && m.role === 'user') return { role: 'user', content: promptLine(kind, m.content) };
      if (m.role === 'tool') return { ...m, content: cut(m.content.split('\n')[0] ?? '', KEPT_RESULT_MAX) };
      return m;
    });
    this.data.turns.push({ kind, at: this.now(), messages: kept, calls });
    // The last turn stays whole only while it is small; the loop's next prompt carries the goal and state anyway.
    while (this.data.turns.length > KEEP_TURNS || (this.data.turns.length > 0 && messageChars(this.data.turns.flatMap((t) => t.messages)) > KEEP_CHARS)) {
      this.condenseOldest();
    }
    return this.save();
  }

  /** A turn that did not finish (stopped, replaced): only its tool calls are remembered. */
  noteInterrupted(kind: TurnKind, calls: string[]): Promise<void> {
    if (calls.length === 0) return this.saving;
    this.data.summary.push(cut(`${kind} (interrupted): ${calls.join('; ')}`, SUMMARY_LINE_MAX));
    if (this.data.summary.length > SUMMARY_LINES) this.data.summary.splice(0, this.data.summary.length - SUMMARY_LINES);
    return this.save();
  }

  /** Start a fresh, empty session; the old file is kept as `llm-session.prev.json` (resolves once both are saved). */
  reset(): Promise<void> {
    this.data = { version: 1, startedAt: this.now(), summary: [], turns: [] };
    const text = JSON.stringify(this.data);
    return this.queue(async () => {
      await this.folder.rename(SESSION_FILE, PREVIOUS_FILE);
      await this.folder.write(SESSION_FILE, text);
    });
  }

  /** Resolves once every save asked for so far is done (or its failure logged). */
  settled(): Promise<void> {
    return this.saving;
  }

  /**
   * Write the session (replacing the file at once), after the saves before it; resolves once written, or once its
   * failure is logged: a turn is saved when it ends.
   */
  save(): Promise<void> {
    const text = JSON.stringify(this.data);
    return this.queue(() => this.folder.write(SESSION_FILE, text));
  }

  private queue(job: () => Promise<void>): Promise<void> {
    this.saving = this.saving.then(job).catch((err: unknown) => {
      this.log.error({ err, file: this.folder.where(SESSION_FILE) }, 'engine session could not be saved; the conversation goes on in memory');
    });
    return this.saving;
  }
}
