/**
 * Which session of its CLI an avatar's agent engine resumes, kept in its
 * files as `<engine>-session.json` (`DATA_DIR/avatars/<name>/`, or the
 * database: `src/store/avatar-files.ts`) so that a restart continues the
 * same conversation. The conversation itself lives in the
 * CLI's own store (its config folder under `DATA_DIR/agents/<engine>/`);
 * this file holds its id, when it started and how big its context was at
 * the last request (the loop rotates it when it is a day old or too big).
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AvatarFolder } from '../../store/avatar-files.ts';
import type { SessionInfo } from '../engine.ts';

const SessionFileSchema = z.object({
  version: z.literal(1),
  /** The CLI's session id, or null before the first run of this session. */
  id: z.string().min(1).max(200).nullable(),
  startedAt: z.number(),
  /** Tokens of the last request's context (prompt, history and tools). */
  contextTokens: z.number().int().min(0),
  /** The session before the last rotation, kept for a look. */
  previous: z.string().nullable(),
  /** What the session cost so far, for a CLI that reports its sessions' running total (Claude Code). */
  costUsd: z.number().min(0).default(0),
});
type SessionFile = z.infer<typeof SessionFileSchema>;

/** Characters per token, to give the loop the context's size in characters as the llm engine does. */
const CHARS_PER_TOKEN = 4;

/**
 * @example
 * const session = await AgentSession.open(folder, 'opencode', log);
 * const resume = session.id;                 // undefined: a new session
 * await session.ran('ses_abc', 12_000);      // after the run
 */
export class AgentSession {
  /** The saves, one after the other (never rejects: a failed save is logged). */
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly folder: AvatarFolder,
    private readonly file: string,
    private readonly log: Logger,
    private readonly now: () => number,
    private data: SessionFile,
  ) {}

  /** A new session of `engine` in `folder` (nothing read or written yet). */
  static fresh(folder: AvatarFolder, engine: string, log: Logger, now: () => number = Date.now): AgentSession {
    return new AgentSession(folder, `${engine}-session.json`, log, now, { version: 1, id: null, startedAt: now(), contextTokens: 0, previous: null, costUsd: 0 });
  }

  /** The session of `engine` saved in `folder` (a missing or unreadable file starts a new one; an unreadable one is moved aside). */
  static async open(folder: AvatarFolder, engine: string, log: Logger, now: () => number = Date.now): Promise<AgentSession> {
    const file = `${engine}-session.json`;
    const raw = await folder.read(file);
    if (raw === null) return AgentSession.fresh(folder, engine, log, now);
    let problem: string | undefined;
    try {
      const checked = SessionFileSchema.safeParse(JSON.parse(raw));
      if (checked.success) return new AgentSession(folder, file, log, now, checked.data);
      problem = checked.error.issues[0]?.message;
    } catch (err) {
      problem = (err as Error).message;
    }
    const aside = `${file}.unreadable-${now()}`;
    await folder.rename(file, aside);
    log.warn({ file: folder.where(file), movedTo: folder.where(aside), problem }, 'agent session file unreadable; starting a new session');
    return AgentSession.fresh(folder, engine, log, now);
  }

  /** Resolves once every save asked for so far is done (or its failure logged). */
  settled(): Promise<void> {
    return this.saving;
  }

  /** The session to resume, or undefined for a new one. */
  get id(): string | undefined {
    return this.data.id ?? undefined;
  }

  /** Age and size (characters, estimated from tokens) for the loop's rotation. */
  info(): SessionInfo {
    return { startedAt: this.data.startedAt, size: this.data.contextTokens * CHARS_PER_TOKEN };
  }

  /** The session's running cost as last reported (0 for a new one). */
  get costUsd(): number {
    return this.data.costUsd;
  }

  /** A run of this session ended: its id (as the CLI named it), the size of its last context, its running cost when the CLI reports one. */
  ran(id: string | undefined, contextTokens: number | undefined, sessionCostUsd?: number): Promise<void> {
    if (id !== undefined) this.data.id = id;
    if (contextTokens !== undefined && contextTokens > 0) this.data.contextTokens = contextTokens;
    if (sessionCostUsd !== undefined) this.data.costUsd = Math.max(this.data.costUsd, sessionCostUsd);
    return this.save();
  }

  /** Start a new session next run (between turns only); the old id is kept as `previous`. */
  reset(): Promise<void> {
    this.data = { version: 1, id: null, startedAt: this.now(), contextTokens: 0, previous: this.data.id ?? this.data.previous, costUsd: 0 };
    return this.save();
  }

  /** Write the session after the saves before it; resolves once written, or once its failure is logged. */
  private save(): Promise<void> {
    const text = JSON.stringify(this.data);
    this.saving = this.saving
      .then(() => this.folder.write(this.file, text))
      .catch((err: unknown) => {
        this.log.error({ err, file: this.folder.where(this.file) }, 'agent session could not be saved; the next start begins a new session');
      });
    return this.saving;
  }
}
