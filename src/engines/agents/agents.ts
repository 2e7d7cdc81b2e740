/**
 * The agent engines by name: which CLI each drives, how the engines are set
 * up from config, and an engine for one avatar, refused in plain words
 * (naming the npm package) when its CLI is not installed.
 */
import { childEnvironment, llmSetupProblem, type Config } from '../../config.ts';
import { UserError } from '../../errors.ts';
import type { EngineContext } from '../engine.ts';
import { avatarDirOf } from '../llm/llm-engine.ts';
import type { AgentCli, AgentKind, AgentSetup } from './agent-cli.ts';
import { AgentEngine } from './agent-engine.ts';
import { claudeCode } from './claude-code.ts';
import { opencode } from './opencode.ts';
import { pi } from './pi.ts';

/** Each agent engine's CLI. */
export const AGENT_CLIS: Readonly<Record<AgentKind, AgentCli>> = { opencode, 'claude-code': claudeCode, pi };

/**
 * The agent engines' setup from config: the CLIs' folder, the data folder, the turn's time limit, the models,
 * the llm engine's endpoint (opencode's and pi's provider when no model is named for them), Claude Code's key.
 *
 * @example
 * const setup = agentSetup(config);
 */
export function agentSetup(config: Config): AgentSetup {
  const models: AgentSetup['models'] = {};
  if (config.OPENCODE_MODEL) models.opencode = config.OPENCODE_MODEL;
  if (config.PI_MODEL) models.pi = config.PI_MODEL;
  if (config.CLAUDE_MODEL) models['claude-code'] = config.CLAUDE_MODEL;
  const endpoint = config.LLM_MODEL && llmSetupProblem(config) === null;
  return {
    agentsDir: config.AGENTS_DIR,
    dataDir: config.DATA_DIR,
    timeoutMs: config.AGENT_TIMEOUT_MS,
    models,
    openai: endpoint
      ? { baseURL: config.LLM_BASE_URL, model: config.LLM_MODEL as string, apiKey: config.LLM_API_KEY, priceIn: config.LLM_PRICE_IN, priceOut: config.LLM_PRICE_OUT }
      : undefined,
    anthropic: { apiKey: config.ANTHROPIC_API_KEY, baseURL: config.ANTHROPIC_BASE_URL },
    baseEnv: childEnvironment(),
  };
}

/**
 * Why an agent engine cannot run here (its CLI is neither installed by `npm run agents:install` nor on PATH), as
 * a chat line, or null when it can.
 *
 * @example
 * agentMissing('pi', setup) // 'The pi engine needs the pi CLI (npm package @mariozechner/pi-coding-agent@0.73.1), which is not installed: …'
 */
export function agentMissing(kind: AgentKind, setup: Pick<AgentSetup, 'agentsDir' | 'baseEnv'>): string | null {
  const cli = AGENT_CLIS[kind];
  if (cli.locate(setup)) return null;
  return `The ${kind} engine needs its CLI (npm package ${cli.npm.name}@${cli.npm.version}), which is not installed: run \`npm run agents:install -- ${kind}\` where mindlink is installed, or put it on PATH (docs/agents.md).`;
}

/**
 * The agent engine of one avatar. Throws a UserError when its CLI is missing.
 *
 * @example
 * const engine = createAgentEngine('opencode', ctx, setup);
 */
export function createAgentEngine(kind: AgentKind, ctx: EngineContext, setup: AgentSetup): AgentEngine {
  const cli = AGENT_CLIS[kind];
  const location = cli.locate(setup);
  if (!location) throw new UserError('agent_not_installed', agentMissing(kind, setup) ?? `The ${kind} engine is not installed.`, ctx.avatar);
  return new AgentEngine(ctx, cli, location, { setup, avatarDir: avatarDirOf(setup.dataDir, ctx.avatar) });
}
