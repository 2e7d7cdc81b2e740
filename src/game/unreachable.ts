/**
 * Whether a failed request never got an answer (the host refused the
 * connection, has no such name, timed out, dropped it) rather than being
 * answered with a refusal. Told by the error's code, looked for in the error
 * and its causes: `fetch` fails with a `TypeError: fetch failed` whose
 * `cause` carries the code (`ECONNREFUSED`, `ENOTFOUND`, undici's
 * `UND_ERR_CONNECT_TIMEOUT` …), sometimes inside an `AggregateError` (one per
 * address tried).
 */

/** Error codes of a request that reached nobody, or lost the connection before an answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** Names of the errors a timed-out request ends with (an `AbortSignal.timeout`, undici's connect timeout). */
const TIMEOUT_NAMES = new Set(['TimeoutError', 'ConnectTimeoutError']);

/**
 * The network error code behind a failed request, or undefined when it was not a network failure (an
 * answer that said no, a bug).
 *
 * @example
 * unreachableCode(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) })) // 'ECONNREFUSED'
 * unreachableCode(new Error('400 Bad Request {"error":"invalid_grant"}')) // undefined
 */
export function unreachableCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 6) return undefined;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code;
  if (typeof e.name === 'string' && TIMEOUT_NAMES.has(e.name)) return 'ETIMEDOUT';
  const inner = [e.cause, ...(Array.isArray(e.errors) ? (e.errors as unknown[]) : [])];
  for (const cause of inner) {
    const code = unreachableCode(cause, depth + 1);
    if (code) return code;
  }
  return undefined;
}
