/**
 * The Discord bridge: a discord.js client on the gateway that hands messages
 * and slash commands to the core, and delivers the core's posts over REST
 * with explicit `allowed_mentions`.
 *
 * It decides nothing about rights or goals. What it owns is Discord itself:
 * the gateway (reconnect and resume are discord.js's; a refused MessageContent
 * intent is ours), which messages are for mindlink, who wrote them, where and
 * with which roles, which avatar a reply answers, the slash-command menu, and
 * what Discord's answer to a send means for the outbox.
 */
import {
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  Partials,
  Routes,
  type APIChannel,
  type Interaction,
  type RESTPostAPIChannelThreadsJSONBody,
} from 'discord.js';
import type { Bridge, BridgeHost, DeliveryOutcome, SentParts } from '../../src/chat.ts';
import { registerSecret, type Logger } from '../../src/logger.ts';
import { UserError } from '../../src/errors.ts';
import type { Destination, Identity, Post } from '../../src/store/schema.ts';
import { TypingIndicator } from '../../src/typing.ts';
import { DISCORD_MAX_MESSAGE_LENGTH, channelOf, destinationOf, discordUserOf } from './format.ts';
import { interactionContext } from './context.ts';
import { MessageIntake } from './intake.ts';
import { KeyedQueue } from '../../src/keyed-queue.ts';
import { deliverPost, safeError } from './delivery.ts';
import { answerAutocomplete, answerSlashCommand } from './interactions.ts';
import { answerPress } from './presses.ts';
import { slashCommands, type SlashSource } from './slash.ts';

/** How a {@link DiscordBridge} connects. */
export interface DiscordBridgeOptions {
  /** The bot token (`DISCORD_TOKEN`). */
  token: string;
  /** The REST base (`DISCORD_API_URL`, discord.js `rest.api`); the gateway URL comes from its `/gateway/bot`. Discord's own when absent. */
  apiUrl?: string | undefined;
  /** A guild that gets the commands at once too (`DISCORD_GUILD_ID`, for development). */
  guildId?: string | undefined;
  log: Logger;
  /** The commands offered on Discord (from `commands/index.ts`), registered as slash commands. */
  commands: readonly (SlashSource & { announce?: boolean })[];
  /** An interaction whose answer takes longer than this is deferred, then edited (Discord allows 3 s); 0 defers every one. Default 1500. */
  deferAfterMs?: number;
  /** Longest 429 `Retry-After` (s) waited inside a delivery; a longer one goes back to the outbox. Default 30. */
  maxRetryAfterSeconds?: number;
  /** The clock that tells how late a message missed while down is (Unix ms). Default Date.now. */
  now?: () => number;
}

/** The default of every optional {@link DiscordBridgeOptions} setting. */
export const DefaultDiscordBridgeOptions = {
  deferAfterMs: 1500,
  maxRetryAfterSeconds: 30,
} satisfies Required<Pick<DiscordBridgeOptions, 'deferAfterMs' | 'maxRetryAfterSeconds'>>;

/** The gateway close code of a privileged intent the application may not use. */
const DISALLOWED_INTENTS = 4014;
/** Close codes after which discord.js does not reconnect. */
const FATAL_CLOSE: Record<number, string> = {
  4004: 'the bot token was refused (DISCORD_TOKEN)',
  4010: 'invalid shard',
  4011: 'sharding is required',
  4012: 'invalid API version',
  4013: 'invalid intents',
};
/** Remembered message → avatar pairs (for replies); old entries go first. */
const MEMORY_LIMIT = 5000;
/** Discord shows a typing indicator about 10 s: it is sent again every 8 s while wanted. */
const TYPING_EVERY_MS = 8000;

/**
 * A Discord bot serving mindlink: guild channels, threads and DMs.
 *
 * @example
 * const discord = new DiscordBridge({ token: config.DISCORD_TOKEN, apiUrl: config.DISCORD_API_URL, log, commands: commandList('discord') });
 * await discord.start(core);
 * // … on shutdown
 * await discord.stop();
 */
export class DiscordBridge implements Bridge {
  readonly platform = 'discord' as const;
  readonly maxMessageLength = DISCORD_MAX_MESSAGE_LENGTH;

  private readonly opts: DiscordBridgeOptions;
  private readonly log: Logger;
  private readonly deferAfterMs: number;
  private readonly maxRetryAfterMs: number;
  private client: Client | null = null;
  private host: BridgeHost | null = null;
  /** False once Discord refused the MessageContent intent (4014). */
  private messageContent = true;
  private stopped = false;
  /** Message id of a bot post → the avatar it was about. */
  private readonly postAvatars = new Map<string, string>();
  /** Per channel, the handling of its messages in order; channels do not wait for each other. */
  private readonly chains = new KeyedQueue();
  private readonly handlers = new Set<Promise<void>>();
  /** Messages in: which are for mindlink, in each channel's order, and what came while away. */
  private readonly intake: MessageIntake;
  /** The typing indicators shown while someone waits on an avatar. */
  private readonly typingIndicator: TypingIndicator;

  constructor(opts: DiscordBridgeOptions) {
    registerSecret(opts.token);
    this.opts = opts;
    this.log = opts.log.bindings().bridge === undefined ? opts.log.child({ bridge: 'discord' }) : opts.log;
    this.deferAfterMs = opts.deferAfterMs ?? DefaultDiscordBridgeOptions.deferAfterMs;
    this.maxRetryAfterMs = (opts.maxRetryAfterSeconds ?? DefaultDiscordBridgeOptions.maxRetryAfterSeconds) * 1000;
    this.intake = new MessageIntake({
      host: () => this.host,
      client: () => this.client,
      postAvatars: this.postAvatars,
      enqueue: (dest, task) => this.enqueue(dest, task),
      log: this.log,
      now: opts.now ?? Date.now,
    });
    this.typingIndicator = new TypingIndicator({ send: (dest) => this.sendTyping(dest), everyMs: TYPING_EVERY_MS, log: this.log });
  }

  /** One `POST /channels/{id}/typing`. */
  private async sendTyping(dest: Destination): Promise<void> {
    const channelId = channelOf(dest);
    const client = this.client;
    if (!channelId || !client) return;
    try {
      await client.rest.post(Routes.channelTyping(channelId));
    } catch (err) {
      // Its error may carry the request: only what is safe to log leaves here.
      throw new Error(safeError(err).message);
    }
  }

  /** Whether the gateway gives message content in guild channels (false after a 4014). */
  get hasMessageContent(): boolean {
    return this.messageContent;
  }

  /** Log in, wait for the gateway's READY and guilds, and register the slash commands. */
  async start(host: BridgeHost): Promise<void> {
    if (this.host) throw new Error('DiscordBridge already started');
    this.host = host;
    await this.connect();
    await this.registerCommands();
    this.intake.catchUp();
  }

  /** Close the gateway, then wait for the handlers still running. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.typingIndicator.stop();
    const client = this.client;
    this.client = null;
    await client?.destroy();
    await Promise.allSettled([this.chains.idle(), ...this.handlers]);
  }

  /**
   * Send one post (`deliverPost` of `delivery.ts`): each part prefixed with `[avatar] `, the first replying to
   * `post.replyTo` and mentioning `post.ping` alone, a card as an embed with buttons; never overtaken by a
   * typing indicator, and typing shown again after it while still wanted.
   */
  async deliver(post: Post, parts: string[], progress: (sent: SentParts) => void = () => {}): Promise<DeliveryOutcome> {
    const client = this.client;
    if (!client) return { ok: false, retry: true, retryAfterMs: 1000, reason: 'the Discord client is not connected' };
    await this.typingIndicator.settled(post.dest);
    const outcome = await deliverPost({ client, log: this.log, postAvatars: this.postAvatars, memoryLimit: MEMORY_LIMIT }, post, parts, progress);
    if (outcome.ok) this.typingIndicator.delivered(post.dest);
    return outcome;
  }

  /** Show typing in a channel, thread or DM until the returned function is called (refreshed every 8 s: Discord shows it 10 s). */
  typing(dest: Destination): () => void {
    return this.typingIndicator.start(dest);
  }

  /** The DM channel with a user (`discord:<user id>`), opened if new; its destination. */
  async openDm(user: Identity): Promise<Destination> {
    const userId = discordUserOf(user);
    const client = this.client;
    if (!userId || !client) throw new UserError('no_dm', 'Discord is not connected right now; try again in a moment.');
    const dm = await client.users.createDM(userId);
    return destinationOf(dm.id);
  }

  /** Open a public thread under a channel (a thought stream); its destination. */
  async openThread(dest: Destination, name: string): Promise<Destination> {
    const channelId = channelOf(dest);
    const client = this.client;
    if (!channelId || !client) throw new UserError('no_threads', 'Discord is not connected right now; try again in a moment.');
    const channel = client.channels.cache.get(channelId);
    if (!channel || (channel.type !== ChannelType.GuildText && channel.type !== ChannelType.GuildAnnouncement)) throw new UserError('no_threads', 'A thought stream opens in a text channel of a server, not in a DM or a thread.');
    const body: RESTPostAPIChannelThreadsJSONBody = {
      name: name.slice(0, 100),
      type: ChannelType.PublicThread,
      auto_archive_duration: 1440,
    };
    try {
      const thread = (await client.rest.post(Routes.threads(channelId), { body })) as APIChannel;
      return destinationOf(thread.id);
    } catch (err) {
      if (err instanceof DiscordAPIError && (err.status === 403 || err.status === 404)) {
        throw new UserError('no_threads', 'I may not open threads here: give me Create Public Threads and Send Messages in Threads.');
      }
      throw err;
    }
  }

  // ───────────────────────────── connection ─────────────────────────────

  private makeClient(withContent: boolean): Client {
    const intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];
    if (withContent) intents.push(GatewayIntentBits.MessageContent);
    const client = new Client({
      intents,
      partials: [Partials.Channel],
      // A default for anything discord.js sends on its own; every post of ours sets its own.
      allowedMentions: { parse: [], repliedUser: false },
      rest: {
        ...(this.opts.apiUrl ? { api: this.opts.apiUrl.replace(/\/+$/, '') } : {}),
        // Short waits happen inside @discordjs/rest (it honours Retry-After); long ones go back to the outbox.
        rejectOnRateLimit: (info) => info.retryAfter > this.maxRetryAfterMs,
      },
    });
    client.on(Events.MessageCreate, (message) => this.intake.onMessage(message));
    client.on(Events.InteractionCreate, (interaction) => this.onInteraction(interaction));
    client.on(Events.ShardResume, (_id, replayed) => this.log.info({ replayed }, 'discord: gateway resumed'));
    // A new session (not a resume): what came in between was not replayed.
    client.on(Events.ShardReady, () => {
      if (this.intake.caughtUp) this.intake.catchUp();
    });
    client.on(Events.ShardReconnecting, () => {
      if (!this.stopped) this.log.info('discord: gateway reconnecting');
    });
    client.on(Events.Error, (err) => this.log.error({ err: safeError(err) }, 'discord client error'));
    client.rest.on('rateLimited', (info) => this.log.warn({ route: info.route, retryAfterMs: info.retryAfter, global: info.global }, 'discord: rate limited'));
    return client;
  }

  /**
   * Log in and resolve at READY (all guilds in). When Discord refuses the
   * MessageContent intent, say so once and connect again without it.
   */
  private async connect(): Promise<void> {
    for (;;) {
      const client = this.makeClient(this.messageContent);
      this.client = client;
      const outcome = await new Promise<'ready' | 'disallowed'>((resolve, reject) => {
        let ready = false;
        client.once(Events.ClientReady, () => {
          ready = true;
          resolve('ready');
        });
        client.on(Events.ShardDisconnect, (event) => {
          if (!ready) {
            if (event.code === DISALLOWED_INTENTS && this.messageContent) resolve('disallowed');
            else reject(new Error(`Discord: the gateway closed (${event.code}: ${FATAL_CLOSE[event.code] ?? 'unrecoverable'})`));
            return;
          }
          this.onFatalClose(client, event.code);
        });
        client.login(this.opts.token).catch((err: unknown) => reject(new Error(`Discord: cannot log in (${safeError(err).message})`)));
      }).catch(async (err: unknown) => {
        // Leave no socket or timer behind a failed start.
        this.client = null;
        await client.destroy();
        throw err;
      });
      if (outcome === 'ready') {
        this.log.info({ user: client.user?.tag, guilds: client.guilds.cache.size, messageContent: this.messageContent }, 'discord bot connected');
        return;
      }
      this.refuseMessageContent();
      await client.destroy();
    }
  }

  private refuseMessageContent(): void {
    this.messageContent = false;
    this.log.warn(
      'discord: the MessageContent intent is not allowed for this bot (close code 4014): switch on "Message Content Intent" under Bot → Privileged Gateway Intents in the Developer Portal. Going on without it: slash commands, DMs and messages that mention the bot still work.',
    );
  }

  /** The gateway closed for good after READY: reconnect without MessageContent on 4014, else say why it is down. */
  private onFatalClose(client: Client, code: number): void {
    if (this.stopped || this.client !== client) return;
    if (code === DISALLOWED_INTENTS && this.messageContent) {
      this.refuseMessageContent();
      const handler = client
        .destroy()
        .then(() => this.connect())
        .catch((err: unknown) => this.log.error({ err: safeError(err) }, 'discord: reconnecting without MessageContent failed'));
      this.track(handler);
      return;
    }
    this.log.error({ code, reason: FATAL_CLOSE[code] ?? 'unrecoverable' }, 'discord: the gateway closed for good; the bridge is down');
  }

  /** One bulk overwrite globally and, with DISCORD_GUILD_ID, one to that guild (its commands update at once). */
  private async registerCommands(): Promise<void> {
    const client = this.client;
    const appId = client?.application?.id;
    if (!client || !appId) throw new Error('Discord: READY carried no application id');
    const body = slashCommands(this.opts.commands);
    await client.rest.put(Routes.applicationCommands(appId), { body });
    if (this.opts.guildId) await client.rest.put(Routes.applicationGuildCommands(appId, this.opts.guildId), { body });
    this.log.info({ commands: body.length, guild: this.opts.guildId ?? null }, 'discord: slash commands registered');
  }

  // ───────────────────────────── events in ─────────────────────────────

  private onInteraction(interaction: Interaction): void {
    const host = this.host;
    if (!host) return;
    let handler: Promise<void>;
    if (interaction.isButton() || interaction.isModalSubmit()) {
      // A press on one of our cards (or the goal asked for by one).
      handler = answerPress(host, interaction, interactionContext(interaction), { deferAfterMs: this.deferAfterMs });
    } else if (interaction.isAutocomplete()) {
      handler = answerAutocomplete(host, interaction, interactionContext(interaction), this.log);
    } else if (interaction.isChatInputCommand()) {
      const announces = (name: string): boolean => this.opts.commands.some((c) => c.name === name && c.announce === true);
      handler = answerSlashCommand(host, interaction, interactionContext(interaction), { deferAfterMs: this.deferAfterMs, announces });
    } else return;
    const what = interaction.isCommand() ? interaction.commandName : interaction.isButton() || interaction.isModalSubmit() ? interaction.customId : null;
    // The one catch of this boundary: an interaction that cannot be answered (expired, network) is logged.
    this.track(handler.catch((err: unknown) => this.log.error({ err: safeError(err), interaction: what }, 'discord interaction failed')));
  }

  private track(task: Promise<void>): void {
    this.handlers.add(task);
    void task.finally(() => this.handlers.delete(task));
  }

  /** Run `task` after the channel's earlier messages; one catch per handler so a fault never reaches the gateway. */
  private enqueue(key: string, task: () => Promise<void>): void {
    void this.chains.run(key, task).catch((err: unknown) => {
      this.log.error({ err: safeError(err), dest: key }, 'discord message handler failed');
    });
  }
}
