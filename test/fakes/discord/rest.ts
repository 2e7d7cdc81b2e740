/**
 * The fake Discord REST API (`/api/v{n}/…`): routes, bot-token checks,
 * injected failures (429 with `Retry-After`, 5xx, any status), and a record
 * of every request. Interaction callbacks and interaction webhooks need no
 * token, as on Discord; a callback is answered 204 with no content-type.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeCore, RestFailure, RestRequest } from './core.ts';
import { interactionCallback, webhookInteraction, webhookMessage } from './interactions.ts';
import { ApiError, unknown } from './messages.ts';
import { ChannelType, isThread, type Json } from './model.ts';

interface Ctx {
  core: FakeCore;
  params: string[];
  body: unknown;
  query: URLSearchParams;
}

/** A response other than 200 with the handler's value as JSON. */
class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    /** Reset the connection instead of answering. */
    readonly drop = false,
  ) {}
}

type Handler = (ctx: Ctx) => Reply | unknown;

const ID = '(\\d+)';
const TOKEN = '([^/]+)';

/** [method, path pattern, needs the bot token, handler]. Handlers return a body (200) or a Reply. */
const ROUTES: [string, RegExp, boolean, Handler][] = [];

function route(method: string, pattern: string, auth: boolean, handler: Handler): void {
  ROUTES.push([method, new RegExp(`^${pattern}$`), auth, handler]);
}

const noContent = new Reply(204);
const reply = (status: number, body?: unknown): Reply => new Reply(status, body);

function guildOf(core: FakeCore, id: string) {
  const guild = core.world.guilds.get(id);
  if (!guild) throw unknown.guild();
  return guild;
}

function appScope(core: FakeCore, appId: string, guildId: string | null): string | null {
  if (appId !== core.applicationId) throw unknown.application();
  if (guildId !== null && !core.world.guilds.has(guildId)) throw new ApiError(403, { code: 50001, message: 'Missing Access' });
  return guildId;
}

// --- gateway, users, application -----------------------------------------

route('GET', '/gateway', false, ({ core }) => ({ url: core.gatewayUrl }));
route('GET', '/gateway/bot', true, ({ core }) => ({
  url: core.gatewayUrl,
  shards: 1,
  session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
}));
route('GET', '/users/@me', true, ({ core }) => core.payloads.user(core.world.bot));
route('GET', `/users/${ID}`, true, ({ core, params }) => {
  const user = core.world.users.get(params[0] ?? '');
  if (!user) throw unknown.user();
  return core.payloads.user(user);
});
route('POST', '/users/@me/channels', true, ({ core, body }) => {
  const recipient = String((body as Json | null)?.recipient_id ?? '');
  if (!core.world.users.has(recipient)) throw unknown.user();
  return core.payloads.channel(core.world.dmChannel(recipient));
});
const application = ({ core }: Ctx) => ({
  id: core.applicationId,
  name: core.world.bot.username,
  icon: null,
  description: '',
  bot_public: true,
  bot_require_code_grant: false,
  verify_key: '0'.repeat(64),
  flags: 0,
  bot: core.payloads.user(core.world.bot),
  owner: core.payloads.user(core.world.bot),
  team: null,
});
route('GET', '/applications/@me', true, application);
route('GET', '/oauth2/applications/@me', true, application);

// --- application commands --------------------------------------------------

for (const [prefix, guildParam] of [
  [`/applications/${ID}/commands`, false],
  [`/applications/${ID}/guilds/${ID}/commands`, true],
] as const) {
  const scope = (core: FakeCore, params: string[]) => appScope(core, params[0] ?? '', guildParam ? (params[1] ?? '') : null);
  route('GET', prefix, true, ({ core, params }) => core.commands.list(scope(core, params)));
  route('PUT', prefix, true, ({ core, params, body }) => core.commands.overwrite(scope(core, params), body));
  route('POST', prefix, true, ({ core, params, body }) => reply(201, core.commands.upsert(scope(core, params), body)));
  route('GET', `${prefix}/${ID}`, true, ({ core, params }) => {
    const id = params[guildParam ? 2 : 1];
    const found = core.commands.list(scope(core, params)).find((c) => c.id === id);
    if (!found) throw unknown.command();
    return found;
  });
  route('DELETE', `${prefix}/${ID}`, true, ({ core, params }) => {
    core.commands.remove(scope(core, params), params[guildParam ? 2 : 1] ?? '');
    return noContent;
  });
}

// --- channels, messages, threads ------------------------------------------

route('GET', `/channels/${ID}`, true, ({ core, params }) => core.payloads.channel(core.accessible(params[0] ?? '')));
route('PATCH', `/channels/${ID}`, true, ({ core, params, body }) => {
  const channel = core.accessible(params[0] ?? '');
  const b = (body ?? {}) as Json;
  if (typeof b.name === 'string') channel.name = b.name;
  if (typeof b.archived === 'boolean') channel.archived = b.archived;
  if (typeof b.locked === 'boolean') channel.locked = b.locked;
  const payload = core.payloads.channel(channel);
  core.dispatch(isThread(channel.type) ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', payload);
  core.changed();
  return payload;
});
route('GET', `/channels/${ID}/messages`, true, ({ core, params, query }) => {
  const channel = core.accessible(params[0] ?? '');
  const limit = Math.min(100, Number(query.get('limit') ?? 50));
  const list = [...core.world.messages.values()].filter((m) => m.channelId === channel.id).reverse();
  return list.slice(0, limit).map((m) => core.payloads.message(m, false));
});
route('POST', `/channels/${ID}/messages`, true, ({ core, params, body }) => {
  const sent = core.post(params[0] ?? '', body, 'channel', null);
  return core.payloads.message(sent.message, false);
});
const channelMessage = (core: FakeCore, params: string[]) => {
  const channel = core.accessible(params[0] ?? '');
  const message = core.world.messages.get(params[1] ?? '');
  if (!message || message.channelId !== channel.id) throw unknown.message();
  return message;
};
route('GET', `/channels/${ID}/messages/${ID}`, true, ({ core, params }) => core.payloads.message(channelMessage(core, params), false));
route('PATCH', `/channels/${ID}/messages/${ID}`, true, ({ core, params, body }) => {
  core.accessible(params[0] ?? '');
  return core.payloads.message(core.edit(params[0] ?? '', params[1] ?? '', body, 'channel', null), false);
});
route('DELETE', `/channels/${ID}/messages/${ID}`, true, ({ core, params }) => {
  core.accessible(params[0] ?? '');
  core.remove(params[0] ?? '', params[1] ?? '');
  return noContent;
});
route('POST', `/channels/${ID}/typing`, true, ({ core, params }) => (core.accessible(params[0] ?? ''), noContent));
for (const method of ['PUT', 'DELETE']) {
  route(method, `/channels/${ID}/messages/${ID}/reactions/${TOKEN}/@me`, true, ({ core, params }) => (channelMessage(core, params), noContent));
}
route('POST', `/channels/${ID}/threads`, true, ({ core, params, body }) => {
  const b = (body ?? {}) as Json;
  const type = b.type === ChannelType.PublicThread ? ChannelType.PublicThread : ChannelType.PrivateThread;
  const thread = core.createThread(params[0] ?? '', String(b.name ?? ''), type, core.world.bot.id, null);
  return reply(201, core.payloads.channel(thread));
});
route('POST', `/channels/${ID}/messages/${ID}/threads`, true, ({ core, params, body }) => {
  const b = (body ?? {}) as Json;
  const thread = core.createThread(params[0] ?? '', String(b.name ?? ''), ChannelType.PublicThread, core.world.bot.id, params[1] ?? '');
  return reply(201, core.payloads.channel(thread));
});
for (const method of ['PUT', 'DELETE']) {
  route(method, `/channels/${ID}/thread-members/@me`, true, ({ core, params }) => (core.accessible(params[0] ?? ''), noContent));
}

// --- guilds ----------------------------------------------------------------

route('GET', `/guilds/${ID}`, true, ({ core, params }) => {
  const payload = core.payloads.guildCreate(guildOf(core, params[0] ?? ''));
  const { members: _m, channels: _c, threads: _t, presences: _p, voice_states: _v, ...guild } = payload;
  return guild;
});
route('GET', `/guilds/${ID}/channels`, true, ({ core, params }) =>
  (core.payloads.guildCreate(guildOf(core, params[0] ?? '')).channels as unknown[]),
);
route('GET', `/guilds/${ID}/threads/active`, true, ({ core, params }) => ({
  threads: core.payloads.guildCreate(guildOf(core, params[0] ?? '')).threads,
  members: [],
}));
route('GET', `/guilds/${ID}/roles`, true, ({ core, params }) =>
  [...guildOf(core, params[0] ?? '').roles.values()].map((r) => core.payloads.role(r)),
);
route('GET', `/guilds/${ID}/roles/${ID}`, true, ({ core, params }) => {
  const role = guildOf(core, params[0] ?? '').roles.get(params[1] ?? '');
  if (!role) throw unknown.role();
  return core.payloads.role(role);
});
route('GET', `/guilds/${ID}/members`, true, ({ core, params, query }) => {
  const guild = guildOf(core, params[0] ?? '');
  const limit = Math.min(1000, Number(query.get('limit') ?? 1));
  return [...guild.members.keys()].slice(0, limit).map((id) => core.payloads.member(guild.id, id, true));
});
route('GET', `/guilds/${ID}/members/search`, true, ({ core, params, query }) => {
  const guild = guildOf(core, params[0] ?? '');
  const q = (query.get('query') ?? '').toLowerCase();
  return [...guild.members.keys()]
    .filter((id) => core.world.user(id).username.toLowerCase().startsWith(q))
    .map((id) => core.payloads.member(guild.id, id, true));
});
route('GET', `/guilds/${ID}/members/${ID}`, true, ({ core, params }) => {
  const member = core.payloads.member(guildOf(core, params[0] ?? '').id, params[1] ?? '', true);
  if (!member) throw unknown.member();
  return member;
});

// --- interactions ----------------------------------------------------------

route('POST', `/interactions/${ID}/${TOKEN}/callback`, false, ({ core, params, body, query }) => {
  const response = interactionCallback(core, params[0] ?? '', params[1] ?? '', body);
  return query.get('with_response') === 'true' ? reply(200, response) : noContent;
});
route('POST', `/webhooks/${ID}/${TOKEN}`, false, ({ core, params, body, query }) => {
  const state = webhookInteraction(core, params[0] ?? '', params[1] ?? '');
  const sent = core.post(state.channelId, body, 'followup', state);
  return query.get('wait') === 'false' ? noContent : core.payloads.message(sent.message, false);
});
route('GET', `/webhooks/${ID}/${TOKEN}/messages/(@original|\\d+)`, false, ({ core, params }) => {
  const state = webhookInteraction(core, params[0] ?? '', params[1] ?? '');
  return core.payloads.message(webhookMessage(state, params[2] ?? ''), false);
});
route('PATCH', `/webhooks/${ID}/${TOKEN}/messages/(@original|\\d+)`, false, ({ core, params, body }) => {
  const state = webhookInteraction(core, params[0] ?? '', params[1] ?? '');
  const message = webhookMessage(state, params[2] ?? '');
  return core.payloads.message(core.edit(message.channelId, message.id, body, 'webhook', state), false);
});
route('DELETE', `/webhooks/${ID}/${TOKEN}/messages/(@original|\\d+)`, false, ({ core, params }) => {
  const state = webhookInteraction(core, params[0] ?? '', params[1] ?? '');
  const message = webhookMessage(state, params[2] ?? '');
  core.remove(message.channelId, message.id);
  if (message === state.original) state.original = null;
  return noContent;
});

// --- the HTTP side -----------------------------------------------------------

const STATUS_TEXT: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

function send(res: ServerResponse, r: Reply): void {
  if (r.status === 204 || r.body === undefined) {
    res.writeHead(r.status, r.headers);
    res.end();
    return;
  }
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...r.headers });
  res.end(text);
}

function failureReply(f: RestFailure): Reply {
  if (f.drop) return new Reply(0, undefined, {}, true);
  const status = f.status ?? 500;
  if (status === 429) {
    const retryAfter = f.retryAfter ?? 0.05;
    return new Reply(429, f.body ?? { message: 'You are being rate limited.', retry_after: retryAfter, global: f.global ?? false }, {
      'retry-after': String(retryAfter),
      'x-ratelimit-scope': f.global ? 'global' : 'user',
      ...(f.global ? { 'x-ratelimit-global': 'true' } : {}),
    });
  }
  if (status >= 500) return reply(status, f.body ?? { message: STATUS_TEXT[status] ?? 'Server Error', code: 0 });
  const defaults: Record<number, Json> = {
    400: { message: 'Bad Request', code: 0 },
    401: { message: '401: Unauthorized', code: 0 },
    403: { message: 'Missing Access', code: 50001 },
    404: { message: 'Unknown Channel', code: 10003 },
  };
  return reply(status, f.body ?? defaults[status] ?? { message: 'Error', code: 0 });
}

/** Bodies over this many bytes get 413, as Discord's upload limit would. */
const MAX_BODY = 1 << 20;

/** `%40original` → `@original`; a malformed escape stays as it is (and matches no route). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch (error) {
    if (error instanceof URIError) return path;
    throw error;
  }
}

/** Answers one HTTP request (the fake's REST side). */
export async function handleRest(core: FakeCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const method = (req.method ?? 'GET').toUpperCase();
  const path = safeDecode(url.pathname).replace(/^\/api(\/v\d+)?/, '');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const authorized = req.headers.authorization === `Bot ${core.token}`;
  const record: RestRequest = { method, path, query: Object.fromEntries(url.searchParams), body: undefined, status: 0, authorized, dropped: false };
  const finish = (r: Reply) => {
    record.status = r.status;
    record.dropped = r.drop;
    core.requests.push(record);
    if (r.drop) req.socket.resetAndDestroy();
    else send(res, r);
    core.changed();
  };
  if (size > MAX_BODY) return finish(reply(413, { message: 'Request entity too large', code: 40005 }));
  if (text !== '') {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return finish(reply(400, { message: 'fake Discord: only JSON bodies are supported (no multipart uploads)', code: 0 }));
    }
    try {
      record.body = JSON.parse(text) as unknown;
    } catch {
      return finish(reply(400, { message: 'The request body contains invalid JSON.', code: 50109 }));
    }
  }
  const match = ROUTES.map(([m, re, auth, handler]) => ({ m, auth, handler, found: re.exec(path) })).find(
    (r) => r.found !== null && r.m === method,
  );
  if (!match || !match.found) {
    const pathKnown = ROUTES.some(([, re]) => re.test(path));
    return finish(pathKnown ? reply(405, { message: '405: Method Not Allowed', code: 0 }) : reply(404, { message: '404: Not Found', code: 0 }));
  }
  if (match.auth && !authorized) return finish(reply(401, { message: '401: Unauthorized', code: 0 }));
  const failure = core.takeFailure(method, path, record.body);
  if (failure) return finish(failureReply(failure));
  const answer = run(core, match.handler, { core, params: match.found.slice(1), body: record.body, query: url.searchParams });
  const lost = core.takeLostAnswer(method, path, record.body);
  finish(lost ? failureReply(lost) : answer);
}

/** Runs a route: its value as 200 (or its own Reply), an ApiError as Discord's error, anything else as a fault (500). */
function run(core: FakeCore, handler: Handler, ctx: Ctx): Reply {
  try {
    const out = handler(ctx);
    return out instanceof Reply ? out : reply(200, out);
  } catch (error) {
    if (error instanceof ApiError) return reply(error.status, error.body);
    // A bug in the fake itself: answer 500 and keep it where the test can see it.
    core.faults.push(error instanceof Error ? error : new Error(String(error)));
    return reply(500, { message: `fake Discord fault: ${String(error)}`, code: 0 });
  }
}
