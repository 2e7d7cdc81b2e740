/**
 * The MCP server one avatar's agent CLI calls: the same tools the llm
 * engine offers (every skill of the avatar's registry with its zod params
 * as JSON schema, `look`, `rewrite_task`, `lab_log`: `llm/tools.ts`, run
 * by its `runTool`, so each call goes through the skill gate, the skill's
 * timeout and the turn's abort), on an acting turn also the avatar's own
 * skills as the llm engine chooses them (`write_skill` where it may help,
 * the kept skills that fit the goal: `learnedTurn`, each run in the script
 * sandbox and counted in the skill's record), and as resources the goal,
 * the open owner direction and TASK.md. Every call is reported to the
 * engine as it ends (the thought stream shows it).
 */
import type { McpResource, McpServerSpec, McpTool } from '../../mcp/tool-server.ts';
import type { TurnRequest } from '../engine.ts';
import { learnedTurn, questionTools, runTool, toolSchemas, type LearnedTurn, type ToolHost, type ToolOutcome } from '../llm/tools.ts';

/** What one run's server acts on. */
export interface AvatarMcpOptions {
  avatar: string;
  /** What the tools act on; with `learned`, an acting turn offers the avatar's own skills too. */
  host: ToolHost;
  /** The turn the run is for (its goal and direction are the resources). */
  request: TurnRequest;
  /** The run's abort (owner stop, new goal, the turn's time limit): it ends every call in flight. */
  signal: AbortSignal;
  /** A question's run may only look (and is offered none of the avatar's own skills). */
  lookOnly: boolean;
  /** Each finished call, in order. */
  called(name: string, outcome: ToolOutcome): void;
}

/** The server's name: the CLIs show tools as `mindlink_collect` (opencode, pi) or `mcp__mindlink__collect` (Claude Code). */
export const AVATAR_SERVER = 'mindlink';

/** The resources' URIs of an avatar. */
export function resourceUris(avatar: string): { goal: string; direction: string; task: string } {
  const base = `mindlink://avatars/${encodeURIComponent(avatar)}`;
  return { goal: `${base}/goal`, direction: `${base}/direction`, task: `${base}/TASK.md` };
}

/** The goal as a resource's text. */
function goalText(req: TurnRequest): string {
  if (!req.goal) return 'No goal right now.';
  return `${req.goal.text}\n(set by ${req.goal.setBy === 'owner' ? 'your owner' : 'you'})`;
}

/** The open owner direction as a resource's text: one `#n text` line each, oldest first. */
function directionText(req: TurnRequest): string {
  if (req.directions.length === 0) return 'No open owner direction.';
  return req.directions.map((d) => `#${d.n} ${d.text}`).join('\n');
}

/**
 * The spec of one run's MCP server: its tools are chosen once, for the run's turn.
 *
 * @example
 * const endpoint = await McpEndpoint.start(await avatarMcpSpec({ avatar, host, request, signal, lookOnly: false, called }), log);
 */
export async function avatarMcpSpec(o: AvatarMcpOptions): Promise<McpServerSpec> {
  const all = toolSchemas(o.host.skills);
  // The avatar's own skills, as the llm engine offers them on this turn (none on a question or a wrap-up).
  const learned: LearnedTurn | undefined = o.lookOnly ? undefined : await learnedTurn(o.host, o.request, all);
  const offered = o.lookOnly ? questionTools(all) : [...all, ...(learned?.tools.schemas ?? [])];
  const allowed = o.lookOnly ? new Set(offered.map((t) => t.function.name)) : undefined;
  const tools: McpTool[] = offered.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    inputSchema: t.function.parameters,
    async run(args, call) {
      const signal = AbortSignal.any([o.signal, call.signal]);
      const outcome = await runTool(o.host, { id: '', name: t.function.name, arguments: JSON.stringify(args) }, signal, allowed, learned);
      o.called(t.function.name, outcome);
      return { text: outcome.content, isError: outcome.action ? !outcome.action.ok : /^error:/.test(outcome.content) };
    },
  }));
  const uris = resourceUris(o.avatar);
  const resources: McpResource[] = [
    { uri: uris.goal, name: 'goal', description: `${o.avatar}'s current goal`, mimeType: 'text/plain', read: async () => goalText(o.request) },
    { uri: uris.direction, name: 'direction', description: "Your owner's open direction, numbered", mimeType: 'text/plain', read: async () => directionText(o.request) },
    { uri: uris.task, name: 'TASK.md', description: `${o.avatar}'s notes: your own part, then the sections mindlink keeps`, mimeType: 'text/markdown', read: () => o.host.task.read() },
  ];
  return {
    name: AVATAR_SERVER,
    version: '1',
    instructions: `The game tools of ${o.avatar}, a Minecraft avatar run by mindlink. Each skill acts in the game and answers ok or failed with a reason.`,
    tools: () => tools,
    resources: () => resources,
  };
}
