/**
 * The JSON Discord sends for the fake's world: REST objects and gateway
 * event payloads (users, members, roles, channels, guilds, messages, READY,
 * GUILD_MEMBERS_CHUNK).
 */
import { ChannelType, Intent, isThread, type FakeChannel, type FakeGuild, type FakeMessage, type FakeRole, type FakeUser, type Json, type World } from './model.ts';

export class Payloads {
  constructor(private readonly world: World) {}

  user(u: FakeUser): Json {
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
  member(guildId: string, userId: string, withUser: boolean): Json | null {
    const member = this.world.guild(guildId).members.get(userId);
    if (!member) return null;
    return {
      ...(withUser ? { user: this.user(this.world.user(userId)) } : {}),
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

  role(r: FakeRole): Json {
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
      ...(r.managed ? { tags: { bot_id: this.world.bot.id } } : {}),
    };
  }

  channel(c: FakeChannel): Json {
    if (c.type === ChannelType.DM) {
      const recipient = c.recipientId ? this.world.users.get(c.recipientId) : undefined;
      return {
        id: c.id,
        type: c.type,
        last_message_id: c.lastMessageId,
        recipients: recipient ? [this.user(recipient)] : [],
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
    if (isThread(c.type)) {
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
  guildCreate(g: FakeGuild): Json {
    const channels = [...this.world.channels.values()].filter((c) => c.guildId === g.id);
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
      roles: [...g.roles.values()].map((r) => this.role(r)),
      emojis: [],
      stickers: [],
      joined_at: g.members.get(this.world.bot.id)?.joinedAt ?? new Date().toISOString(),
      large: false,
      unavailable: false,
      member_count: g.members.size,
      voice_states: [],
      members: [...g.members.keys()].map((id) => this.member(g.id, id, true)),
      channels: channels.filter((c) => !isThread(c.type)).map((c) => this.channel(c)),
      threads: channels.filter((c) => isThread(c.type) && !c.archived).map((c) => this.channel(c)),
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
  message(m: FakeMessage, gateway: boolean): Json {
    const channel = this.world.channels.get(m.channelId);
    const author = this.world.user(m.authorId);
    const guildId = channel?.guildId ?? null;
    const referenced = m.reference ? this.world.messages.get(m.reference.message_id) : undefined;
    const payload: Json = {
      id: m.id,
      channel_id: m.channelId,
      author: this.user(author),
      content: m.content,
      timestamp: m.timestamp,
      edited_timestamp: m.editedTimestamp,
      tts: false,
      mention_everyone: m.mentionEveryone,
      mentions: m.mentions.flatMap((id) => {
        const u = this.world.users.get(id);
        if (!u) return [];
        const member = guildId ? this.member(guildId, id, false) : null;
        return [{ ...this.user(u), ...(member ? { member } : {}) }];
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
      ...(m.reference ? { referenced_message: referenced ? this.message(referenced, false) : null } : {}),
      ...(m.interaction
        ? {
            interaction_metadata: {
              id: m.interaction.id,
              type: 2,
              name: m.interaction.name,
              user: this.user(this.world.user(m.interaction.userId)),
              authorizing_integration_owners: { '0': guildId ?? '0' },
            },
          }
        : {}),
    };
    if (m.threadId) {
      const thread = this.world.channels.get(m.threadId);
      if (thread) payload.thread = this.channel(thread);
    }
    if (gateway) {
      if (guildId) {
        payload.guild_id = guildId;
        const member = this.member(guildId, m.authorId, false);
        if (member && !m.webhookId) payload.member = member;
      } else if (channel?.type === ChannelType.DM) {
        payload.channel_type = ChannelType.DM;
      }
    }
    return payload;
  }

  /** READY's `d` (guilds unavailable until their GUILD_CREATE). */
  ready(sessionId: string, gatewayUrl: string): Json {
    return {
      v: 10,
      user: { ...this.user(this.world.bot), verified: true, mfa_enabled: false, email: null },
      guilds: [...this.world.guilds.keys()].map((id) => ({ id, unavailable: true })),
      session_id: sessionId,
      resume_gateway_url: gatewayUrl,
      shard: [0, 1],
      application: { id: this.world.bot.id, flags: 0 },
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      user_settings: {},
      geo_ordered_rtc_regions: [],
    };
  }

  /** GUILD_MEMBERS_CHUNK for op 8: by `user_ids`, or by name prefix `query` (the whole list needs GuildMembers). */
  membersChunks(request: Json, intents: number): Json[] {
    const guildIds = Array.isArray(request.guild_id) ? request.guild_id.map(String) : [String(request.guild_id)];
    return guildIds.flatMap((guildId) => {
      const guild = this.world.guilds.get(guildId);
      if (!guild) return [];
      const ids = request.user_ids === undefined ? null : (Array.isArray(request.user_ids) ? request.user_ids : [request.user_ids]).map(String);
      const query = typeof request.query === 'string' ? request.query.toLowerCase() : '';
      const limit = typeof request.limit === 'number' && request.limit > 0 ? request.limit : Infinity;
      let members = [...guild.members.keys()];
      if (ids) members = members.filter((id) => ids.includes(id));
      else if (query !== '') members = members.filter((id) => this.world.user(id).username.toLowerCase().startsWith(query));
      else if (!(intents & Intent.GuildMembers)) members = [];
      members = members.slice(0, limit);
      return [
        {
          guild_id: guildId,
          members: members.map((id) => this.member(guildId, id, true)),
          chunk_index: 0,
          chunk_count: 1,
          not_found: ids ? ids.filter((id) => !guild.members.has(id)) : [],
          ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
        },
      ];
    });
  }
}
