/**
 * The `llm` engine: any OpenAI-compatible chat completions endpoint plays the
 * avatar through the skills, in small turns.
 *
 * A turn sends the stable system prompt, the kept conversation (recent turns
 * whole, older ones condensed) and the turn's prompt; the model calls tools
 * (at most `maxSteps` of them, each skill honouring the turn's abort) and
 * ends with a reply in the reporting protocol, which becomes the turn's
 * report (`protocol.ts`). Every request stays under the message budget.
 * Question turns only look and are not kept.
 */
import { join } from 'node:path';
import { ProviderRefusedError } from '../../errors.ts';
import { DiskAvatarFiles, type AvatarFolder } from '../../store/avatar-files.ts';
import { saying, TurnInterruptedError, type Engine, type EngineContext, type SessionInfo, type TurnReply, type TurnRequest } from '../engine.ts';
import { messageChars, type ChatMessage, type ToolSchema } from './messages.ts';
import { readReport } from './protocol.ts';
import { systemPrompt, turnMessage } from './prompts.ts';
import { LlmSession } from './session.ts';
import { briefSnapshot, learnedTurn, questionTools, runTool, toolHostOf, toolSchemas, type ToolHost } from './tools.ts';
import { offeredTools } from './tool-offer.ts';
import { LlmTransport, ProviderUnavailableError, type Completion, type TransportOptions } from './transport.ts';
import { addUsage, noUsage, type UsageTotals } from './usage.ts';
import { WhisperInbox } from './whispers.ts';

/** How an llm engine is set up (from config). */
export interface LlmEngineOptions {
  transport: Omit<TransportOptions, 'log'>;
  /** Most tool steps in one turn. */
  maxSteps: number;
  /** Most characters of messages in one request (tool schemas excluded). */
  budgetChars: number;
  /** The avatar's folder (`DATA_DIR/avatars/<name>`): the saved session, unless the context brings the avatar's files. */
  avatarDir: string;
  now?: () => Date;
}

/** Most tool steps of a question turn (it may only look). */
const QUESTION_STEPS = 2;
/** A tool result cut to this when a request would pass the budget. */
const SHRUNK_RESULT = 160;

/** Characters of what a request sends, by part (for the bench and the tests). */
export interface RequestSize {
  kind: TurnRequest['kind'];
  /** JSON of the messages (the budget's measure). */
  messages: number;
  /** JSON of the tool schemas. */
  tools: number;
  /** The system prompt alone. */
  system: number;
  /** The new user text of the turn (0 on a tool step). */
  newText: number;
}

/**
 * @example
 * const engine = new LlmEngine(ctx, { transport, maxSteps: 8, budgetChars: 16_000, avatarDir });
 * const reply = await engine.turn(request, signal);
 */
export class LlmEngine implements Engine {
  readonly name = 'llm';
  /** Called with the size of every request sent (bench and tests measure with it). */
  onRequest: ((size: RequestSize) => void) | undefined;

  private readonly transport: LlmTransport;
  /** The conversation: an empty one until the saved one is read (every turn waits for that first). */
  private convo: LlmSession;
  /** Reading the saved conversation (again at the next turn when it failed). */
  private loading: Promise<LlmSession> | undefined;
  private readonly folder: AvatarFolder;
  private readonly system: string;
  private readonly tools: ToolSchema[];
  private readonly host: ToolHost;
  private readonly whispers: WhisperInbox;
  private turnNo = 0;

  constructor(
    private readonly ctx: EngineContext,
    private readonly options: LlmEngineOptions,
  ) {
    this.transport = new LlmTransport({ ...options.transport, log: ctx.log });
    this.folder = ctx.files ?? DiskAvatarFiles.folderAt(options.avatarDir, ctx.avatar);
    this.convo = LlmSession.fresh(this.folder, ctx.log, () => this.now().getTime());
    void this.ready().catch((err: unknown) => ctx.log.warn({ err }, 'the saved engine session could not be read yet; the next turn tries again'));
    this.system = systemPrompt(ctx.avatar, options.maxSteps, ctx.game.capabilities);
    this.tools = toolSchemas(ctx.skills);
    this.host = toolHostOf(ctx, () => this.now());
    this.whispers = new WhisperInbox(ctx.game);
  }

  private now(): Date {
    return this.options.now ? this.options.now() : new Date();
  }

  /** Age and size of the saved conversation (the loop rotates it when it is a day old). */
  session(): SessionInfo {
    return this.convo.info();
  }

  /** Start a fresh conversation (between turns only; the old one is kept as llm-session.prev.json). */
  resetSession(): void {
    void this.convo.reset();
  }

  /** The saved conversation, read once (the first turn waits for it), with every save asked for so far done. */
  private async ready(): Promise<LlmSession> {
    this.loading ??= LlmSession.open(this.folder, this.ctx.log, () => this.now().getTime()).then(
      (session) => (this.convo = session),
      (err: unknown) => {
        this.loading = undefined;
        throw err;
      },
    );
    const session = await this.loading;
    await session.settled();
    return session;
  }

  /** Stop listening to the game's whispers (the avatar's engine is being replaced). */
  close(): void {
    this.whispers.close();
  }

  /** One turn: requests and tool steps until the model replies (see the class). */
  async turn(req: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
    await this.ready();
    if (req.kind === 'question') return this.question(req, signal);
    this.turnNo++;
    const heard = this.whispers.take();
    const snap = this.ctx.game.snapshot();
    const newText = turnMessage(req, heard, snap ? briefSnapshot(snap) : undefined);
    const turn: ChatMessage[] = [{ role: 'user', content: newText }];
    const calls: string[] = [];
    const actions: NonNullable<TurnReply['actions']> = [];
    const usage = noUsage();
    let steps = 0;
    let text: string;
    try {
      // The skills the avatar wrote that fit this goal, and write_skill where it may help, beside the built-in tools.
      const learned = await learnedTurn(this.host, req, this.tools);
      for (;;) {
        const toolChoice = steps >= this.options.maxSteps ? 'none' : 'auto';
        // Read again at each step: a step that gathered logs makes `craft` of use, one that met a zombie `fight`.
        const tools = [...offeredTools(this.tools, { req, snap: this.ctx.game.snapshot(), caps: this.ctx.game.capabilities, heardChat: heard.length > 0, ...(this.ctx.places ? { places: this.ctx.places } : {}) }), ...learned.tools.schemas];
        const messages = this.fit(turn);
        this.measure(req.kind, messages, tools, steps === 0 && usage.requests === 0 ? newText.length : 0);
        const c = await this.transport.complete({ messages, tools, toolChoice }, signal);
        this.count(usage, c);
        if (c.toolCalls.length === 0 || toolChoice === 'none') {
          text = c.content;
          break;
        }
        const ids = c.toolCalls.map((call, i) => call.id || `call_${this.turnNo}_${usage.requests}_${i}`);
        turn.push({
          role: 'assistant',
          content: c.content || null,
          tool_calls: c.toolCalls.map((call, i) => ({ id: ids[i] ?? `call_${i}`, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
        });
        for (const [i, call] of c.toolCalls.entries()) {
          const id = ids[i] ?? `call_${i}`;
          if (steps >= this.options.maxSteps) {
            turn.push({ role: 'tool', tool_call_id: id, content: `error: not run, the turn's ${this.options.maxSteps} tool steps are used up; end the turn now` });
            continue;
          }
          steps++;
          const outcome = await runTool(this.host, call, signal, undefined, learned);
          calls.push(outcome.summary);
          if (outcome.action) actions.push(outcome.action);
          turn.push({ role: 'tool', tool_call_id: id, content: outcome.content });
        }
        if (signal.aborted) throw signal.reason;
      }
      // The answer came as the abort did: an aborted turn gets no reply all the same.
      if (signal.aborted) throw signal.reason;
    } catch (err) {
      if (signal.aborted) {
        await this.convo.noteInterrupted(req.kind, calls);
        // The chat heard before this turn is still news for the next one.
        this.whispers.putBack(heard);
        throw new TurnInterruptedError({ ...usage }, signal.reason);
      }
      if (err instanceof ProviderUnavailableError) {
        // Rate limited or down past every retry: this turn ends as "working", and the loop backs off.
        this.ctx.log.warn({ err: err.message }, 'model unavailable; the turn ends without an answer');
        await this.convo.noteInterrupted(req.kind, calls);
        return { report: saying(`(${err.message})`), usage: { ...usage } };
      }
      if (!(err instanceof ProviderRefusedError)) await this.convo.noteInterrupted(req.kind, calls);
      throw err;
    }
    turn.push({ role: 'assistant', content: text });
    await this.convo.commit(req.kind, turn, calls);
    return { report: readReport(text), usage: { ...usage }, actions };
  }

  /** A question: a short turn that may only look; not kept in the conversation (the automatic turn may be running meanwhile). */
  private async question(req: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
    const tools = questionTools(this.tools);
    const newText = turnMessage(req, []);
    const extra: ChatMessage[] = [{ role: 'user', content: newText }];
    const usage = noUsage();
    for (let step = 0; ; step++) {
      const toolChoice = step >= QUESTION_STEPS ? 'none' : 'auto';
      const context = this.convo.context();
      const system: ChatMessage = { role: 'system', content: this.system };
      let messages: ChatMessage[] = [system, ...context, ...extra];
      if (messageChars(messages) > this.options.budgetChars) messages = [system, ...this.convo.withSummary(extra)];
      messages = this.shrink(messages);
      this.measure('question', messages, tools, step === 0 ? newText.length : 0);
      let c: Completion;
      try {
        c = await this.transport.complete({ messages, tools, toolChoice }, signal);
      } catch (err) {
        if (!(err instanceof ProviderUnavailableError)) throw err;
        this.ctx.log.warn({ err: err.message }, 'model unavailable for a question');
        return { report: saying('The model provider is not answering right now; ask me again in a moment.'), usage: { ...usage } };
      }
      this.count(usage, c);
      if (c.toolCalls.length === 0 || toolChoice === 'none') return { report: readReport(c.content), usage: { ...usage } };
      const allowed = new Set(tools.map((t) => t.function.name));
      const ids = c.toolCalls.map((call, i) => call.id || `q_${step}_${i}`);
      extra.push({
        role: 'assistant',
        content: c.content || null,
        tool_calls: c.toolCalls.map((call, i) => ({ id: ids[i] ?? `q_${i}`, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
      });
      for (const [i, call] of c.toolCalls.entries()) {
        const outcome = await runTool(this.host, call, signal, allowed);
        extra.push({ role: 'tool', tool_call_id: ids[i] ?? `q_${i}`, content: outcome.content });
      }
    }
  }

  private count(usage: UsageTotals, c: Completion): void {
    addUsage(usage, c.usage ?? { promptTokens: 0, completionTokens: 0 });
  }

  private measure(kind: TurnRequest['kind'], messages: ChatMessage[], tools: readonly ToolSchema[], newText: number): void {
    if (!this.onRequest) return;
    this.onRequest({ kind, messages: messageChars(messages), tools: JSON.stringify(tools).length, system: this.system.length, newText });
  }

  /**
   * The request's messages under the budget: older kept turns are condensed
   * first, then old summary lines dropped, then (rarely) this turn's tool
   * results and prompt cut.
   */
  private fit(turn: ChatMessage[]): ChatMessage[] {
    const system: ChatMessage = { role: 'system', content: this.system };
    const build = (): ChatMessage[] => [system, ...this.convo.withSummary([...this.convo.turns.flatMap((t) => t.messages), ...turn])];
    let messages = build();
    while (messageChars(messages) > this.options.budgetChars && this.convo.condenseOldest()) messages = build();
    while (messageChars(messages) > this.options.budgetChars && this.convo.dropSummaryLine()) messages = build();
    return this.shrink(messages);
  }

  /** Last resort under the budget: cut tool results (oldest first), then the longest user text. */
  private shrink(messages: ChatMessage[]): ChatMessage[] {
    let out = messages;
    for (let i = 0; i < out.length && messageChars(out) > this.options.budgetChars; i++) {
      const m = out[i];
      if (m?.role === 'tool' && m.content.length > SHRUNK_RESULT) {
        out = out.map((x, j) => (j === i ? { ...m, content: `${m.content.slice(0, SHRUNK_RESULT - 1)}…` } : x));
      }
    }
    let excess = messageChars(out) - this.options.budgetChars;
    while (excess > 0) {
      let longest = -1;
      out.forEach((m, i) => {
        if (m.role === 'user' && (longest < 0 || m.content.length > (out[longest]?.content?.length ?? 0))) longest = i;
      });
      const m = out[longest];
      if (!m || m.role !== 'user' || m.content.length < 200) break;
      const keep = Math.max(100, m.content.length - excess - 40);
      out = out.map((x, j) => (j === longest ? { role: 'user' as const, content: `${m.content.slice(0, keep)}\n(…cut to fit)` } : x));
      excess = messageChars(out) - this.options.budgetChars;
    }
    return out;
  }
}

/**
 * The engine of one avatar.
 *
 * @example
 * const engine = createLlmEngine(ctx, { transport, maxSteps: 8, budgetChars: 16_000, avatarDir: join(dataDir, 'avatars', ctx.avatar) });
 */
export function createLlmEngine(ctx: EngineContext, opts: LlmEngineOptions): LlmEngine {
  return new LlmEngine(ctx, opts);
}

/** The folder of an avatar under a data dir (the same as the store's). */
export function avatarDirOf(dataDir: string, avatar: string): string {
  return join(dataDir, 'avatars', avatar);
}
