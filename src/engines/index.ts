/**
 * The engines mindlink offers, by name.
 */
import { llmSetupProblem, type Config } from '../config.ts';
import { UserError } from '../errors.ts';
import { agentSetup, createAgentEngine } from './agents/agents.ts';
import { isAgentKind } from './agents/agent-cli.ts';
import type { EngineContext, EngineProvider } from './engine.ts';
import { createHybridEngine } from './hybrid.ts';
import type { EngineKind } from './kinds.ts';
import { avatarDirOf, createLlmEngine, type LlmEngineOptions } from './llm/llm-engine.ts';
import { DEFAULT_RETRY } from './llm/transport.ts';
import { createScriptedEngine } from './scripted.ts';

/**
 * The llm engine's settings from config, or the one-line reason it cannot run.
 *
 * @example
 * const llm = llmOptions(config); // { ok: false, problem: 'needs LLM_MODEL …' }
 */
export function llmOptions(config: Config): { ok: true; options: Omit<LlmEngineOptions, 'avatarDir'> } | { ok: false; problem: string } {
  const problem = llmSetupProblem(config);
  if (problem || !config.LLM_MODEL) return { ok: false, problem: problem ?? 'needs LLM_MODEL' };
  return {
    ok: true,
    options: {
      transport: {
        baseURL: config.LLM_BASE_URL,
        model: config.LLM_MODEL,
        apiKey: config.LLM_API_KEY,
        stream: config.LLM_STREAM,
        timeoutMs: config.LLM_TIMEOUT_MS,
        ...DEFAULT_RETRY,
      },
      maxSteps: config.LLM_MAX_STEPS,
      budgetChars: config.LLM_BUDGET_CHARS,
    },
  };
}

/**
 * The production engine provider: `scripted` always; `llm` when the model is configured (otherwise a
 * refusal naming the missing key, so nothing is created or switched); an agent engine (`opencode`,
 * `claude-code`, `pi`) when its CLI is installed (otherwise a refusal naming its npm package); `hybrid`,
 * the scripted engine and `HYBRID_MODEL` together, when that one can run.
 *
 * @example
 * const core = await Mindlink.start({ config, log, games, engines: createEngineProvider(config), skills });
 */
export function createEngineProvider(config: Config): EngineProvider {
  const llm = llmOptions(config);
  const agents = agentSetup(config);
  const build = (kind: EngineKind, ctx: EngineContext): ReturnType<EngineProvider> => {
    if (kind === 'scripted') return createScriptedEngine(ctx);
    if (isAgentKind(kind)) return createAgentEngine(kind, ctx, agents);
    if (kind === 'hybrid' && (llm.ok || config.HYBRID_MODEL !== 'llm')) {
      // The model side first: an agent engine whose CLI is missing is refused before anything is built.
      const model = build(config.HYBRID_MODEL, ctx);
      return createHybridEngine(ctx, { scripted: createScriptedEngine(ctx), model });
    }
    if (!llm.ok) throw new UserError('llm_not_configured', `The ${kind} engine is not set up: it ${llm.problem}.`, ctx.avatar);
    return createLlmEngine(ctx, { ...llm.options, avatarDir: avatarDirOf(config.DATA_DIR, ctx.avatar) });
  };
  return build;
}
