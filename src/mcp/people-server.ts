/**
 * The people's MCP server (docs/mcp.md): a person's own assistant (Claude
 * Desktop, an IDE, any MCP client) talks to their avatars with the tools
 * below, over Streamable HTTP at `/mcp` on the dashboard's server.
 *
 * Every request carries a bearer token made by `/mcp new`
 * (`src/people/mcp-tokens.ts`): it acts as that person speaking from their
 * direct messages with mindlink, and goes through the message router as a
 * chat message or command from there would. Their rights are exactly those
 * they have in that chat, and every answer, refusals included, is the chat's
 * own words. A missing, wrong or revoked token gets 401 with
 * `WWW-Authenticate: Bearer`, the same for each.
 *
 * Stateless: each POST gets its own server and transport and a JSON answer;
 * nothing is kept between requests, so a revoked token is refused from its
 * next request on. GET (a stream of the server's own messages) and DELETE
 * (ending a session) get 405: there are no sessions and nothing to stream.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChatContext, CommandAnswer, CommandInvocation, InboundMessage } from '../chat.ts';
import type { McpTokens } from '../people/mcp-tokens.ts';

/** Where the dashboard's server serves it. */
export const MCP_PATH = '/mcp';
/** How long `ask` waits for the avatar's answer: under the 60 s an MCP client waits for a call by default. */
export const ASK_WAIT_MS = 50_000;

/** What the server asks of the core: the chat's own answers, handed back instead of posted (the message router). */
export interface PeopleMcpHost {
  /** Run a command as chat would; its answer. Never throws. */
  answerCommand(inv: CommandInvocation): Promise<CommandAnswer>;
  /** A question (answered by the avatar) or a direction for an avatar, named or the only one meant; its answer. Never throws. */
  answerMessage(msg: InboundMessage, avatar: string | null, kind: 'question' | 'direction'): Promise<CommandAnswer>;
}

/** How to build a {@link PeopleMcp}. */
export interface PeopleMcpOptions {
  tokens: McpTokens;
  host: PeopleMcpHost;
  log: Logger;
  /** How long `ask` waits for an answer (ms); {@link ASK_WAIT_MS} by default. */
  askWaitMs?: number;
}

const NOT_SIGNED_IN = 'Not signed in: send /mcp new to mindlink in a direct message for a token, and send it as the header Authorization: Bearer <token>.';

const avatarArg = z.string().max(100).optional().describe("The avatar's name; it may be left out when you have only one avatar");

/** A JSON-RPC error answer with no id (the request was not read), as the transport writes its own. */
function rpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
function bearerOf(header: string | null): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? null;
}

/** An answer as a tool's result: the chat's line (`[avatar] text`, as the console shows it), an error when refused. */
function resultOf(answer: { avatar: string | null; text: string; refused: boolean }): CallToolResult {
  const text = answer.avatar ? `[${answer.avatar}] ${answer.text}` : answer.text;
  return { content: [{ type: 'text', text }], ...(answer.refused ? { isError: true } : {}) };
}

/**
 * @example
 * const mcp = new PeopleMcp({ tokens: core.mcpTokens, host: core.router, log });
 * mcp.listening('http://127.0.0.1:4780');   // the web bridge, once it listens: `/mcp new` hands out tokens
 * app.all(MCP_PATH, (c) => mcp.handle(c.req.raw));
 */
export class PeopleMcp {
  private readonly askWaitMs: number;

  constructor(private readonly opts: PeopleMcpOptions) {
    this.askWaitMs = opts.askWaitMs ?? ASK_WAIT_MS;
  }

  /** The dashboard's server listens at `origin` (`http://127.0.0.1:4780`), or no longer (null). */
  listening(origin: string | null): void {
    this.opts.tokens.listening(origin === null ? null : `${origin}${MCP_PATH}`);
  }

  /** Answer one HTTP request to {@link MCP_PATH}. */
  async handle(request: Request): Promise<Response> {
    const token = bearerOf(request.headers.get('authorization'));
    const chat = token ? this.opts.tokens.caller(token) : null;
    if (!chat) {
      const challenge = token ? 'Bearer realm="mindlink", error="invalid_token"' : 'Bearer realm="mindlink"';
      return rpcError(401, NOT_SIGNED_IN, { 'WWW-Authenticate': challenge });
    }
    if (request.method !== 'POST') return rpcError(405, 'This server keeps no sessions and streams nothing: POST each request.', { Allow: 'POST' });
    const server = this.serverFor(chat);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  }

  /** A server whose tools act as the sender of `chat`. */
  private serverFor(chat: ChatContext): McpServer {
    const { host, log } = this.opts;
    const server = new McpServer(
      { name: 'mindlink', version: '1.0.0' },
      {
        instructions:
          `Minecraft avatars run by mindlink, as ${chat.fromName} sees and steers them from their direct messages with mindlink. ` +
          'list_avatars shows them; name the avatar in each call when there are several. Every answer is mindlink\'s own chat line.',
      },
    );
    const command = async (tool: string, name: string, options: Record<string, unknown>): Promise<CallToolResult> => {
      log.debug({ tool, from: chat.from }, 'mcp: tool called');
      return resultOf(await host.answerCommand({ ...chat, name, options }));
    };
    server.registerTool(
      'list_avatars',
      { description: 'List the avatars you can see: state, owner, engine and goal of each.', annotations: { readOnlyHint: true } },
      () => command('list_avatars', 'avatars', {}),
    );
    server.registerTool(
      'status',
      { description: "An avatar's state, goal, position, health, food and inventory.", inputSchema: { avatar: avatarArg }, annotations: { readOnlyHint: true } },
      ({ avatar }) => command('status', 'status', { avatar }),
    );
    server.registerTool(
      'set_goal',
      {
        description: 'Replace an avatar\'s goal, e.g. "collect 10 oak logs"; it works on it while it plays.',
        inputSchema: { goal: z.string().min(1).describe('The new goal, in plain words'), avatar: avatarArg },
      },
      ({ goal, avatar }) => command('set_goal', 'goal', { text: goal, avatar }),
    );
    server.registerTool(
      'add_direction',
      {
        description: 'Give an avatar a direction: how to go about its work (kept in its notes until it is done), e.g. "stay near the village".',
        inputSchema: { direction: z.string().min(1).describe('The direction, in plain words'), avatar: avatarArg },
      },
      async ({ direction, avatar }) => {
        log.debug({ tool: 'add_direction', from: chat.from }, 'mcp: tool called');
        return resultOf(await host.answerMessage({ ...chat, text: direction }, avatar ?? null, 'direction'));
      },
    );
    server.registerTool(
      'ask',
      {
        description: 'Ask a playing avatar a question; it answers from what it sees and carries, in its own short turn.',
        inputSchema: { question: z.string().min(1).describe('The question'), avatar: avatarArg },
      },
      async ({ question, avatar }) => {
        log.debug({ tool: 'ask', from: chat.from }, 'mcp: tool called');
        return resultOf(await this.bounded(host.answerMessage({ ...chat, text: question }, avatar ?? null, 'question'), avatar ?? null));
      },
    );
    server.registerTool(
      'play',
      { description: 'Start an avatar: it joins the game and works on its goal.', inputSchema: { avatar: avatarArg } },
      ({ avatar }) => command('play', 'play', { avatar }),
    );
    server.registerTool(
      'stop',
      { description: 'Stop an avatar: it leaves the game; its goal is kept.', inputSchema: { avatar: avatarArg } },
      ({ avatar }) => command('stop', 'stop', { avatar }),
    );
    return server;
  }

  /** The answer, or a line saying none came within {@link PeopleMcpOptions.askWaitMs}. */
  private async bounded(answer: Promise<CommandAnswer>, avatar: string | null): Promise<{ avatar: string | null; text: string; refused: boolean }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.askWaitMs);
    });
    try {
      const first = await Promise.race([answer, late]);
      if (first) return first;
      const seconds = Math.ceil(this.askWaitMs / 1000);
      return { avatar, text: `No answer came within ${seconds} s: I'm still thinking it over. Ask again in a while.`, refused: true };
    } finally {
      clearTimeout(timer);
    }
  }
}
