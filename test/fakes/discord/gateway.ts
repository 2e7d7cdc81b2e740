/**
 * The fake Discord gateway (WebSocket, JSON encoding, no compression).
 *
 * HELLO (op 10) on connect; IDENTIFY (op 2) → READY (guilds unavailable) →
 * one GUILD_CREATE per guild; heartbeat (op 1) → ACK (op 11); RESUME (op 6)
 * → the events missed since the client's `seq`, then RESUMED; REQUEST GUILD
 * MEMBERS (op 8) → GUILD_MEMBERS_CHUNK. Every session numbers its own
 * dispatches and keeps them for replay. Privileged intents the application
 * may not use close the socket with 4014, a wrong token with 4004. Events
 * are filtered by the session's intents as Discord does, including
 * MessageContent: without it, guild messages arrive with empty content
 * unless they mention the bot or are the bot's own.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { Intent, type Json } from './model.ts';

export const PRIVILEGED_INTENTS = Intent.GuildMembers | Intent.GuildPresences | Intent.MessageContent;

/** Close codes after which Discord does not let the session resume. */
const INVALIDATING_CLOSES = new Set([1000, 1001, 4003, 4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014]);

export interface GatewayHooks {
  token: string;
  botId: string;
  heartbeatIntervalMs: number;
  /** The privileged intents the application may use. */
  allowedPrivileged(): number;
  /** READY's `d` for a new session. */
  ready(sessionId: string): Json;
  /** GUILD_CREATE `d`s, one per guild the bot is in. */
  guilds(): Json[];
  /** GUILD_MEMBERS_CHUNK `d`s answering an op 8 request. */
  membersChunks(request: Json, intents: number): Json[];
  changed(): void;
}

/** An IDENTIFY the fake received. */
export interface IdentifyRecord {
  intents: number;
  properties: unknown;
  /** The close code the fake answered with, or null when it sent READY. */
  refused: number | null;
}

/** A RESUME the fake received. */
export interface ResumeRecord {
  sessionId: string;
  seq: number;
  accepted: boolean;
  /** How many missed events were replayed. */
  replayed: number;
}

/** A gateway socket that ended, and how. */
export interface CloseRecord {
  code: number;
  /** `fake` when the fake closed or dropped it (injection), `client` otherwise. */
  by: 'fake' | 'client';
}

interface Dispatch {
  op: 0;
  s: number;
  t: string;
  d: Json;
}

interface Session {
  id: string;
  intents: number;
  seq: number;
  events: Dispatch[];
  socket: WebSocket | null;
  valid: boolean;
}

interface Connection {
  socket: WebSocket;
  session: Session | null;
  closedByFake: boolean;
}

export class FakeGateway {
  readonly identifies: IdentifyRecord[] = [];
  readonly resumes: ResumeRecord[] = [];
  readonly closes: CloseRecord[] = [];
  /** Query strings of every connection (`v`, `encoding`, `compress`). */
  readonly connections: Record<string, string>[] = [];
  heartbeats = 0;
  /** Frames over 1 MiB end the connection (ws closes with 1009); over 4096 bytes, Discord's limit, with 4002. */
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  readonly #sessions = new Map<string, Session>();
  readonly #live = new Set<Connection>();
  #sessionCounter = 0;

  constructor(private readonly hooks: GatewayHooks) {}

  /** Takes an HTTP upgrade request from the shared server. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const query = Object.fromEntries(new URL(req.url ?? '/', 'ws://x').searchParams);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, query));
  }

  /** Sessions that are connected and identified (or resumed) right now. */
  get liveSessions(): number {
    return [...this.#live].filter((c) => c.session?.socket === c.socket).length;
  }

  /** Sends an event to every valid session (kept for replay while a session is disconnected). */
  dispatch(t: string, d: Json): void {
    for (const session of this.#sessions.values()) {
      if (!session.valid) continue;
      const data = forIntents(session.intents, this.hooks.botId, t, d);
      if (data) this.#send(session, t, data);
    }
  }

  /** Cuts every socket without a close frame (the client sees 1006 and resumes). Returns how many. */
  drop(): number {
    let n = 0;
    for (const c of this.#live) {
      c.closedByFake = true;
      c.socket.terminate();
      n += 1;
    }
    return n;
  }

  /** Closes every socket with `code` (4014 disallowed intents, 4000 unknown error, …). */
  closeWith(code: number, reason = ''): number {
    let n = 0;
    for (const c of this.#live) {
      c.closedByFake = true;
      if (c.session && INVALIDATING_CLOSES.has(code)) c.session.valid = false;
      c.socket.close(code, reason);
      n += 1;
    }
    return n;
  }

  /** Sends op 7 RECONNECT: the client closes and resumes. */
  requestReconnect(): void {
    for (const c of this.#live) c.socket.send(JSON.stringify({ op: 7, d: null }));
  }

  /** Sends op 9 INVALID SESSION; `resumable: false` forgets the session (the client identifies anew). */
  invalidateSession(resumable: boolean): void {
    for (const c of this.#live) {
      if (!resumable && c.session) c.session.valid = false;
      c.socket.send(JSON.stringify({ op: 9, d: resumable }));
    }
  }

  /** Sends op 1: the client must heartbeat at once. */
  requestHeartbeat(): void {
    for (const c of this.#live) c.socket.send(JSON.stringify({ op: 1, d: null }));
  }

  close(): void {
    for (const c of this.#live) {
      c.closedByFake = true;
      c.socket.terminate();
    }
    this.#live.clear();
    this.#wss.close();
  }

  #accept(socket: WebSocket, query: Record<string, string>): void {
    const conn: Connection = { socket, session: null, closedByFake: false };
    this.#live.add(conn);
    this.connections.push(query);
    socket.on('message', (raw) => this.#onMessage(conn, raw));
    // A broken frame or connection: end it; the close that follows is recorded in `closes`.
    socket.on('error', () => socket.terminate());
    socket.on('close', (code) => {
      this.#live.delete(conn);
      if (conn.session && conn.session.socket === socket) {
        conn.session.socket = null;
        if (!conn.closedByFake && INVALIDATING_CLOSES.has(code)) conn.session.valid = false;
      }
      this.closes.push({ code, by: conn.closedByFake ? 'fake' : 'client' });
      this.hooks.changed();
    });
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.hooks.heartbeatIntervalMs } }));
    this.hooks.changed();
  }

  #onMessage(conn: Connection, raw: RawData): void {
    let payload: { op?: unknown; d?: unknown };
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw instanceof ArrayBuffer ? raw.byteLength : raw.length;
    if (size > 4096) {
      conn.closedByFake = true;
      conn.socket.close(4002, 'Payload too large.');
      return;
    }
    try {
      payload = JSON.parse(String(raw)) as { op?: unknown; d?: unknown };
    } catch (error) {
      conn.closedByFake = true;
      conn.socket.close(4002, `Error while decoding payload: ${(error as Error).message}`);
      return;
    }
    const d = (typeof payload.d === 'object' && payload.d !== null ? payload.d : {}) as Json;
    const authenticated = conn.session?.socket === conn.socket;
    switch (payload.op) {
      case 1:
        this.heartbeats += 1;
        conn.socket.send(JSON.stringify({ op: 11 }));
        this.hooks.changed();
        return;
      case 2:
        return this.#identify(conn, d);
      case 6:
        return this.#resume(conn, d);
      case 3:
      case 4:
        if (!authenticated) return this.#refuse(conn, 4003, 'Not authenticated.');
        return;
      case 8:
        if (!authenticated || !conn.session) return this.#refuse(conn, 4003, 'Not authenticated.');
        for (const chunk of this.hooks.membersChunks(d, conn.session.intents)) this.#send(conn.session, 'GUILD_MEMBERS_CHUNK', chunk);
        return;
      default:
        return this.#refuse(conn, 4001, 'Unknown opcode.');
    }
  }

  #refuse(conn: Connection, code: number, reason: string): void {
    conn.closedByFake = true;
    if (conn.session && INVALIDATING_CLOSES.has(code)) conn.session.valid = false;
    conn.socket.close(code, reason);
  }

  #identify(conn: Connection, d: Json): void {
    const intents = typeof d.intents === 'number' ? d.intents : 0;
    const record: IdentifyRecord = { intents, properties: d.properties, refused: null };
    this.identifies.push(record);
    const refuse = (code: number, reason: string) => {
      record.refused = code;
      this.#refuse(conn, code, reason);
      this.hooks.changed();
    };
    if (conn.session) return refuse(4005, 'Already authenticated.');
    if (d.token !== this.hooks.token) return refuse(4004, 'Authentication failed.');
    if (typeof d.intents !== 'number' || intents < 0 || intents >= 1 << 26) return refuse(4013, 'Invalid intent(s).');
    if (intents & PRIVILEGED_INTENTS & ~this.hooks.allowedPrivileged()) return refuse(4014, 'Disallowed intent(s).');
    this.#sessionCounter += 1;
    const session: Session = {
      id: `fake-session-${this.#sessionCounter}`,
      intents,
      seq: 0,
      events: [],
      socket: conn.socket,
      valid: true,
    };
    this.#sessions.set(session.id, session);
    conn.session = session;
    this.#send(session, 'READY', this.hooks.ready(session.id));
    if (intents & Intent.Guilds) for (const g of this.hooks.guilds()) this.#send(session, 'GUILD_CREATE', g);
    this.hooks.changed();
  }

  #resume(conn: Connection, d: Json): void {
    const sessionId = String(d.session_id);
    const seq = typeof d.seq === 'number' ? d.seq : 0;
    const session = this.#sessions.get(sessionId);
    const ok = d.token === this.hooks.token && session !== undefined && session.valid;
    const record: ResumeRecord = { sessionId, seq, accepted: ok, replayed: 0 };
    this.resumes.push(record);
    if (!ok || !session) {
      conn.socket.send(JSON.stringify({ op: 9, d: false }));
      this.hooks.changed();
      return;
    }
    // A session resumed while its old socket still looks open: the new one takes over, as on Discord.
    for (const old of this.#live) {
      if (old !== conn && old.socket === session.socket) {
        old.closedByFake = true;
        old.socket.terminate();
      }
    }
    session.socket = conn.socket;
    conn.session = session;
    for (const event of session.events) {
      if (event.s > seq) {
        conn.socket.send(JSON.stringify(event));
        record.replayed += 1;
      }
    }
    this.#send(session, 'RESUMED', {});
    this.hooks.changed();
  }

  #send(session: Session, t: string, d: Json): void {
    session.seq += 1;
    const event: Dispatch = { op: 0, s: session.seq, t, d };
    session.events.push(event);
    if (session.socket && session.socket.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(event));
  }
}

const GUILD_EVENTS = /^(GUILD_(CREATE|UPDATE|DELETE|ROLE_.*)|CHANNEL_.*|THREAD_.*)$/;
const MEMBER_EVENTS = /^GUILD_MEMBER_(ADD|UPDATE|REMOVE)$/;
const MESSAGE_EVENTS = /^MESSAGE_(CREATE|UPDATE|DELETE)$/;

/** The event as a session with these intents receives it, or null when it does not. */
export function forIntents(intents: number, botId: string, t: string, d: Json): Json | null {
  if (GUILD_EVENTS.test(t)) return intents & Intent.Guilds ? d : null;
  if (MEMBER_EVENTS.test(t)) return intents & Intent.GuildMembers ? d : null;
  if (!MESSAGE_EVENTS.test(t)) return d;
  const inGuild = typeof d.guild_id === 'string';
  if (!(intents & (inGuild ? Intent.GuildMessages : Intent.DirectMessages))) return null;
  if (t === 'MESSAGE_DELETE' || intents & Intent.MessageContent || !inGuild) return d;
  const author = d.author as { id?: string } | undefined;
  const mentions = (d.mentions as { id?: string }[] | undefined) ?? [];
  if (author?.id === botId || mentions.some((m) => m.id === botId)) return d;
  return { ...d, content: '', embeds: [], attachments: [], components: [] };
}
