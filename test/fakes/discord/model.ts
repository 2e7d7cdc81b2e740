/**
 * The fake Discord's world: users, guilds (roles, members), channels
 * (guild text channels, threads, DMs) and messages, plus the JSON payloads
 * Discord would send for them (REST responses and gateway events).
 *
 * Ids are snowflakes from a counter (deterministic, increasing), so
 * discord.js can read a creation time from them as it does on Discord.
 */

/** Permission bits (the ones tests need; values as in Discord's API). */
export const Permission = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  MentionEveryone: 1n << 17n,
  ManageRoles: 1n << 28n,
  UseApplicationCommands: 1n << 31n,
  ManageThreads: 1n << 34n,
  CreatePublicThreads: 1n << 35n,
  CreatePrivateThreads: 1n << 36n,
  SendMessagesInThreads: 1n << 38n,
} as const;

/** Every permission bit Discord defines today (what an owner or Administrator has). */
export const ALL_PERMISSIONS = (1n << 53n) - 1n;

/** What @everyone may do in a fresh fake guild. */
export const DEFAULT_EVERYONE_PERMISSIONS =
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory |
  Permission.AddReactions |
  Permission.UseApplicationCommands |
  Permission.CreatePublicThreads |
  Permission.SendMessagesInThreads;

/** What the bot's own (managed) role adds in every guild. */
export const DEFAULT_BOT_PERMISSIONS =
  DEFAULT_EVERYONE_PERMISSIONS | Permission.ManageThreads | Permission.CreatePrivateThreads | Permission.ManageMessages;

/** Gateway intent bits. */
export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** Channel types used by the fake. */
export const ChannelType = { GuildText: 0, DM: 1, PublicThread: 11, PrivateThread: 12 } as const;

/** Message flag: only the invoking user sees the message. */
export const EPHEMERAL = 64;

/** A JSON object as sent on the wire. */
export type Json = Record<string, unknown>;

export interface FakeUser {
  id: string;
  username: string;
  globalName: string | null;
  bot: boolean;
}

export interface FakeRole {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  mentionable: boolean;
  /** A bot's own role. */
  managed: boolean;
}

export interface FakeMember {
  userId: string;
  /** Role ids, without @everyone. */
  roles: string[];
  nick: string | null;
  joinedAt: string;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  /** Includes @everyone, whose id is the guild's id. */
  roles: Map<string, FakeRole>;
  members: Map<string, FakeMember>;
}

export interface FakeChannel {
  id: string;
  type: number;
  name: string | null;
  guildId: string | null;
  /** A thread's parent channel. */
  parentId: string | null;
  /** A DM's other person. */
  recipientId: string | null;
  /** A thread's creator. */
  ownerId: string | null;
  archived: boolean;
  locked: boolean;
  lastMessageId: string | null;
}

/** A message as the fake stores it. */
export interface FakeMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  timestamp: string;
  editedTimestamp: string | null;
  /** The message this one replies to. */
  reference: { message_id: string; channel_id: string; guild_id?: string } | null;
  /** Users this message mentions (and, for bot posts, pings). */
  mentions: string[];
  mentionRoles: string[];
  mentionEveryone: boolean;
  flags: number;
  embeds: unknown[];
  components: unknown[];
  /** Set on interaction responses and follow-ups (the application id). */
  webhookId: string | null;
  /** The interaction this message answers. */
  interaction: { id: string; name: string; userId: string } | null;
  /** The thread started from this message. */
  threadId: string | null;
}

/** Snowflakes start at 2026-01-01 (milliseconds since Discord's epoch, shifted by 22 bits). */
const SNOWFLAKE_BASE = (1767225600000n - 1420070400000n) << 22n;

/** The fake's state. Mutated only through the fake (REST, gateway, injection API). */
export class World {
  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  readonly bot: FakeUser;
  #counter = 0n;

  constructor(botName: string) {
    this.bot = this.addUser(botName, { bot: true });
  }

  /** A fresh snowflake. */
  nextId(): string {
    this.#counter += 1n;
    return (SNOWFLAKE_BASE + (this.#counter << 12n)).toString();
  }

  addUser(username: string, extra: { bot?: boolean; globalName?: string } = {}): FakeUser {
    const user: FakeUser = { id: this.nextId(), username, globalName: extra.globalName ?? null, bot: extra.bot ?? false };
    this.users.set(user.id, user);
    return user;
  }

  /** A guild with @everyone, the bot as a member with its managed role, and the owner as a member. */
  addGuild(name: string, ownerId: string): FakeGuild {
    const id = this.nextId();
    const guild: FakeGuild = { id, name, ownerId, roles: new Map(), members: new Map() };
    guild.roles.set(id, {
      id,
      guildId: id,
      name: '@everyone',
      permissions: DEFAULT_EVERYONE_PERMISSIONS,
      position: 0,
      mentionable: false,
      managed: false,
    });
    this.guilds.set(id, guild);
    const botRole = this.addRole(id, this.bot.username, DEFAULT_BOT_PERMISSIONS, { managed: true });
    this.addMember(id, this.bot.id, [botRole.id]);
    if (ownerId !== this.bot.id) this.addMember(id, ownerId, []);
    return guild;
  }

  addRole(guildId: string, name: string, permissions: bigint, extra: { mentionable?: boolean; managed?: boolean } = {}): FakeRole {
    const guild = this.guild(guildId);
    const role: FakeRole = {
      id: this.nextId(),
      guildId,
      name,
      permissions,
      position: guild.roles.size,
      mentionable: extra.mentionable ?? false,
      managed: extra.managed ?? false,
    };
    guild.roles.set(role.id, role);
    return role;
  }

  addMember(guildId: string, userId: string, roles: string[], nick: string | null = null): FakeMember {
    const guild = this.guild(guildId);
    this.user(userId);
    for (const r of roles) if (!guild.roles.has(r)) throw new Error(`fake Discord: role ${r} is not in guild ${guildId}`);
    const member: FakeMember = { userId, roles: [...roles], nick, joinedAt: new Date().toISOString() };
    guild.members.set(userId, member);
    return member;
  }

  addChannel(fields: Partial<FakeChannel> & { type: number }): FakeChannel {
    const channel: FakeChannel = {
      id: this.nextId(),
      name: null,
      guildId: null,
      parentId: null,
      recipientId: null,
      ownerId: null,
      archived: false,
      locked: false,
      lastMessageId: null,
      ...fields,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** The DM channel between the bot and `userId`, created on first use (one per user, as on Discord). */
  dmChannel(userId: string): FakeChannel {
    this.user(userId);
    for (const c of this.channels.values()) if (c.type === ChannelType.DM && c.recipientId === userId) return c;
    return this.addChannel({ type: ChannelType.DM, recipientId: userId });
  }

  guild(id: string): FakeGuild {
    const g = this.guilds.get(id);
    if (!g) throw new Error(`fake Discord: no guild ${id}`);
    return g;
  }

  user(id: string): FakeUser {
    const u = this.users.get(id);
    if (!u) throw new Error(`fake Discord: no user ${id}`);
    return u;
  }

  channel(id: string): FakeChannel {
    const c = this.channels.get(id);
    if (!c) throw new Error(`fake Discord: no channel ${id}`);
    return c;
  }

  /** A member's guild-wide permissions (owner and Administrator get all). */
  memberPermissions(guildId: string, userId: string): bigint {
    const guild = this.guild(guildId);
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const member = guild.members.get(userId);
    let bits = guild.roles.get(guild.id)?.permissions ?? 0n;
    for (const r of member?.roles ?? []) bits |= guild.roles.get(r)?.permissions ?? 0n;
    return bits & Permission.Administrator ? ALL_PERMISSIONS : bits;
  }

  // --- payloads -----------------------------------------------------------

  userPayload(u: FakeUser): Json {
    return {
      id: u.id,
      username: u.username,
      global_name: u.globalName,
      discriminator: '0',
      avatar: null,
      bot: u.bot,
      system: false,
      public_flags: 0,
      flags: 0,
    };
  }

  /** A member object; `withUser` adds the nested user (REST, GUILD_CREATE, interactions). */
  memberPayload(guildId: string, userId: string, withUser: boolean): Json | null {
    const member = this.guild(guildId).members.get(userId);
    if (!member) return null;
    return {
      ...(withUser ? { user: this.userPayload(this.user(userId)) } : {}),
      roles: [...member.roles],
      nick: member.nick,
      avatar: null,
      joined_at: member.joinedAt,
      premium_since: null,
      deaf: false,
      mute: false,
      pending: false,
      flags: 0,
      communication_disabled_until: null,
    };
  }

  rolePayload(r: FakeRole): Json {
    return {
      id: r.id,
      name: r.name,
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      icon: null,
      unicode_emoji: null,
      position: r.position,
      permissions: r.permissions.toString(),
      managed: r.managed,
      mentionable: r.mentionable,
      flags: 0,
      ...(r.managed ? { tags: { bot_id: this.bot.id } } : {}),
    };
  }

  channelPayload(c: FakeChannel): Json {
    if (c.type === ChannelType.DM) {
      const recipient = c.recipientId ? this.users.get(c.recipientId) : undefined;
      return {
        id: c.id,
        type: c.type,
        last_message_id: c.lastMessageId,
        recipients: recipient ? [this.userPayload(recipient)] : [],
        flags: 0,
      };
    }
    const base: Json = {
      id: c.id,
      type: c.type,
      guild_id: c.guildId,
      name: c.name,
      last_message_id: c.lastMessageId,
      flags: 0,
      rate_limit_per_user: 0,
      nsfw: false,
    };
    if (c.type === ChannelType.PublicThread || c.type === ChannelType.PrivateThread) {
      return {
        ...base,
        parent_id: c.parentId,
        owner_id: c.ownerId,
        message_count: 0,
        member_count: 1,
        total_message_sent: 0,
        thread_metadata: {
          archived: c.archived,
          locked: c.locked,
          auto_archive_duration: 1440,
          archive_timestamp: new Date().toISOString(),
          ...(c.type === ChannelType.PrivateThread ? { invitable: true } : {}),
        },
      };
    }
    return { ...base, parent_id: c.parentId, topic: null, position: 0, permission_overwrites: [] };
  }

  /** GUILD_CREATE's `d`: the whole guild with its channels, active threads, roles and members. */
  guildCreatePayload(g: FakeGuild): Json {
    const channels = [...this.channels.values()].filter((c) => c.guildId === g.id);
    const isThread = (c: FakeChannel) => c.type === ChannelType.PublicThread || c.type === ChannelType.PrivateThread;
    return {
      id: g.id,
      name: g.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: g.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 1,
      explicit_content_filter: 0,
      mfa_level: 0,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      features: [],
      roles: [...g.roles.values()].map((r) => this.rolePayload(r)),
      emojis: [],
      stickers: [],
      joined_at: g.members.get(this.bot.id)?.joinedAt ?? new Date().toISOString(),
      large: false,
      unavailable: false,
      member_count: g.members.size,
      voice_states: [],
      members: [...g.members.keys()].map((id) => this.memberPayload(g.id, id, true)),
      channels: channels.filter((c) => !isThread(c)).map((c) => this.channelPayload(c)),
      threads: channels.filter((c) => isThread(c) && !c.archived).map((c) => this.channelPayload(c)),
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  /**
   * A message object. `gateway` adds what MESSAGE_CREATE carries beyond the
   * REST object: `guild_id`, the author's `member`, and `channel_type` for DMs.
   */
  messagePayload(m: FakeMessage, gateway: boolean): Json {
    const channel = this.channels.get(m.channelId);
    const author = this.user(m.authorId);
    const guildId = channel?.guildId ?? null;
    const referenced = m.reference ? this.messages.get(m.reference.message_id) : undefined;
    const payload: Json = {
      id: m.id,
      channel_id: m.channelId,
      author: m.webhookId ? { ...this.userPayload(author) } : this.userPayload(author),
      content: m.content,
      timestamp: m.timestamp,
      edited_timestamp: m.editedTimestamp,
      tts: false,
      mention_everyone: m.mentionEveryone,
      mentions: m.mentions.flatMap((id) => {
        const u = this.users.get(id);
        if (!u) return [];
        const member = guildId ? this.memberPayload(guildId, id, false) : null;
        return [{ ...this.userPayload(u), ...(member ? { member } : {}) }];
      }),
      mention_roles: [...m.mentionRoles],
      attachments: [],
      embeds: m.embeds,
      components: m.components,
      pinned: false,
      type: m.reference ? 19 : m.interaction ? 20 : 0,
      flags: m.flags,
      ...(m.webhookId ? { webhook_id: m.webhookId, application_id: m.webhookId } : {}),
      ...(m.reference ? { message_reference: { type: 0, ...m.reference } } : {}),
      ...(m.reference ? { referenced_message: referenced ? this.messagePayload(referenced, false) : null } : {}),
      ...(m.interaction
        ? {
            interaction_metadata: {
              id: m.interaction.id,
              type: 2,
              name: m.interaction.name,
              user: this.userPayload(this.user(m.interaction.userId)),
              authorizing_integration_owners: { '0': guildId ?? '0' },
            },
          }
        : {}),
    };
    if (m.threadId) {
      const thread = this.channels.get(m.threadId);
      if (thread) payload.thread = this.channelPayload(thread);
    }
    if (gateway) {
      if (guildId) {
        payload.guild_id = guildId;
        const member = this.memberPayload(guildId, m.authorId, false);
        if (member && !m.webhookId) payload.member = member;
      } else if (channel?.type === ChannelType.DM) {
        payload.channel_type = ChannelType.DM;
      }
    }
    return payload;
  }
}

/** The mentions written in a text: `<@id>`/`<@!id>` users, `<@&id>` roles, `@everyone`/`@here`. */
export function writtenMentions(content: string): { users: string[]; roles: string[]; everyone: boolean } {
  const users = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] ?? '');
  const roles = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1] ?? '');
  return { users: [...new Set(users)], roles: [...new Set(roles)], everyone: /@(everyone|here)/.test(content) };
}
