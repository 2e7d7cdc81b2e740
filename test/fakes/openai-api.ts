/**
 * Our own fake OpenAI-compatible chat completions server on 127.0.0.1 (port 0).
 *
 * It plays a scripted conversation: each request to `/v1/chat/completions`
 * is recorded and answered by the script (a function of the request):
 * a message with content and/or tool calls (streamed as SSE when the request
 * asks for `stream`, with a usage chunk when `stream_options.include_usage`),
 * an error (any status, OpenAI's error body with `code`/`type`, optional
 * `Retry-After`), or no answer at all (to test timeouts). `close()` ends
 * every open response and the server.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A content part of a message (some clients, pi's among them, send the text as parts). */
export interface WirePart {
  type: string;
  text?: string;
}

/** A message of a request body, loosely typed (what the client sent). */
export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string | null | WirePart[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A tool of a request body. */
export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

/** The body of a chat completions request. */
export interface ChatBody {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

/** One request the fake received. */
export interface RecordedRequest {
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  /** Characters of the raw body. */
  rawChars: number;
}

/** A tool call the fake model makes. */
export interface FakeToolCall {
  name: string;
  /** A JSON string as sent (may be malformed on purpose), or an object to serialise. */
  arguments: string | Record<string, unknown>;
  id?: string;
}

/** What the fake answers one request with. */
export type FakeReply =
  | {
      content?: string;
      toolCalls?: FakeToolCall[];
      /** Reported usage; estimated as characters / 4 (messages and tools) when absent; `null` sends none. */
      usage?: { prompt: number; completion: number } | null;
    }
  | { error: { status: number; message: string; code?: string; type?: string; retryAfter?: string } }
  | { hang: true };

/** Decides the reply to the n-th request (1-based). */
export type FakeScript = (req: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** The last message of a request, and helpers scripts use. */
export function lastMessage(req: RecordedRequest): WireMessage | undefined {
  return req.body.messages[req.body.messages.length - 1];
}

/** A message's text, whether it came as a string or as parts. */
export function textOf(content: WireMessage['content'] | undefined): string {
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('');
}

/** The text of the last user message. */
export function lastUserText(req: RecordedRequest): string {
  return textOf([...req.body.messages].reverse().find((m) => m.role === 'user')?.content);
}

/** Every message's text, oldest first (what a model would have read). */
export function allTexts(req: RecordedRequest): string[] {
  return req.body.messages.map((m) => textOf(m.content));
}

/** Characters of the request's messages that the model reads: contents, tool call names and arguments (the budget's measure). */
export function messagesChars(req: RecordedRequest): number {
  let n = 0;
  for (const m of req.body.messages) {
    n += textOf(m.content).length;
    for (const c of m.tool_calls ?? []) n += c.function.name.length + c.function.arguments.length;
  }
  return n;
}

/** Characters of the messages (as above) and the JSON of the tool schemas together: the whole request's measure. */
export function wholeChars(req: RecordedRequest): number {
  return messagesChars(req) + (req.body.tools ? JSON.stringify(req.body.tools).length : 0);
}

const estimate = (chars: number): number => Math.ceil(chars / 4);

/**
 * @example
 * const llm = await FakeOpenAI.start((req) => ({ content: 'Hello.\nSTATUS: working' }));
 * const config = parseConfig({ ENGINE: 'llm', LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake' });
 * …
 * await llm.close();
 */
export class FakeOpenAI extends EventEmitter<{ request: [RecordedRequest] }> {
  readonly requests: RecordedRequest[] = [];
  /** Replies used first, in order, before the script is asked. */
  readonly queued: FakeReply[] = [];
  /**
   * Tool calls the fake model made that the request answered did not offer (`#n name`): a real model
   * calls the tools it is offered, so a test that plays a whole game asserts this stays empty.
   */
  readonly unoffered: string[] = [];
  private readonly open = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    public script: FakeScript,
  ) {
    super();
  }

  /** Start on 127.0.0.1 on a free port. */
  static async start(script: FakeScript = () => ({ content: 'STATUS: working' })): Promise<FakeOpenAI> {
    let fake: FakeOpenAI | undefined;
    const server = createServer((req, res) => {
      void fake?.handle(req.url ?? '/', req.method ?? 'GET', req.headers, req, res);
    });
    fake = new FakeOpenAI(server, script);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `http://127.0.0.1:<port>/v1` */
  get baseURL(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Resolve with the n-th request (1-based) once it has come. */
  nthRequest(n: number): Promise<RecordedRequest> {
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
    if (method === 'GET' && url.endsWith('/models')) {
      this.json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] });
      return;
    }
    if (method !== 'POST' || !url.endsWith('/chat/completions')) {
      this.json(res, 404, { error: { message: `no route ${method} ${url}`, type: 'invalid_request_error', param: null, code: 'not_found' } });
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch (err) {
      this.json(res, 400, { error: { message: `bad JSON: ${(err as Error).message}`, type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const recorded: RecordedRequest = { n: this.requests.length + 1, path: url, headers, body, rawChars: raw.length };
    this.requests.push(recorded);
    this.emit('request', recorded);
    const reply = this.queued.shift() ?? (await this.script(recorded));
    if ('hang' in reply) {
      // Never answered: the client's timeout (or close()) ends it.
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      return;
    }
    if ('error' in reply) {
      const e = reply.error;
      const extra: Record<string, string> = e.retryAfter !== undefined ? { 'retry-after': e.retryAfter } : {};
      this.json(res, e.status, { error: { message: e.message, type: e.type ?? 'api_error', param: null, code: e.code ?? null } }, extra);
      return;
    }
    const offered = new Set((body.tools ?? []).map((t) => t.function.name));
    for (const c of reply.toolCalls ?? []) if (!offered.has(c.name)) this.unoffered.push(`#${recorded.n} ${c.name}`);
    const calls = (reply.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${recorded.n}_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
    const content = reply.content ?? (calls.length > 0 ? null : '');
    const usage =
      reply.usage === null
        ? undefined
        : {
            prompt_tokens: reply.usage?.prompt ?? estimate(JSON.stringify(body.messages).length + JSON.stringify(body.tools ?? []).length),
            completion_tokens: reply.usage?.completion ?? estimate((content ?? '').length + JSON.stringify(calls).length),
          };
    const usageField = usage ? { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } : undefined;
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    const id = `chatcmpl-${recorded.n}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      this.json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish }],
        ...(usageField ? { usage: usageField } : {}),
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data: unknown): void => {
      res.write(`data: ${JSON.stringify(data)}\n\n`);
    };
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): void =>
      send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    chunk({ role: 'assistant', content: '' });
    const text = content ?? '';
    // Content in three pieces, so the client has to put it together.
    const third = Math.ceil(text.length / 3);
    for (let i = 0; i < text.length; i += Math.max(1, third)) chunk({ content: text.slice(i, i + Math.max(1, third)) });
    calls.forEach((c, index) => {
      chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
      const half = Math.ceil(c.function.arguments.length / 2);
      chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments.slice(0, half) } }] });
      chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments.slice(half) } }] });
    });
    chunk({}, finish);
    if (body.stream_options?.include_usage && usageField) send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: usageField });
    res.end('data: [DONE]\n\n');
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }
}
