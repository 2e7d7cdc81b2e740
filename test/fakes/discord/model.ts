/**
 * The fake Discord's world: users, guilds (roles, members), channels
 * (guild text channels, threads, DMs) and messages, plus the JSON payloads
 * Discord would send for them (REST responses and gateway events).
 *
 * Ids are snowflakes of the fake's clock (increasing, one apart when the
 * clock has not moved), so discord.js reads a creation time from them as it
 * does on Discord; a test may set the clock to write "in the past".
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
export const ChannelType = { GuildText: 0, DM: 1, GuildAnnouncement: 5, AnnouncementThread: 10, PublicThread: 11, PrivateThread: 12 } as const;

/** Whether a channel type is a thread (announcement, public or private). */
export function isThread(type: number): boolean {
  return type === ChannelType.AnnouncementThread || type === ChannelType.PublicThread || type === ChannelType.PrivateThread;
}

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
  /** When the fake created it (`performance.now()`, for benchmarks). */
  at: number;
}

/** Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake's time is milliseconds since it, shifted by 22 bits. */
const DISCORD_EPOCH = 1420070400000n;

/** The fake's state. Mutated only through the fake (REST, gateway, injection API). */
export class World {
  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  readonly bot: FakeUser;
  #last = 0n;
  /** The fake's clock (Unix ms) for new ids; Date.now unless a test sets another. */
  clock: () => number = () => Date.now();

  constructor(botName: string) {
    this.bot = this.addUser(botName, { bot: true });
  }

  /** A fresh snowflake. */
  nextId(): string {
    const fromClock = (BigInt(Math.floor(this.clock())) - DISCORD_EPOCH) << 22n;
    this.#last = fromClock > this.#last ? fromClock : this.#last + 1n;
    return this.#last.toString();
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
}

/** The mentions written in a text: `<@id>`/`<@!id>` users, `<@&id>` roles, `@everyone`/`@here`. */
export function writtenMentions(content: string): { users: string[]; roles: string[]; everyone: boolean } {
  const users = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] ?? '');
  const roles = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1] ?? '');
  return { users: [...new Set(users)], roles: [...new Set(roles)], everyone: /@(everyone|here)/.test(content) };
}
