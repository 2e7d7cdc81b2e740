/**
 * Our own fake of Anthropic's Messages API on 127.0.0.1 (port 0), enough
 * for Claude Code (`ANTHROPIC_BASE_URL` pointed here) and any client of the
 * API.
 *
 * It plays a scripted conversation: each `POST /v1/messages` (with or without
 * `?beta=true`) is recorded and answered by the script (a function of the
 * request): text and/or tool_use blocks, streamed as Server-Sent Events when
 * the request asks for `stream` (`message_start`, `content_block_start`,
 * `ping`, `text_delta`s, `input_json_delta`s in pieces, `content_block_stop`,
 * `message_delta` with the stop reason and usage, `message_stop`) or as one
 * JSON message; an error (any status, Anthropic's error body, optional
 * `retry-after`: {@link ANTHROPIC_ERRORS} has the usual ones: 401, 429, the
 * 400 "credit balance is too low", 529); or no answer at all (a request that
 * hangs). `count_tokens`, the models list and `HEAD /` are answered too.
 * `close()` ends every open response and the server.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A content block of a request (loosely typed: what the client sent). */
export interface WireBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | WireBlock[];
  is_error?: boolean;
}

/** A message of a request. */
export interface WireAnthropicMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | WireBlock[];
}

/** The body of a Messages request. */
export interface MessagesBody {
  model: string;
  max_tokens?: number;
  system?: string | WireBlock[];
  messages: WireAnthropicMessage[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  stream?: boolean;
}

/** One request the fake received. */
export interface RecordedMessagesRequest {
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: MessagesBody;
  rawChars: number;
}

/** A tool call the fake model makes. */
export interface FakeToolUse {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** An error answer: its HTTP status, Anthropic's error type and message. */
export interface AnthropicError {
  status: number;
  type: string;
  message: string;
  retryAfter?: string;
}

/** What the fake answers one request with. */
export type AnthropicReply =
  | {
      content?: string;
      toolUses?: FakeToolUse[];
      /** Reported usage; estimated as characters / 4 when absent. */
      usage?: { input: number; output: number };
    }
  | { error: AnthropicError }
  | { hang: true };

/** Decides the reply to a request. */
export type AnthropicScript = (req: RecordedMessagesRequest) => AnthropicReply | Promise<AnthropicReply>;

/** The errors Anthropic answers when a key may not be served, is rate limited, or the service is overloaded. */
export const ANTHROPIC_ERRORS = {
  unauthorized: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  rateLimited: { status: 429, type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." },
  creditTooLow: {
    status: 400,
    type: 'invalid_request_error',
    message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
  },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
} as const satisfies Record<string, AnthropicError>;

/** The text of a message's content (text blocks joined; tool results as their text). */
export function blockText(content: string | WireBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : b.type === 'tool_result' ? blockText(b.content) : '')).join('\n');
}

/** The last message of a request. */
export function lastAnthropicMessage(req: RecordedMessagesRequest): WireAnthropicMessage | undefined {
  return req.body.messages[req.body.messages.length - 1];
}

/** Whether the last message brings a tool's result (the model is to read it and go on). */
export function bringsToolResult(req: RecordedMessagesRequest): boolean {
  const last = lastAnthropicMessage(req);
  return last?.role === 'user' && Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result');
}

/** The tool results of the last message. */
export function toolResults(req: RecordedMessagesRequest): WireBlock[] {
  const last = lastAnthropicMessage(req);
  return last && Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

/** Every user text of the request, oldest first (tool results left out). */
export function userTexts(req: RecordedMessagesRequest): string[] {
  return req.body.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : m.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n')));
}

const estimate = (chars: number): number => Math.ceil(chars / 4);

/**
 * @example
 * const api = await FakeAnthropic.start(() => ({ content: 'Hello.\nSTATUS: working' }));
 * // ANTHROPIC_BASE_URL=api.baseURL
 * await api.close();
 */
export class FakeAnthropic extends EventEmitter<{ request: [RecordedMessagesRequest] }> {
  readonly requests: RecordedMessagesRequest[] = [];
  /** Replies used first, in order, before the script is asked. */
  readonly queued: AnthropicReply[] = [];
  private readonly open = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    public script: AnthropicScript,
  ) {
    super();
  }

  /** Start on 127.0.0.1 on a free port. */
  static async start(script: AnthropicScript = () => ({ content: 'STATUS: working' })): Promise<FakeAnthropic> {
    let fake: FakeAnthropic | undefined;
    const server = createServer((req, res) => {
      void fake?.handle(req.url ?? '/', req.method ?? 'GET', req.headers, req, res);
    });
    fake = new FakeAnthropic(server, script);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `http://127.0.0.1:<port>` (no `/v1`: the clients add it). */
  get baseURL(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Resolve with the n-th request (1-based) once it has come. */
  nthRequest(n: number): Promise<RecordedMessagesRequest> {
    const have = this.requests[n - 1];
    if (have) return Promise.resolve(have);
    return new Promise((resolve) => {
      const on = (): void => {
        const r = this.requests[n - 1];
        if (r) {
          this.off('request', on);
          resolve(r);
        }
      };
      this.on('request', on);
    });
  }

  /** Stop: end open responses (hanging ones too) and close the server. */
  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.open.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(url: string, method: string, headers: IncomingHttpHeaders, req: NodeJS.ReadableStream, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = url.split('?')[0] ?? url;
    if (method === 'HEAD') {
      res.writeHead(200).end();
      return;
    }
    if (method === 'GET' && path.endsWith('/v1/models')) {
      this.json(res, 200, { data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' }], has_more: false, first_id: null, last_id: null });
      return;
    }
    if (method === 'POST' && path.endsWith('/v1/messages/count_tokens')) {
      this.json(res, 200, { input_tokens: estimate(raw.length) });
      return;
    }
    if (method !== 'POST' || !path.endsWith('/v1/messages')) {
      this.error(res, { status: 404, type: 'not_found_error', message: `no route ${method} ${path}` });
      return;
    }
    let body: MessagesBody;
    try {
      body = JSON.parse(raw) as MessagesBody;
    } catch (err) {
      this.error(res, { status: 400, type: 'invalid_request_error', message: `bad JSON: ${(err as Error).message}` });
      return;
    }
    const recorded: RecordedMessagesRequest = { n: this.requests.length + 1, path: url, headers, body, rawChars: raw.length };
    this.requests.push(recorded);
    this.emit('request', recorded);
    const reply = this.queued.shift() ?? (await this.script(recorded));
    if ('hang' in reply) {
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      return;
    }
    if ('error' in reply) {
      this.error(res, reply.error);
      return;
    }
    const id = `msg_fake_${recorded.n}`;
    const blocks: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> })[] = [];
    if (reply.content) blocks.push({ type: 'text', text: reply.content });
    (reply.toolUses ?? []).forEach((t, i) => blocks.push({ type: 'tool_use', id: t.id ?? `toolu_fake_${recorded.n}_${i}`, name: t.name, input: t.input }));
    const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const usage = reply.usage ?? { input: estimate(raw.length), output: estimate(JSON.stringify(blocks).length) };
    const usageField = { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (!body.stream) {
      this.json(res, 200, { id, type: 'message', role: 'assistant', model: body.model, content: blocks, stop_reason: stop, stop_sequence: null, usage: usageField }, { 'request-id': `req_fake_${recorded.n}` });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${recorded.n}` });
    const event = (type: string, data: Record<string, unknown>): void => {
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    event('message_start', { message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usageField, output_tokens: 1 } } });
    event('ping', {});
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        event('content_block_start', { index, content_block: { type: 'text', text: '' } });
        // The text in three pieces, so the client has to put it together.
        const third = Math.max(1, Math.ceil(b.text.length / 3));
        for (let i = 0; i < b.text.length; i += third) event('content_block_delta', { index, delta: { type: 'text_delta', text: b.text.slice(i, i + third) } });
      } else {
        event('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        const json = JSON.stringify(b.input);
        const half = Math.ceil(json.length / 2);
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
      }
      event('content_block_stop', { index });
    });
    event('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
    event('message_stop', {});
    res.end();
  }

  private error(res: ServerResponse, e: AnthropicError): void {
    this.json(res, e.status, { type: 'error', error: { type: e.type, message: e.message } }, e.retryAfter !== undefined ? { 'retry-after': e.retryAfter } : {});
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }
}
