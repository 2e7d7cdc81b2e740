/**
 * The fake Discord's state and the operations REST and the injection API
 * share: posting, editing and deleting messages (with the pings they cause),
 * threads, interactions and their responses, records, injected failures,
 * and event waits.
 */
import { CommandStore } from './commands.ts';
import type { ModalField } from './components.ts';
import type { FakeGateway } from './gateway.ts';
import { ApiError, checkBody, formError, missingAccess, resolvePings, unknown, type MessageBody, type Pings } from './messages.ts';
import { Payloads } from './payloads.ts';
import { Waits } from './waits.ts';
import { ChannelType, EPHEMERAL, World, writtenMentions, type FakeChannel, type FakeMessage, type Json } from './model.ts';

/** One REST request as the fake answered it. */
export interface RestRequest {
  method: string;
  /** Without the `/api/v10` prefix, e.g. `/channels/123/messages`. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  /** Whether `Authorization: Bot <token>` was right (the token itself is not kept). */
  authorized: boolean;
  /** The fake cut the connection instead of answering (an injected `drop`). */
  dropped: boolean;
}

/** A message the bot created: a channel post, an interaction reply, or a follow-up. */
export interface SentMessage {
  channelId: string;
  via: 'channel' | 'interaction' | 'followup';
  /** The interaction it answers (for `interaction` and `followup`). */
  interactionId: string | null;
  /** The request body (for a deferred reply: the callback's `data`). */
  body: MessageBody;
  content: string;
  ephemeral: boolean;
  /** Who this message notifies (see `resolvePings`). */
  pings: Pings;
  message: FakeMessage;
}

/** An edit of a bot message (PATCH of a channel message or of a webhook message such as `@original`). */
export interface MessageEdit {
  channelId: string;
  messageId: string;
  /** `update`: an interaction's callback type 7 (the message a button is on). */
  via: 'channel' | 'webhook' | 'update';
  interactionId: string | null;
  body: MessageBody;
  /** The content after the edit. */
  content: string;
  pings: Pings;
}

/** A REST failure to inject; matched by method and path (a string matches a path prefix). */
export interface RestFailure {
  method?: string;
  path?: string | RegExp;
  /** The status to answer (default 500); ignored with `drop`. */
  status?: number;
  /** For 429: seconds, sent as the `Retry-After` header and `retry_after` in the body. */
  retryAfter?: number;
  /** For 429: a global rate limit (`X-RateLimit-Global`, `global: true`). */
  global?: boolean;
  /** A Discord error body to send instead of the default for `status`. */
  body?: Json;
  /** Only requests whose JSON body satisfies this fail (e.g. the second part of a long post). */
  when?: (body: unknown) => boolean;
  /** How many matching requests fail (default 1). */
  times?: number;
  /**
   * The request takes effect (a message is created, a command registered…)
   * and only then fails: its answer is replaced by the failure, so a client
   * that retries may duplicate it (unless it posts with `enforce_nonce`).
   */
  accepted?: boolean;
  /** Reset the connection instead of answering (discord.js sees ECONNRESET and retries); `status` is then ignored. */
  drop?: boolean;
}

/** The first answer to an interaction. */
export interface InteractionCallback {
  /** 4 reply, 5 deferred reply, 8 autocomplete result, 9 modal, … */
  type: number;
  data: Json;
  ephemeral: boolean;
  /** Milliseconds from INTERACTION_CREATE to this callback (for benchmarks; tests should not assert on it). */
  afterMs: number;
}

export interface InteractionState {
  id: string;
  token: string;
  /** 2 a slash command, 3 a button press, 4 autocomplete, 5 a modal submit. */
  type: 2 | 3 | 4 | 5;
  /** The command's name, or the custom id of the button or modal. */
  name: string;
  userId: string;
  channelId: string;
  guildId: string | null;
  payload: Json;
  /** When INTERACTION_CREATE was dispatched (`performance.now()`). */
  createdAt: number;
  callback: InteractionCallback | null;
  /** The `@original` response message (after a type 4 or 5 callback; the pressed message after 6 or 7). */
  original: FakeMessage | null;
  /** The message a pressed button (or the modal it opened) is on. */
  message: FakeMessage | null;
  /** The modal shown by a callback of type 9: its data and its text fields. */
  modal: { data: Json; fields: ModalField[] } | null;
  edits: MessageEdit[];
  followUps: SentMessage[];
}

/** Whether an injected failure is for this request (method, path prefix or pattern, `when` on the body). */
function requestMatches(f: RestFailure, method: string, path: string, body: unknown): boolean {
  return (
    (f.method === undefined || f.method.toUpperCase() === method) &&
    (f.path === undefined || (typeof f.path === 'string' ? path.startsWith(f.path) : f.path.test(path))) &&
    (f.when === undefined || f.when(body))
  );
}

/** Message flag of a deferred reply still "thinking". */
export const FLAG_LOADING = 128;

export class FakeCore {
  readonly world: World;
  readonly payloads: Payloads;
  readonly commands: CommandStore;
  readonly requests: RestRequest[] = [];
  readonly posts: SentMessage[] = [];
  readonly edits: MessageEdit[] = [];
  readonly deleted: { channelId: string; messageId: string }[] = [];
  readonly interactions = new Map<string, InteractionState>();
  readonly failures: (RestFailure & { left: number })[] = [];
  /** Failures injected with `accepted`: taken after the request took effect. */
  readonly lostAnswers: (RestFailure & { left: number })[] = [];
  /** Channels whose requests get 403 Missing Access. */
  readonly forbidden = new Set<string>();
  /** Users whose DMs refuse the bot (403 50007). */
  readonly closedDms = new Set<string>();
  /** Callbacks later than this get 404 Unknown interaction, as after Discord's 3 s (null: no deadline). */
  interactionDeadlineMs: number | null = null;
  /** Privileged intents the application may use (bits). */
  allowedPrivileged: number;
  gateway: FakeGateway | null = null;
  /** The gateway URL (`ws://127.0.0.1:port`), set once the server listens. */
  gatewayUrl = '';
  /** Errors inside the fake itself (answered 500); a test may assert there are none. */
  readonly faults: Error[] = [];
  readonly #waits = new Waits();
  /** Posts by `channel:nonce`, for `enforce_nonce`. */
  readonly #nonces = new Map<string, SentMessage>();

  constructor(
    readonly token: string,
    botName: string,
    allowedPrivileged: number,
  ) {
    this.world = new World(botName);
    this.payloads = new Payloads(this.world);
    this.commands = new CommandStore(this.applicationId, () => this.world.nextId());
    this.allowedPrivileged = allowedPrivileged;
  }

  get applicationId(): string {
    return this.world.bot.id;
  }

  dispatch(t: string, d: Json): void {
    this.gateway?.dispatch(t, d);
  }

  // --- waits --------------------------------------------------------------

  /** Re-checks every wait; call after any change. */
  changed(): void {
    this.#waits.changed();
  }

  /** Resolves with the first non-undefined value `probe` returns (checked now and after every change). */
  waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
    return this.#waits.waitFor(probe, what);
  }

  /** Rejects every pending wait. */
  close(): void {
    this.#waits.close();
  }

  // --- REST failures ------------------------------------------------------

  takeFailure(method: string, path: string, body?: unknown): RestFailure | undefined {
    const at = this.failures.findIndex(
      (f) =>
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.path === undefined || (typeof f.path === 'string' ? path.startsWith(f.path) : f.path.test(path))) &&
        (f.when === undefined || f.when(body)),
    );
    if (at < 0) return undefined;
    const failure = this.failures[at];
    if (!failure) return undefined;
    failure.left -= 1;
    if (failure.left <= 0) this.failures.splice(at, 1);
    return failure;
  }

  /** An `accepted` failure for a request that has just taken effect (see {@link RestFailure.accepted}). */
  takeLostAnswer(method: string, path: string, body: unknown): RestFailure | undefined {
    const at = this.lostAnswers.findIndex((f) => requestMatches(f, method, path, body));
    const failure = this.lostAnswers[at];
    if (!failure) return undefined;
    failure.left -= 1;
    if (failure.left <= 0) this.lostAnswers.splice(at, 1);
    return failure;
  }

  // --- channels -----------------------------------------------------------

  /** The channel, if the bot may use it: 404 when it does not exist, 403 when it is forbidden. */
  accessible(channelId: string): FakeChannel {
    const channel = this.world.channels.get(channelId);
    if (!channel) throw unknown.channel();
    if (this.forbidden.has(channelId) || (channel.parentId && this.forbidden.has(channel.parentId))) throw missingAccess();
    return channel;
  }

  createThread(parentId: string, name: string, type: number, ownerId: string, fromMessageId: string | null): FakeChannel {
    const parent = this.accessible(parentId);
    if ((parent.type !== ChannelType.GuildText && parent.type !== ChannelType.GuildAnnouncement) || !parent.guildId) {
      throw new ApiError(400, { code: 50024, message: 'Cannot execute action on this channel type' });
    }
    if (typeof name !== 'string' || name.length < 1 || name.length > 100) {
      throw formError('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    let id: string | undefined;
    if (fromMessageId) {
      const message = this.world.messages.get(fromMessageId);
      if (!message || message.channelId !== parentId) throw unknown.message();
      if (message.threadId) throw new ApiError(400, { code: 160004, message: 'A thread has already been created for this message' });
      id = message.id;
      message.threadId = id;
    }
    const thread = this.world.addChannel({
      ...(id ? { id } : {}),
      // Threads of an announcement channel are announcement threads; a thread from a message is public.
      type: parent.type === ChannelType.GuildAnnouncement ? ChannelType.AnnouncementThread : fromMessageId ? ChannelType.PublicThread : type,
      name,
      guildId: parent.guildId,
      parentId,
      ownerId,
    });
    this.dispatch('THREAD_CREATE', {
      ...this.payloads.channel(thread),
      newly_created: true,
      ...(ownerId === this.world.bot.id
        ? { member: { id: thread.id, user_id: ownerId, join_timestamp: new Date().toISOString(), flags: 0 } }
        : {}),
    });
    this.changed();
    return thread;
  }

  // --- messages -----------------------------------------------------------

  /** A message from a person (the injection API): mentions as written, dispatched as MESSAGE_CREATE. */
  userMessage(channelId: string, authorId: string, content: string, replyTo: string | null): FakeMessage {
    const channel = this.world.channel(channelId);
    this.world.user(authorId);
    const written = writtenMentions(content);
    const guild = channel.guildId ? this.world.guild(channel.guildId) : null;
    const replied = replyTo ? this.world.messages.get(replyTo) : undefined;
    if (replyTo && !replied) throw new Error(`fake Discord: no message ${replyTo} to reply to`);
    const mentions = written.users.filter((id) => this.world.users.has(id));
    if (replied && !mentions.includes(replied.authorId)) mentions.push(replied.authorId);
    const message = this.#store(channel, {
      authorId,
      content,
      reference: replied ? this.#reference(replied) : null,
      mentions,
      mentionRoles: written.roles.filter((id) => guild?.roles.has(id) === true),
      mentionEveryone: written.everyone,
    });
    return message;
  }

  /**
   * POST /channels/{id}/messages, an interaction reply or a follow-up: checked, recorded, dispatched.
   * `deferred`: the "thinking…" placeholder of a deferred reply (empty, loading).
   * With `enforce_nonce` and a `nonce` already used in this channel, the earlier
   * message is returned and nothing is created, as on Discord.
   */
  post(channelId: string, raw: unknown, via: SentMessage['via'], interaction: InteractionState | null, deferred = false): SentMessage {
    const channel = this.accessible(channelId);
    const body = checkBody(raw, !deferred);
    if (channel.type === ChannelType.DM && channel.recipientId && this.closedDms.has(channel.recipientId)) {
      throw new ApiError(403, { code: 50007, message: 'Cannot send messages to this user' });
    }
    let replied: FakeMessage | undefined;
    const ref = body.message_reference;
    if (ref) {
      replied = this.world.messages.get(ref.message_id);
      if (!replied && ref.fail_if_not_exists !== false) {
        throw new ApiError(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }] } },
        });
      }
    }
    const content = body.content ?? '';
    const pings = resolvePings(this.world, channel.guildId, content, body.allowed_mentions, replied?.authorId ?? null);
    const nonceKey =
      body.enforce_nonce === true && (typeof body.nonce === 'string' || typeof body.nonce === 'number') ? `${channelId}:${String(body.nonce)}` : null;
    const earlier = nonceKey ? this.#nonces.get(nonceKey) : undefined;
    if (earlier) return earlier;
    const ephemeral = ((body.flags ?? 0) & EPHEMERAL) !== 0 && interaction !== null;
    const message = this.#store(
      channel,
      {
        authorId: this.world.bot.id,
        content,
        reference: replied ? this.#reference(replied) : null,
        mentions: pings.users,
        mentionRoles: pings.roles,
        mentionEveryone: pings.everyone,
        flags: (ephemeral ? EPHEMERAL : 0) | (deferred ? FLAG_LOADING : 0),
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        webhookId: interaction ? this.applicationId : null,
        interaction: interaction ? { id: interaction.id, name: interaction.name, userId: interaction.userId } : null,
      },
      !ephemeral,
    );
    const sent: SentMessage = { channelId, via, interactionId: interaction?.id ?? null, body, content, ephemeral, pings, message };
    if (nonceKey) this.#nonces.set(nonceKey, sent);
    this.posts.push(sent);
    if (interaction && via === 'followup') interaction.followUps.push(sent);
    this.changed();
    return sent;
  }

  /** PATCH of a bot message (channel route or webhook route). */
  edit(channelId: string, messageId: string, raw: unknown, via: MessageEdit['via'], interaction: InteractionState | null): FakeMessage {
    const message = this.world.messages.get(messageId);
    if (!message || message.channelId !== channelId) throw unknown.message();
    if (message.authorId !== this.world.bot.id) {
      throw new ApiError(403, { code: 50005, message: 'Cannot edit a message authored by another user' });
    }
    const body = checkBody(raw, false);
    const channel = this.world.channel(channelId);
    if (body.content !== undefined && body.content !== null) message.content = body.content;
    const replied = message.reference ? this.world.messages.get(message.reference.message_id) : undefined;
    const pings = resolvePings(this.world, channel.guildId, message.content, body.allowed_mentions, replied?.authorId ?? null);
    message.mentions = pings.users;
    message.mentionRoles = pings.roles;
    message.mentionEveryone = pings.everyone;
    if (body.embeds !== undefined) message.embeds = body.embeds;
    if (body.components !== undefined) message.components = body.components;
    message.flags &= ~FLAG_LOADING;
    message.editedTimestamp = new Date().toISOString();
    const edit: MessageEdit = { channelId, messageId, via, interactionId: interaction?.id ?? null, body, content: message.content, pings };
    this.edits.push(edit);
    interaction?.edits.push(edit);
    if (!(message.flags & EPHEMERAL)) this.dispatch('MESSAGE_UPDATE', this.payloads.message(message, true));
    this.changed();
    return message;
  }

  remove(channelId: string, messageId: string): void {
    const message = this.world.messages.get(messageId);
    if (!message || message.channelId !== channelId) throw unknown.message();
    const channel = this.world.channel(channelId);
    if (message.authorId !== this.world.bot.id && !channel.guildId) {
      throw new ApiError(403, { code: 50003, message: 'Cannot execute action on a DM channel' });
    }
    this.world.messages.delete(messageId);
    this.deleted.push({ channelId, messageId });
    if (!(message.flags & EPHEMERAL)) {
      this.dispatch('MESSAGE_DELETE', { id: messageId, channel_id: channelId, ...(channel.guildId ? { guild_id: channel.guildId } : {}) });
    }
    this.changed();
  }

  #reference(m: FakeMessage): FakeMessage['reference'] {
    const guildId = this.world.channels.get(m.channelId)?.guildId;
    return { message_id: m.id, channel_id: m.channelId, ...(guildId ? { guild_id: guildId } : {}) };
  }

  #store(channel: FakeChannel, fields: Partial<FakeMessage> & { authorId: string; content: string }, dispatch = true): FakeMessage {
    const message: FakeMessage = {
      id: this.world.nextId(),
      channelId: channel.id,
      timestamp: new Date().toISOString(),
      editedTimestamp: null,
      reference: null,
      mentions: [],
      mentionRoles: [],
      mentionEveryone: false,
      flags: 0,
      embeds: [],
      components: [],
      webhookId: null,
      interaction: null,
      threadId: null,
      at: performance.now(),
      ...fields,
    };
    this.world.messages.set(message.id, message);
    channel.lastMessageId = message.id;
    if (dispatch) this.dispatch('MESSAGE_CREATE', this.payloads.message(message, true));
    this.changed();
    return message;
  }
}
