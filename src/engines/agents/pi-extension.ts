/**
 * A pi extension (loaded by pi itself, `pi -e <this file>`, in pi's own
 * process: it imports no module of mindlink, only the MCP SDK): pi has no
 * MCP client of its own, so this one connects to the run's mindlink MCP
 * server (Streamable HTTP, `MINDLINK_MCP_URL`, the run's secret in
 * `MINDLINK_MCP_SECRET`) and registers each of its tools as a pi tool
 * `mindlink_<name>` that runs one at a time. A failed call is thrown, which
 * pi reports to its model as a tool error. The client closes with the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The part of pi's extension API used here. */
interface PiExtensionApi {
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    parameters: unknown;
    executionMode: 'sequential';
    execute(toolCallId: string, params: unknown, signal: AbortSignal | undefined): Promise<{ content: { type: 'text'; text: string }[]; details: unknown }>;
  }): void;
  on(event: 'session_shutdown', handler: () => Promise<void>): void;
}

/** Registers mindlink's tools with pi (pi awaits it before the session starts). */
export default async function mindlinkTools(pi: PiExtensionApi): Promise<void> {
  const url = process.env.MINDLINK_MCP_URL;
  const secret = process.env.MINDLINK_MCP_SECRET;
  if (!url || !secret) throw new Error('mindlink: MINDLINK_MCP_URL and MINDLINK_MCP_SECRET must be set');
  const timeout = Number(process.env.MINDLINK_MCP_TIMEOUT_MS) || 600_000;
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } });
  const client = new Client({ name: 'mindlink-pi', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  for (const t of tools) {
    pi.registerTool({
      name: `mindlink_${t.name}`,
      label: t.title ?? t.name,
      description: t.description ?? t.name,
      parameters: t.inputSchema,
      executionMode: 'sequential',
      async execute(_toolCallId, params, signal) {
        const res = await client.callTool({ name: t.name, arguments: (params ?? {}) as Record<string, unknown> }, undefined, { timeout, resetTimeoutOnProgress: true, ...(signal ? { signal } : {}) });
        const content = Array.isArray(res.content) ? res.content : [];
        const text = content.map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : JSON.stringify(c))).join('\n');
        if (res.isError) throw new Error(text || `${t.name} failed`);
        return { content: [{ type: 'text', text }], details: { server: 'mindlink' } };
      },
    });
  }
  pi.on('session_shutdown', async () => {
    await client.close();
  });
}
