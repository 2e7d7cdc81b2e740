/**
 * The transport of the llm engine: one chat completions request to an
 * OpenAI-compatible endpoint through the official `openai` client, streamed
 * or not, with usage asked for in the stream.
 *
 * Faults are told apart here and nowhere else:
 * - out of credit or not authorised (`insufficient_quota` by its error code,
 *   401, 402, 403) → {@link ProviderRefusedError}, no retry;
 * - 429 (honouring `Retry-After`), 408/409, 5xx, a timeout or a dropped
 *   connection → retried a bounded number of times, then
 *   {@link ProviderUnavailableError};
 * - the caller's abort → the client's abort error, at once;
 * - anything else the endpoint refuses (400, 404…) → {@link ProviderRequestError}.
 *
 * The client library is loaded by the first request: a mindlink whose avatars use no llm engine never loads it.
 */
import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type { Logger } from 'pino';
import { ProviderRefusedError } from '../../errors.ts';
import type { ChatMessage, ToolSchema } from './messages.ts';

/** Error codes that mean "no more credit / no access", whatever the HTTP status. */
export const REFUSAL_CODES = new Set(['insufficient_quota', 'invalid_api_key', 'billing_not_active', 'account_deactivated', 'access_terminated']);
/** HTTP statuses that always mean the provider will not serve this key. */
export const REFUSAL_STATUSES = new Set([401, 402, 403]);
/** HTTP statuses worth another try. */
const RETRY_STATUSES = new Set([408, 409, 429]);

/** The `openai` package. */
type OpenAIModule = typeof import('openai');
let openaiModule: Promise<OpenAIModule> | undefined;

/** Load the client library once (a failed load is tried again by the next request). */
function loadOpenAI(): Promise<OpenAIModule> {
  openaiModule ??= import('openai');
  openaiModule.catch(() => (openaiModule = undefined));
  return openaiModule;
}

/** The endpoint could not answer after every retry (rate limit, server errors, timeouts). The turn gives up, the loop goes on. */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/** The endpoint refused the request itself (a bad model name, a request it cannot take). Retrying the same request will not help. */
export class ProviderRequestError extends Error {
  readonly status: number | undefined;
  constructor(status: number | undefined, message: string) {
    super(message);
    this.name = 'ProviderRequestError';
    this.status = status;
  }
}

/** How to reach the endpoint. */
export interface TransportOptions {
  baseURL: string;
  model: string;
  /** Absent for a local server that needs none: no Authorization header is sent then. */
  apiKey?: string | undefined;
  stream: boolean;
  /** One request's time limit. */
  timeoutMs: number;
  /** Retries after the first try (429, 5xx, timeouts). */
  maxRetries: number;
  /** First backoff when the endpoint gives no Retry-After; doubles each retry. */
  retryBaseMs: number;
  /** The longest wait honoured for one retry (a longer Retry-After is cut to it). */
  maxRetryWaitMs: number;
  log: Logger;
}

/** The defaults of {@link TransportOptions} that are not about the endpoint. */
export const DEFAULT_RETRY = { maxRetries: 3, retryBaseMs: 1000, maxRetryWaitMs: 60_000 } as const;

/** One request. */
export interface CompletionRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** `none` asks for a final answer without tool calls. */
  toolChoice: 'auto' | 'none';
}

/** A tool call as the model sent it (arguments unparsed). */
export interface RawToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One answer. */
export interface Completion {
  content: string;
  toolCalls: RawToolCall[];
  /** Provider-reported tokens, or null when the endpoint sent none. */
  usage: { promptTokens: number; completionTokens: number } | null;
  finishReason: string | null;
}

/** One line, at most `max` characters, for chat and logs. */
function shortReason(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The provider's own message of an API error (the client prefixes the status). */
function providerMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message.trim()) return body.message;
  return err.message.replace(/^\d{3}\s+/, '') || `HTTP ${err.status ?? '?'}`;
}

/** The wait a 429/503 asks for (`retry-after-ms`, `retry-after` in seconds or as a date), in ms, or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Sleep that ends early (rejecting) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One request ran past its time limit. */
class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${Math.round(ms / 1000)} s`);
    this.name = 'RequestTimeout';
  }
}

type Verdict = { kind: 'refused'; reason: string } | { kind: 'retry'; waitMs: number | null; why: string } | { kind: 'fail'; error: Error };

/**
 * Chat completions against one endpoint.
 *
 * @example
 * const t = new LlmTransport({ baseURL, model, apiKey, stream: false, timeoutMs: 60_000, ...DEFAULT_RETRY, log });
 * const c = await t.complete({ messages, tools, toolChoice: 'auto' }, signal);
 */
export class LlmTransport {
  private client: OpenAI | undefined;
  private readonly options: TransportOptions;

  constructor(opts: TransportOptions) {
    this.options = opts;
  }

  /** The client, made on the first request. */
  private clientOf(sdk: OpenAIModule): OpenAI {
    const opts = this.options;
    this.client ??= new sdk.default({
      baseURL: opts.baseURL,
      // The client insists on a key; a local server without one gets no Authorization header at all.
      apiKey: opts.apiKey ?? 'unused',
      ...(opts.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      // Nothing from the environment (OPENAI_*): config.ts is the one reader of process.env.
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      // Our own log lines say what failed; the client's would go to the console.
      logLevel: 'off',
      // Retries are ours: the client would retry a 429 that means "out of credit".
      maxRetries: 0,
      timeout: opts.timeoutMs + 1000,
    });
    return this.client;
  }

  /** Send one request; retries what is worth retrying. */
  async complete(req: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const sdk = await loadOpenAI();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(this.clientOf(sdk), req, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        const verdict = this.judge(sdk, err);
        if (verdict.kind === 'refused') throw new ProviderRefusedError(verdict.reason);
        if (verdict.kind === 'fail') throw verdict.error;
        if (attempt >= this.options.maxRetries) {
          throw new ProviderUnavailableError(`the model provider did not answer after ${attempt + 1} tries (${verdict.why})`);
        }
        const wait = Math.min(verdict.waitMs ?? this.options.retryBaseMs * 2 ** attempt, this.options.maxRetryWaitMs);
        this.options.log.warn({ attempt: attempt + 1, waitMs: wait, why: verdict.why }, 'model request failed; retrying');
        await sleep(wait, signal);
      }
    }
  }

  private judge(sdk: OpenAIModule, err: unknown): Verdict {
    if (err instanceof RequestTimeout || err instanceof sdk.APIUserAbortError) return { kind: 'retry', waitMs: null, why: 'timeout' };
    if (err instanceof sdk.APIConnectionError) return { kind: 'retry', waitMs: null, why: shortReason(err.message || 'connection failed') };
    if (err instanceof sdk.APIError) {
      const code = typeof err.code === 'string' ? err.code : undefined;
      const message = providerMessage(err);
      if ((code && REFUSAL_CODES.has(code)) || (err.status !== undefined && REFUSAL_STATUSES.has(err.status))) {
        return { kind: 'refused', reason: shortReason(`${code ?? err.status}: ${message}`) };
      }
      if (err.status !== undefined && (RETRY_STATUSES.has(err.status) || err.status >= 500)) {
        return { kind: 'retry', waitMs: retryAfterMs(err.headers), why: shortReason(`${err.status}${code ? ` ${code}` : ''}: ${message}`, 120) };
      }
      return { kind: 'fail', error: new ProviderRequestError(err.status, `the model provider refused the request (${err.status ?? '?'}${code ? ` ${code}` : ''}): ${shortReason(message)}`) };
    }
    return { kind: 'fail', error: err instanceof Error ? err : new Error(String(err)) };
  }

  /** One try, under its own time limit (covering a stream that stalls halfway, which the client's timeout does not). */
  private async once(client: OpenAI, req: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(new RequestTimeout(this.options.timeoutMs)), this.options.timeoutMs);
    try {
      return await this.send(client, req, AbortSignal.any([signal, limit.signal]));
    } catch (err) {
      if (limit.signal.aborted && !signal.aborted) throw new RequestTimeout(this.options.timeoutMs);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(client: OpenAI, req: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const body = {
      model: this.options.model,
      messages: req.messages as OpenAI.Chat.Completions.ChatCompletionMessageParam[],
      ...(req.tools.length > 0 ? { tools: req.tools, tool_choice: req.toolChoice } : {}),
    };
    if (!this.options.stream) {
      const res = await client.chat.completions.create({ ...body, stream: false }, { signal });
      const choice = res.choices?.[0];
      const message = choice?.message;
      return {
        content: typeof message?.content === 'string' ? message.content : '',
        toolCalls: (message?.tool_calls ?? []).flatMap((c) =>
          c.type === 'function' && c.function ? [{ id: c.id ?? '', name: String(c.function.name ?? ''), arguments: String(c.function.arguments ?? '') }] : [],
        ),
        usage: res.usage ? { promptTokens: res.usage.prompt_tokens ?? 0, completionTokens: res.usage.completion_tokens ?? 0 } : null,
        finishReason: choice?.finish_reason ?? null,
      };
    }
    const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
    let content = '';
    let finishReason: string | null = null;
    let usage: Completion['usage'] = null;
    const calls = new Map<number, RawToolCall>();
    for await (const chunk of stream) {
      if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (typeof choice.delta?.content === 'string') content += choice.delta.content;
      for (const d of choice.delta?.tool_calls ?? []) {
        const call = calls.get(d.index) ?? { id: '', name: '', arguments: '' };
        if (d.id) call.id = d.id;
        if (d.function?.name) call.name += d.function.name;
        if (d.function?.arguments) call.arguments += d.function.arguments;
        calls.set(d.index, call);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    return { content, toolCalls: [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c), usage, finishReason };
  }
}
