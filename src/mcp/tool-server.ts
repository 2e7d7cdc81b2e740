/**
 * mindlink's MCP servers, built on the official SDK's low-level `Server`:
 * tools (name, JSON schema, a function) and text resources, described once
 * by a {@link McpServerSpec}. The per-avatar server that an agent engine's
 * CLI calls (`src/engines/agents/`) is one spec; any other server mindlink
 * serves is another. A long tool call keeps its client waiting patiently
 * with progress notifications, and the client's cancel (or its connection
 * closing) aborts the call's signal.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What a tool call can use while it runs. */
export interface ToolCall {
  /** Aborts when the client cancels the call or goes away (and whenever the spec's owner says so). */
  signal: AbortSignal;
}

/** What a tool answers: text for the model, and whether the call failed. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** One tool. */
export interface McpTool {
  name: string;
  description: string;
  /** A JSON schema of type `object` for the arguments. */
  inputSchema: Record<string, unknown>;
  /** Runs the call; the arguments are what the client sent (the tool checks them). */
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer>;
}

/** One text resource, read when asked. */
export interface McpResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  read(): Promise<string>;
}

/** A server's name, its tools and resources (asked for on every list, so they can change between calls). */
export interface McpServerSpec {
  name: string;
  version: string;
  /** Told to the client at start (the client may show it to its model). */
  instructions?: string;
  tools(): readonly McpTool[];
  resources?(): readonly McpResource[];
}

/** How often a long tool call tells its client it is still running (clients time calls out otherwise). */
export const PROGRESS_EVERY_MS = 10_000;

/**
 * A low-level SDK `Server` that lists and calls the spec's tools and reads its resources. An unknown tool or
 * resource is answered as an error, and a tool that throws becomes an error result: the server never fails.
 *
 * @example
 * const server = createMcpServer({ name: 'mindlink', version: '1', tools: () => [look] });
 * await server.connect(transport);
 */
export function createMcpServer(spec: McpServerSpec): Server {
  const server = new Server(
    { name: spec.name, version: spec.version },
    { capabilities: { tools: {}, ...(spec.resources ? { resources: {} } : {}) }, ...(spec.instructions ? { instructions: spec.instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: spec.tools().map((t) => ({ name: t.name, description: t.description, inputSchema: { ...t.inputSchema, type: 'object' as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = spec.tools().find((t) => t.name === request.params.name);
    if (!tool) {
      const names = spec.tools().map((t) => t.name);
      return { content: [{ type: 'text', text: `error: there is no tool called "${request.params.name.slice(0, 64)}" here; use one of: ${names.join(', ')}` }], isError: true };
    }
    const token = request.params._meta?.progressToken;
    let beats = 0;
    const timer =
      token === undefined
        ? undefined
        : setInterval(() => {
            beats += 1;
            extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: beats, message: `${tool.name} is still running` } }).catch(() => clearInterval(timer));
          }, PROGRESS_EVERY_MS);
    try {
      const answer = await tool.run(request.params.arguments ?? {}, { signal: extra.signal });
      return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
    } catch (err) {
      return { content: [{ type: 'text', text: `error: ${tool.name} failed: ${(err as Error).message}` }], isError: true };
    } finally {
      if (timer) clearInterval(timer);
    }
  });
  if (spec.resources) {
    const resources = spec.resources.bind(spec);
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: resources().map((r) => ({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const r = resources().find((x) => x.uri === request.params.uri);
      if (!r) throw new Error(`no resource ${request.params.uri}`);
      return { contents: [{ uri: r.uri, mimeType: r.mimeType, text: await r.read() }] };
    });
  }
  return server;
}
