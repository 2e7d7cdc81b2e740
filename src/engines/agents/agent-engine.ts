/**
 * The agent engines (`opencode`, `claude-code`, `pi`): one turn is one
 * headless run of the avatar's agent CLI in the avatar's folder, with
 * mindlink's MCP server (`avatar-mcp.ts`, on 127.0.0.1 behind a secret that
 * lives as long as the run) as its only tool source, the standing
 * instructions of `system-prompt.ts` as its system prompt and the loop's
 * prompt on stdin; the reply is read with the reporting protocol. The CLI's
 * session is resumed turn after turn (`agent-session.ts`) and replaced by a
 * new one when the loop rotates it. An owner stop kills the run at once;
 * so does the turn's time limit. A question forks the session (where the
 * CLI can) and may only look.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderRefusedError } from '../../errors.ts';
import { DiskAvatarFiles, type AvatarFolder } from '../../store/avatar-files.ts';
import type { McpEndpoint } from '../../mcp/http-endpoint.ts';
import { saying, TurnInterruptedError, type Engine, type EngineContext, type SessionInfo, type TurnReply, type TurnRequest, type TurnUsage } from '../engine.ts';
import { turnMessage } from '../llm/prompts.ts';
import { WhisperInbox } from '../llm/whispers.ts';
import { readReport } from '../llm/protocol.ts';
import { briefSnapshot, toolHostOf, type ToolHost, type ToolOutcome } from '../llm/tools.ts';
import type { AgentCli, AgentKind, AgentSetup, CliLocation, RunResult, RunSpec } from './agent-cli.ts';
import { AgentSession } from './agent-session.ts';
import { avatarMcpSpec } from './avatar-mcp.ts';
import { runCli, type CliExit } from './run-cli.ts';
import { agentSystemPrompt } from './system-prompt.ts';


/** How one agent engine is set up. */
export interface AgentEngineOptions {
  setup: AgentSetup;
  /** The avatar's folder (`DATA_DIR/avatars/<name>`): the run's working directory, TASK.md, the saved session. */
  avatarDir: string;
  now?: () => Date;
}

/** The folder of an agent CLI's own files: `DATA_DIR/agents/<engine>`. */
export function agentHomeOf(dataDir: string, kind: AgentKind): string {
  return join(dataDir, 'agents', kind);
}

/** One finished run: how it ended, what it said and cost, and whether it began a new session. */
interface Ran {
  exit: CliExit;
  result: RunResult;
  fresh: boolean;
}

/** A skill call as the thought stream shows it; a built-in tool too. */
function actionOf(name: string, outcome: ToolOutcome): { skill: string; ok: boolean; code: string } {
  if (outcome.action) return outcome.action;
  const ok = !/^error:/.test(outcome.content);
  return { skill: name, ok, code: ok ? 'ok' : 'failed' };
}

/**
 * @example
 * const engine = new AgentEngine(ctx, opencode, location, { setup, avatarDir });
 * const reply = await engine.turn(request, signal);
 */
export class AgentEngine implements Engine {
  readonly name: AgentKind;
  /** The CLI session to resume: a new one until the saved one is read (every turn waits for that first). */
  private saved: AgentSession;
  /** Reading the saved session (again at the next turn when it failed). */
  private loading: Promise<AgentSession> | undefined;
  private readonly folder: AvatarFolder;
  private readonly system: string;
  private readonly host: ToolHost;
  private readonly whispers: WhisperInbox;

  constructor(
    private readonly ctx: EngineContext,
    private readonly cli: AgentCli,
    private readonly location: CliLocation,
    private readonly options: AgentEngineOptions,
  ) {
    this.name = cli.kind;
    this.folder = ctx.files ?? DiskAvatarFiles.folderAt(options.avatarDir, ctx.avatar);
    this.saved = AgentSession.fresh(this.folder, cli.kind, ctx.log, () => this.now().getTime());
    void this.ready().catch((err: unknown) => ctx.log.warn({ err }, 'the saved agent session could not be read yet; the next turn tries again'));
    this.system = agentSystemPrompt(ctx.avatar, ctx.game.capabilities);
    this.host = toolHostOf(ctx, () => this.now());
    this.whispers = new WhisperInbox(ctx.game);
  }

  private now(): Date {
    return this.options.now ? this.options.now() : new Date();
  }

  /** The CLI session's age and context size (the loop rotates it when it is a day old or too big). */
  session(): SessionInfo {
    return this.saved.info();
  }

  /** The next run starts a new CLI session. */
  resetSession(): void {
    void this.saved.reset();
  }

  /** The saved session, read once (the first turn waits for it), with every save asked for so far done. */
  private async ready(): Promise<AgentSession> {
    this.loading ??= AgentSession.open(this.folder, this.cli.kind, this.ctx.log, () => this.now().getTime()).then(
      (session) => (this.saved = session),
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

  /** One turn: one run of the CLI (two when its session is gone and a new one starts). */
  async turn(req: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
    const usage: Required<TurnUsage> = { promptTokens: 0, completionTokens: 0, requests: 0, costUsd: 0 };
    if (signal.aborted) throw new TurnInterruptedError(usage, signal.reason);
    await this.ready();
    const question = req.kind === 'question';
    const heard = question ? [] : this.whispers.take();
    const snap = this.ctx.game.snapshot();
    const prompt = turnMessage(req, heard, snap ? briefSnapshot(snap) : undefined);
    const actions: NonNullable<TurnReply['actions']> = [];
    // The run's tool calls end with the run, whatever ends it.
    const run = new AbortController();
    const runSignal = AbortSignal.any([signal, run.signal]);
    const spec = await avatarMcpSpec({
      avatar: this.ctx.avatar,
      host: this.host,
      request: req,
      signal: runSignal,
      lookOnly: question,
      called: (name, outcome) => actions.push(actionOf(name, outcome)),
    });
    // The MCP server's code (the SDK, its schema checker) is loaded on an agent's first turn, not at start-up.
    const { McpEndpoint } = await import('../../mcp/http-endpoint.ts');
    const endpoint = await McpEndpoint.start(spec, this.ctx.log);
    let ran: Ran;
    try {
      const resume = this.saved.id;
      ran = await this.runOnce(req, prompt, endpoint, resume, signal);
      this.add(usage, ran.result);
      if (ran.result.failure?.kind === 'no_session' && resume !== undefined && !signal.aborted) {
        this.ctx.log.warn({ session: resume, engine: this.name }, 'the agent session to resume is gone; starting a new one');
        if (!question) await this.saved.reset();
        ran = await this.runOnce(req, prompt, endpoint, undefined, signal);
        this.add(usage, ran.result);
      }
    } finally {
      run.abort(new Error('the run ended'));
      await endpoint.close();
    }
    const { exit, result } = ran;
    // A CLI that reports the session's running cost: the run cost the difference (a question's fork starts from it too).
    if (result.sessionCostUsd !== undefined) usage.costUsd += Math.max(0, result.sessionCostUsd - (ran.fresh ? 0 : this.saved.costUsd));
    if (!question && (result.sessionId !== undefined || result.contextTokens !== undefined)) await this.saved.ran(result.sessionId, result.contextTokens, result.sessionCostUsd);
    const used: TurnUsage = { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, requests: usage.requests, ...(usage.costUsd > 0 ? { costUsd: usage.costUsd } : {}) };
    if (signal.aborted) {
      if (!question) this.whispers.putBack(heard);
      throw new TurnInterruptedError(used, signal.reason);
    }
    if (exit.killed === 'timeout') {
      this.ctx.log.warn({ engine: this.name, timeoutMs: this.options.setup.timeoutMs }, 'the agent CLI ran past the turn time limit and was killed');
      return { report: saying(`(${this.name} did not finish its turn within ${Math.round(this.options.setup.timeoutMs / 1000)} s, so it was stopped)`), usage: used, actions };
    }
    const failure = result.failure;
    if (failure?.kind === 'refused') throw new ProviderRefusedError(failure.message);
    if (failure?.kind === 'unavailable') {
      this.ctx.log.warn({ engine: this.name, err: failure.message }, 'model unavailable; the turn ends without an answer');
      return { report: saying(`(the model provider did not answer: ${failure.message})`), usage: used, actions };
    }
    if (failure) throw new Error(`${this.name} failed: ${failure.message}`);
    const texts = result.texts;
    const reply = texts[texts.length - 1] ?? '';
    return { report: readReport(reply), usage: used, actions, thoughts: texts.slice(0, -1) };
  }

  private add(usage: Required<TurnUsage>, r: RunResult): void {
    usage.promptTokens += r.usage.promptTokens;
    usage.completionTokens += r.usage.completionTokens;
    usage.requests += r.usage.requests;
    usage.costUsd += r.usage.costUsd ?? 0;
  }

  /** One run of the CLI, in a temp folder of its own that is gone afterwards. */
  private async runOnce(req: TurnRequest, prompt: string, endpoint: McpEndpoint, resume: string | undefined, signal: AbortSignal): Promise<Ran> {
    const { setup } = this.options;
    const home = agentHomeOf(setup.dataDir, this.cli.kind);
    const tmp = join(home, 'tmp', `${this.ctx.avatar}.${randomBytes(4).toString('hex')}`);
    mkdirSync(tmp, { recursive: true });
    mkdirSync(this.options.avatarDir, { recursive: true });
    const spec: RunSpec = {
      avatar: this.ctx.avatar,
      dirs: { home, tmp, work: this.options.avatarDir },
      system: this.system,
      prompt,
      mcp: { url: endpoint.url, secret: endpoint.secret },
      resume,
      ephemeral: req.kind === 'question',
      setup,
    };
    const log = this.ctx.log.child({ engine: this.name });
    const reader = this.cli.reader(log);
    try {
      const command = this.cli.command(spec, this.location, log);
      log.debug({ kind: req.kind, resume }, 'agent run');
      const exit = await runCli(command, { signal, timeoutMs: setup.timeoutMs, stdout: (l) => reader.stdout(l), stderr: (l) => reader.stderr(l), log });
      return { exit, result: reader.result(exit), fresh: resume === undefined };
    } finally {
      // What it left in its TMPDIR (a socket after a kill, an extracted library) goes with the run.
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
