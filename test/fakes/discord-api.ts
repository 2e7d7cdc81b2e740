/**
 * A fake Discord (REST + gateway) for tests: the real discord.js `Client`
 * talks to it through `rest: { api: fake.apiUrl }` (the gateway URL comes
 * from `GET /gateway/bot`). One HTTP server on 127.0.0.1, port 0, JSON
 * encoding, no compression.
 *
 * It behaves like Discord where our code depends on it: IDENTIFY → READY
 * (guilds unavailable) → GUILD_CREATE per guild, heartbeats, RESUME with
 * replay of missed events, intents honoured (MessageContent blanks other
 * people's guild messages unless they mention the bot; a privileged intent
 * the application may not use closes with 4014), `allowed_mentions` decides
 * who a post pings ({@link SentMessage.pings}), message bodies are checked
 * (2000 characters, not empty), commands are checked on registration, an
 * interaction is acknowledged once (204, no content-type) and its webhook
 * answers follow-ups and `@original` edits, `enforce_nonce` returns the
 * earlier message for a repeated nonce. Failures can be injected
 * ({@link FakeDiscord.failNext}): 429 with `Retry-After` (per route or
 * global), 5xx, any status, a reset connection, and "accepted, then failed"
 * (the request takes effect but its answer is lost); 403/404 channels,
 * closed DMs, gateway drops, close codes, op 7 and op 9. Embeds, buttons and
 * modals are checked as Discord checks them; a person can press a button a
 * message shows them ({@link FakeDiscord.press}) and send a modal the bot
 * showed them ({@link FakeDiscord.submitModal}); a command with
 * `default_member_permissions` is hidden from members without them.
 *
 * Records: `requests`, `posts` (with who each pings), `edits`, `deleted`, `typings`,
 * `commands`, `identifies`, `resumes`, `gatewayCloses`, `heartbeats`,
 * `faults` (bugs in the fake itself, answered 500). Waits never sleep:
 * `nextMessage`, `waitForPost`, `waitForRequest`, `waitForCommands`,
 * `waitForSessions`, `waitFor`, and the {@link InteractionHandle} of an
 * injected interaction (`callback`, `reply`, `followUp`, `choices`).
 *
 * @example
 * const fake = await FakeDiscord.start();
 * const alice = fake.addUser('alice');
 * const guild = fake.addGuild('Home', { owner: alice });
 * const general = fake.addChannel(guild, 'general');
 * const client = new Client({ intents, partials: [Partials.Channel], rest: { api: fake.apiUrl } });
 * await client.login(fake.token);
 * fake.sendMessage({ channel: general, author: alice, content: 'hello' });
 * const reply = await fake.nextMessage(general.id);
 * // teardown: await client.destroy(); await fake.close();
 */
import { FakeCore, type MessageEdit, type RestFailure, type RestRequest, type SentMessage } from './discord/core.ts';
import { PRIVILEGED_INTENTS, type CloseRecord, type FakeGateway, type IdentifyRecord, type ResumeRecord } from './discord/gateway.ts';
import { createInteraction, type InteractionOption } from './discord/interactions.ts';
import { ChannelType, Intent, isThread, type FakeChannel, type FakeGuild, type FakeMessage, type FakeRole, type FakeUser, type Json } from './discord/model.ts';
import { InteractionHandle } from './discord/handles.ts';
import { createModalSubmit, createPress } from './discord/presses.ts';
import { listen, type ListeningFake } from './discord/server.ts';

export { ALL_PERMISSIONS, ChannelType, DEFAULT_EVERYONE_PERMISSIONS, EPHEMERAL, Intent, Permission } from './discord/model.ts';
export type { FakeChannel, FakeGuild, FakeMessage, FakeRole, FakeUser } from './discord/model.ts';
export type { InteractionCallback, MessageEdit, RestFailure, RestRequest, SentMessage } from './discord/core.ts';
export type { CloseRecord, IdentifyRecord, ResumeRecord } from './discord/gateway.ts';
export type { InteractionOption } from './discord/interactions.ts';
export { InteractionHandle, option, type InteractionReply } from './discord/handles.ts';
export type { AllowedMentions, MessageBody, Pings } from './discord/messages.ts';

export interface FakeDiscordOptions {
  /** The bot token (default `fake-bot-token`). */
  token?: string;
  /** The bot user's name (default `mindlink`). */
  botName?: string;
  /** HELLO's heartbeat interval (default 41250 ms, as on Discord). */
  heartbeatIntervalMs?: number;
  /** Privileged intents the application may use (default: all of them). */
  privileged?: PrivilegedIntents;
  /**
   * Interaction callbacks later than this many ms get 404 Unknown interaction,
   * as on Discord after 3 s (default: no deadline, since a loaded test machine
   * is slow; a test of the deferral path can set it).
   */
  interactionDeadlineMs?: number;
}

export interface PrivilegedIntents {
  messageContent?: boolean;
  guildMembers?: boolean;
  guildPresences?: boolean;
}

export class FakeDiscord {
  readonly token: string;
  /** For discord.js: `new Client({ rest: { api: fake.apiUrl } })`. */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly #core: FakeCore;
  readonly #gateway: FakeGateway;
  readonly #server: ListeningFake;
  /** Posts already returned by {@link nextMessage}. */
  readonly #taken = new Set<SentMessage>();
  #closing: Promise<void> | null = null;

  private constructor(core: FakeCore, server: ListeningFake) {
    this.#core = core;
    this.#gateway = server.gateway;
    this.#server = server;
    this.token = core.token;
    this.apiUrl = `http://127.0.0.1:${server.port}/api`;
    this.gatewayUrl = core.gatewayUrl;
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const core = new FakeCore(options.token ?? 'fake-bot-token', options.botName ?? 'mindlink', privilegedBits(options.privileged ?? {}));
    core.interactionDeadlineMs = options.interactionDeadlineMs ?? null;
    return new FakeDiscord(core, await listen(core, options.heartbeatIntervalMs ?? 41_250));
  }

  // --- the world ------------------------------------------------------------

  get bot(): FakeUser {
    return this.#core.world.bot;
  }

  get applicationId(): string {
    return this.#core.applicationId;
  }

  addUser(username: string, extra: { globalName?: string; bot?: boolean } = {}): FakeUser {
    return this.#core.world.addUser(username, extra);
  }

  /** A guild the bot is in (GUILD_CREATE is dispatched if a client is connected). */
  addGuild(name: string, extra: { owner?: FakeUser } = {}): FakeGuild {
    const guild = this.#core.world.addGuild(name, (extra.owner ?? this.bot).id);
    this.#emit('GUILD_CREATE', this.#core.payloads.guildCreate(guild));
    return guild;
  }

  addRole(guild: FakeGuild, name: string, extra: { permissions?: bigint; mentionable?: boolean } = {}): FakeRole {
    const role = this.#core.world.addRole(guild.id, name, extra.permissions ?? 0n, { mentionable: extra.mentionable ?? false });
    this.#emit('GUILD_ROLE_CREATE', { guild_id: guild.id, role: this.#core.payloads.role(role) });
    return role;
  }

  /** The @everyone role (its id is the guild's). */
  everyone(guild: FakeGuild): FakeRole {
    const role = guild.roles.get(guild.id);
    if (!role) throw new Error('fake Discord: guild without @everyone');
    return role;
  }

  addMember(guild: FakeGuild, user: FakeUser, extra: { roles?: FakeRole[]; nick?: string } = {}): void {
    this.#core.world.addMember(guild.id, user.id, (extra.roles ?? []).map((r) => r.id), extra.nick ?? null);
    this.#emit('GUILD_MEMBER_ADD', { guild_id: guild.id, ...this.#core.payloads.member(guild.id, user.id, true) });
  }

  /** The bot leaves (is removed from) a guild: GUILD_DELETE; its channels are gone (404). */
  removeGuild(guild: FakeGuild): void {
    const world = this.#core.world;
    world.guilds.delete(guild.id);
    for (const c of [...world.channels.values()]) if (c.guildId === guild.id) world.channels.delete(c.id);
    this.#emit('GUILD_DELETE', { id: guild.id });
  }

  /** A member leaves a guild (GUILD_MEMBER_REMOVE). */
  removeMember(guild: FakeGuild, user: FakeUser): void {
    guild.members.delete(user.id);
    this.#emit('GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: this.#core.payloads.user(user) });
  }

  /** Replaces a member's roles (GUILD_MEMBER_UPDATE). */
  setRoles(guild: FakeGuild, user: FakeUser, roles: FakeRole[]): void {
    const member = guild.members.get(user.id);
    if (!member) throw new Error(`fake Discord: ${user.username} is not a member of ${guild.name}`);
    member.roles = roles.map((r) => r.id);
    this.#emit('GUILD_MEMBER_UPDATE', { guild_id: guild.id, ...this.#core.payloads.member(guild.id, user.id, true) });
  }

  /** A text channel, or an announcement channel (CHANNEL_CREATE if a client is connected). */
  addChannel(guild: FakeGuild, name: string, extra: { announcement?: boolean } = {}): FakeChannel {
    const type = extra.announcement ? ChannelType.GuildAnnouncement : ChannelType.GuildText;
    const channel = this.#core.world.addChannel({ type, name, guildId: guild.id });
    this.#emit('CHANNEL_CREATE', this.#core.payloads.channel(channel));
    return channel;
  }

  /** A thread a person opened in `parent` (THREAD_CREATE). */
  addThread(parent: FakeChannel, name: string, extra: { owner?: FakeUser; private?: boolean } = {}): FakeChannel {
    const type = extra.private ? ChannelType.PrivateThread : ChannelType.PublicThread;
    return this.#core.createThread(parent.id, name, type, (extra.owner ?? this.bot).id, null);
  }

  /** The DM channel between the bot and `user`. */
  dmChannel(user: FakeUser): FakeChannel {
    return this.#core.world.dmChannel(user.id);
  }

  channel(id: string): FakeChannel {
    return this.#core.world.channel(id);
  }

  /** The clock new ids (and so the creation times discord.js reads from them) come from; Date.now by default. It never runs back: an id is never older than the last. */
  setClock(clock: () => number): void {
    this.#core.world.clock = clock;
  }

  message(id: string): FakeMessage | undefined {
    return this.#core.world.messages.get(id);
  }

  // --- injection ------------------------------------------------------------

  /** A person writes in a guild channel, a thread or a DM channel (MESSAGE_CREATE). */
  sendMessage(input: { channel: FakeChannel; author: FakeUser; content: string; replyTo?: FakeMessage | SentMessage }): FakeMessage {
    const replyTo = input.replyTo ? ('message' in input.replyTo ? input.replyTo.message.id : input.replyTo.id) : null;
    return this.#core.userMessage(input.channel.id, input.author.id, input.content, replyTo);
  }

  /** A person writes to the bot in a DM (MESSAGE_CREATE with `channel_type: 1`, no guild). */
  sendDm(author: FakeUser, content: string): FakeMessage {
    return this.#core.userMessage(this.dmChannel(author).id, author.id, content, null);
  }

  /** A person runs a slash command (it must be registered). */
  slash(input: { user: FakeUser; channel: FakeChannel; name: string; options?: InteractionOption[] }): InteractionHandle {
    const state = createInteraction(this.#core, 2, { userId: input.user.id, channelId: input.channel.id, name: input.name, options: input.options ?? [] });
    return new InteractionHandle(this, state);
  }

  /** A person types in a command option with autocomplete (one option must be `focused`). */
  autocomplete(input: { user: FakeUser; channel: FakeChannel; name: string; options: InteractionOption[] }): InteractionHandle {
    const state = createInteraction(this.#core, 4, { userId: input.user.id, channelId: input.channel.id, name: input.name, options: input.options });
    return new InteractionHandle(this, state);
  }

  /** A person presses the button `customId` on a message of the bot (it must show that button, to them). */
  press(input: { user: FakeUser; message: FakeMessage | SentMessage; customId: string }): InteractionHandle {
    const messageId = 'message' in input.message ? input.message.message.id : input.message.id;
    return new InteractionHandle(this, createPress(this.#core, { userId: input.user.id, messageId, customId: input.customId }));
  }

  /** The person a modal was shown to (the bot answered `from` with it) fills its fields and sends it. */
  submitModal(input: { user: FakeUser; from: InteractionHandle; values: Record<string, string> }): InteractionHandle {
    return new InteractionHandle(this, createModalSubmit(this.#core, { userId: input.user.id, from: input.from.state, values: input.values }));
  }

  /** The next matching REST request(s) fail as described (429, 5xx, any status). */
  failNext(failure: RestFailure): void {
    (failure.accepted ? this.#core.lostAnswers : this.#core.failures).push({ ...failure, left: failure.times ?? 1 });
  }

  /** Every request touching this channel (and its threads) gets 403 Missing Access from now on. */
  forbidChannel(channel: FakeChannel): void {
    this.#core.forbidden.add(channel.id);
  }

  /** Deletes a channel (CHANNEL_DELETE / THREAD_DELETE); requests to it get 404 Unknown Channel. */
  deleteChannel(channel: FakeChannel): void {
    const world = this.#core.world;
    world.channels.delete(channel.id);
    if (isThread(channel.type)) this.#emit('THREAD_DELETE', { id: channel.id, guild_id: channel.guildId, parent_id: channel.parentId, type: channel.type });
    else this.#emit('CHANNEL_DELETE', this.#core.payloads.channel(channel));
  }

  /** This user no longer accepts DMs from the bot (403 50007 on send). */
  closeDms(user: FakeUser): void {
    this.#core.closedDms.add(user.id);
  }

  /** Which privileged intents the application may use from the next IDENTIFY on (others close with 4014). */
  setPrivileged(privileged: PrivilegedIntents): void {
    this.#core.allowedPrivileged = privilegedBits(privileged);
  }

  // --- the gateway ------------------------------------------------------------

  /** Cuts every gateway socket without a close frame; the client should RESUME. Returns how many. */
  dropGateway(): number {
    return this.#gateway.drop();
  }

  /** Closes every gateway socket with `code` (e.g. 4000 resumable, 4014 disallowed intents). */
  closeGateway(code: number, reason = ''): number {
    return this.#gateway.closeWith(code, reason);
  }

  /** op 7: the client should reconnect and resume. */
  requestReconnect(): void {
    this.#gateway.requestReconnect();
  }

  /** op 9: the session is invalid (`resumable: false` makes the client identify anew). */
  invalidateSession(resumable: boolean): void {
    this.#gateway.invalidateSession(resumable);
  }

  /** op 1: the client must send a heartbeat now. */
  requestHeartbeat(): void {
    this.#gateway.requestHeartbeat();
  }

  /** Sends any dispatch event to every session (e.g. a payload the fake does not model). */
  dispatch(t: string, d: Json): void {
    this.#emit(t, d);
  }

  #emit(t: string, d: Json): void {
    this.#core.dispatch(t, d);
    this.#core.changed();
  }

  // --- records ----------------------------------------------------------------

  get requests(): readonly RestRequest[] {
    return this.#core.requests;
  }

  /** Every message the bot created (channel posts, interaction replies, follow-ups), in order. */
  get posts(): readonly SentMessage[] {
    return this.#core.posts;
  }

  get edits(): readonly MessageEdit[] {
    return this.#core.edits;
  }

  /** Every typing indicator the bot sent (`POST /channels/{id}/typing`): its channel and its place in {@link requests}. */
  get typings(): { channelId: string; request: number }[] {
    return this.#core.requests.flatMap((r, request) => {
      const m = /^\/channels\/(\d+)\/typing$/.exec(r.path);
      return m?.[1] && r.method === 'POST' && r.status === 204 ? [{ channelId: m[1], request }] : [];
    });
  }

  get deleted(): readonly { channelId: string; messageId: string }[] {
    return this.#core.deleted;
  }

  /** Registered commands: `global`, `guilds` (by guild id), and every bulk `overwrites` in order. */
  get commands(): FakeCore['commands'] {
    return this.#core.commands;
  }

  get identifies(): readonly IdentifyRecord[] {
    return this.#gateway.identifies;
  }

  get resumes(): readonly ResumeRecord[] {
    return this.#gateway.resumes;
  }

  get gatewayCloses(): readonly CloseRecord[] {
    return this.#gateway.closes;
  }

  /** Query strings of every gateway connection (`v`, `encoding`, `compress`). */
  get gatewayConnections(): readonly Record<string, string>[] {
    return this.#gateway.connections;
  }

  get heartbeats(): number {
    return this.#gateway.heartbeats;
  }

  /** Sessions connected and identified (or resumed) right now. */
  get liveSessions(): number {
    return this.#gateway.liveSessions;
  }

  /** Errors inside the fake itself (each was answered 500). */
  get faults(): readonly Error[] {
    return this.#core.faults;
  }

  // --- waits ------------------------------------------------------------------

  /**
   * Resolves with the first non-undefined value of `probe`, checked now and
   * after every change in the fake (a request, a gateway event, an
   * injection). State outside the fake (a test's own variables) does not
   * trigger a check: wait on the client's events for that.
   */
  waitFor<T>(probe: () => T | undefined, what = 'a condition'): Promise<T> {
    return this.#core.waitFor(probe, what);
  }

  /**
   * The oldest bot message (in `channelId`, or anywhere) not yet returned
   * by this method: each call takes the next one, so no post is missed or
   * returned twice, however fast the bot answers.
   */
  nextMessage(channelId?: string): Promise<SentMessage> {
    return this.waitFor(() => {
      const next = this.#core.posts.find((p) => !this.#taken.has(p) && (channelId === undefined || p.channelId === channelId));
      if (next) this.#taken.add(next);
      return next;
    }, `the next message${channelId ? ` in channel ${channelId}` : ''}`);
  }

  /** The first bot message (past or future) that satisfies `pred`. */
  waitForPost(pred: (p: SentMessage) => boolean, what = 'a matching post'): Promise<SentMessage> {
    return this.waitFor(() => this.#core.posts.find(pred), what);
  }

  /** The first REST request (past or future) that satisfies `pred`. */
  waitForRequest(pred: (r: RestRequest) => boolean, what = 'a matching request'): Promise<RestRequest> {
    return this.waitFor(() => this.#core.requests.find(pred), what);
  }

  /** Resolves once `n` sessions are connected and identified or resumed. */
  waitForSessions(n = 1): Promise<number> {
    return this.waitFor(() => (this.#gateway.liveSessions >= n ? this.#gateway.liveSessions : undefined), `${n} live gateway session(s)`);
  }

  /** Resolves with the commands of `scope` (`global` or a guild) once a bulk overwrite of it was accepted. */
  waitForCommands(scope: 'global' | FakeGuild = 'global'): Promise<readonly Json[]> {
    const guildId = scope === 'global' ? null : scope.id;
    const key = guildId ?? 'global';
    return this.waitFor(
      () => (this.#core.commands.overwrites.some((o) => o.scope === key) ? this.#core.commands.list(guildId) : undefined),
      `a command overwrite (${key})`,
    );
  }

  /** Closes every socket and the server, and rejects every pending wait. Safe to call twice. */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#core.close();
      this.#closing = this.#server.close();
    }
    return this.#closing;
  }
}

function privilegedBits(p: PrivilegedIntents): number {
  return (
    (p.messageContent === false ? 0 : Intent.MessageContent) |
    (p.guildMembers === false ? 0 : Intent.GuildMembers) |
    (p.guildPresences === false ? 0 : Intent.GuildPresences)
  ) & PRIVILEGED_INTENTS;
}
