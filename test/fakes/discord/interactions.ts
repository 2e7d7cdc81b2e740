/**
 * Interactions: INTERACTION_CREATE payloads for slash commands and
 * autocomplete (with the member's roles and permissions and resolved
 * roles/users/channels; a command hidden by `default_member_permissions`
 * cannot be run by a member without them), the callback
 * (`POST /interactions/{id}/{token}/callback`, answered once, with the types
 * each kind of interaction allows: 6 and 7 update the pressed message, 9 shows
 * a modal), and the interaction webhook (`@original` edits and follow-ups).
 * Button presses and modal submits are made in `presses.ts`.
 */
import { checkModal } from './components.ts';
import type { FakeCore, InteractionState } from './core.ts';
import { ApiError, formError, unknown } from './messages.ts';
import { ChannelType, EPHEMERAL, Permission, type FakeChannel, type FakeMessage, type FakeUser, type Json } from './model.ts';

/** An option as Discord sends it in `data.options` (types: 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 10 number). */
export interface InteractionOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: InteractionOption[];
}

export interface InteractionInput {
  userId: string;
  channelId: string;
  /** The command's name; it must be registered (in the channel's guild or globally). */
  name: string;
  options?: InteractionOption[];
}

function resolvedFor(core: FakeCore, guildId: string | null, options: InteractionOption[]): Json | null {
  const roles: Json = {};
  const users: Json = {};
  const members: Json = {};
  const channels: Json = {};
  const { world, payloads } = core;
  const walk = (list: InteractionOption[]) => {
    for (const o of list) {
      if (o.options) walk(o.options);
      const id = String(o.value ?? '');
      if ((o.type === 8 || o.type === 9) && guildId) {
        const role = world.guild(guildId).roles.get(id);
        if (role) roles[id] = payloads.role(role);
      }
      if (o.type === 6 || o.type === 9) {
        const user = world.users.get(id);
        if (user) {
          users[id] = payloads.user(user);
          const member = guildId ? payloads.member(guildId, id, false) : null;
          if (member && guildId) members[id] = { ...member, permissions: world.memberPermissions(guildId, id).toString() };
        }
      }
      if (o.type === 7) {
        const channel = world.channels.get(id);
        if (channel) channels[id] = { ...payloads.channel(channel), permissions: '0' };
      }
    }
  };
  walk(options);
  const out: Json = {};
  if (Object.keys(roles).length) out.roles = roles;
  if (Object.keys(users).length) out.users = users;
  if (Object.keys(members).length) out.members = members;
  if (Object.keys(channels).length) out.channels = channels;
  return Object.keys(out).length ? out : null;
}

/**
 * Checks injected options against the registered command, as Discord's
 * client enforces them (names, types, choices, required options; for
 * autocomplete, the focused option must have `autocomplete`). A test that
 * sends what no user could send fails here, with the reason.
 */
function checkAgainstCommand(command: string, registered: Json[] | undefined, given: InteractionOption[], autocomplete: boolean): void {
  const known = registered ?? [];
  for (const o of given) {
    const spec = known.find((k) => k.name === o.name);
    if (!spec) throw new Error(`fake Discord: /${command} has no option "${o.name}" (it has: ${known.map((k) => String(k.name)).join(', ') || 'none'})`);
    if (spec.type !== o.type) throw new Error(`fake Discord: option "${o.name}" of /${command} has type ${String(spec.type)}, not ${o.type}`);
    if (o.type === 1 || o.type === 2) {
      checkAgainstCommand(`${command} ${o.name}`, spec.options as Json[] | undefined, o.options ?? [], autocomplete);
      continue;
    }
    if (o.focused) {
      if (!autocomplete) throw new Error(`fake Discord: only an autocomplete interaction has a focused option ("${o.name}" of /${command})`);
      if (spec.autocomplete !== true) throw new Error(`fake Discord: option "${o.name}" of /${command} has no autocomplete`);
      continue;
    }
    const choices = spec.choices as { value: unknown }[] | undefined;
    if (choices?.length && !choices.some((c) => c.value === o.value)) {
      throw new Error(`fake Discord: ${JSON.stringify(o.value)} is not a choice of option "${o.name}" of /${command}`);
    }
  }
  if (autocomplete) return;
  for (const spec of known) {
    if (spec.required === true && !given.some((o) => o.name === spec.name)) {
      throw new Error(`fake Discord: /${command} needs its required option "${String(spec.name)}"`);
    }
  }
}

/** The fields every INTERACTION_CREATE carries for a user in a channel: ids, the channel, the member (with permissions) or the user. */
export function interactionBase(core: FakeCore, type: number, channel: FakeChannel, user: FakeUser): { id: string; token: string; payload: Json } {
  const { world, payloads } = core;
  const guildId = channel.guildId;
  const id = world.nextId();
  const token = `fake-interaction-token-${id}`;
  const channelPayload =
    channel.type === ChannelType.DM ? { ...payloads.channel(channel), recipients: [payloads.user(user)] } : payloads.channel(channel);
  const payload: Json = {
    id,
    application_id: core.applicationId,
    type,
    channel_id: channel.id,
    channel: channelPayload,
    token,
    version: 1,
    locale: 'en-US',
    entitlements: [],
    attachment_size_limit: 10485760,
    app_permissions: (guildId ? world.memberPermissions(guildId, world.bot.id) : 0n).toString(),
    authorizing_integration_owners: guildId ? { '0': guildId } : { '1': user.id },
    context: guildId ? 0 : 1,
  };
  if (guildId) {
    const member = payloads.member(guildId, user.id, true);
    if (!member) throw new Error(`fake Discord: user ${user.id} is not a member of guild ${guildId}`);
    payload.guild_id = guildId;
    payload.guild_locale = 'en-US';
    payload.guild = { id: guildId, locale: 'en-US', features: [] };
    payload.member = { ...member, permissions: world.memberPermissions(guildId, user.id).toString() };
  } else {
    payload.user = payloads.user(user);
  }
  return { id, token, payload };
}

/** Records an interaction and dispatches its INTERACTION_CREATE. */
export function dispatchInteraction(core: FakeCore, state: InteractionState): InteractionState {
  core.interactions.set(state.id, state);
  core.dispatch('INTERACTION_CREATE', state.payload);
  core.changed();
  return state;
}

/** Creates an interaction and dispatches INTERACTION_CREATE (type 2 command, 4 autocomplete). */
export function createInteraction(core: FakeCore, type: 2 | 4, input: InteractionInput): InteractionState {
  const { world } = core;
  const channel = world.channel(input.channelId);
  const user = world.user(input.userId);
  const guildId = channel.guildId;
  const command = core.commands.find(input.name, guildId);
  if (!command) throw new Error(`fake Discord: no command /${input.name} is registered globally or in this channel's guild`);
  // Discord's client shows a command with default_member_permissions in a server only to members who have them (in a DM, to everyone).
  const needed = command.default_member_permissions;
  if (guildId && typeof needed === 'string') {
    const has = world.memberPermissions(guildId, user.id);
    if ((has & Permission.Administrator) === 0n && (has & BigInt(needed)) !== BigInt(needed)) {
      throw new Error(`fake Discord: /${input.name} is hidden from ${user.username} here (default_member_permissions ${needed})`);
    }
  }
  const options = input.options ?? [];
  if (type === 4 && !JSON.stringify(options).includes('"focused":true')) {
    throw new Error('fake Discord: an autocomplete interaction needs one option with focused: true');
  }
  checkAgainstCommand(command.name, command.options, options, type === 4);
  const { id, token, payload } = interactionBase(core, type, channel, user);
  const resolved = resolvedFor(core, guildId, options);
  payload.data = {
    id: command.id,
    name: command.name,
    type: 1,
    ...(options.length ? { options } : {}),
    ...(resolved ? { resolved } : {}),
    ...(guildId && command.guild_id ? { guild_id: guildId } : {}),
  };
  return dispatchInteraction(core, {
    id,
    token,
    type,
    name: command.name,
    userId: user.id,
    channelId: channel.id,
    guildId,
    payload,
    createdAt: performance.now(),
    callback: null,
    original: null,
    message: null,
    modal: null,
    edits: [],
    followUps: [],
  });
}

/** The callback types each kind of interaction allows (a modal submit updates a message only when it came from a button on it). */
function allowedCallbacks(state: InteractionState): number[] {
  switch (state.type) {
    case 4:
      return [8];
    case 3:
      return [4, 5, 6, 7, 9];
    case 5:
      return state.message ? [4, 5, 6, 7] : [4, 5];
    default:
      return [4, 5, 9];
  }
}

/** POST /interactions/{id}/{token}/callback. Returns the `with_response` body. */
export function interactionCallback(core: FakeCore, id: string, token: string, raw: unknown): Json {
  const state = core.interactions.get(id);
  if (!state || state.token !== token) throw unknown.interaction();
  if (state.callback) throw new ApiError(400, { code: 40060, message: 'Interaction has already been acknowledged.' });
  const afterMs = performance.now() - state.createdAt;
  if (core.interactionDeadlineMs !== null && afterMs > core.interactionDeadlineMs) throw unknown.interaction();
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as { type?: unknown; data?: unknown };
  const type = Number(body.type);
  const data = (typeof body.data === 'object' && body.data !== null ? body.data : {}) as Json;
  if (!allowedCallbacks(state).includes(type)) throw formError('type', 'INTERACTION_CALLBACK_TYPE_INVALID', `Callback type ${String(body.type)} is not valid here.`);
  const ephemeral = ((Number(data.flags ?? 0) & EPHEMERAL) !== 0);
  if (type === 8) {
    const choices = data.choices;
    if (!Array.isArray(choices) || choices.length > 25) throw formError('data.choices', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    for (const c of choices as Json[]) {
      if (typeof c.name !== 'string' || c.name.length < 1 || c.name.length > 100) {
        throw formError('data.choices', 'BASE_TYPE_BAD_LENGTH', 'Choice names must be between 1 and 100 in length.');
      }
    }
  }
  const modal = type === 9 ? { data, fields: checkModal(data) } : null;
  let message: FakeMessage | null = null;
  if (type === 4) {
    message = core.post(state.channelId, data, 'interaction', state).message;
  } else if (type === 5) {
    message = core.post(state.channelId, data, 'interaction', state, true).message;
  } else if (type === 7 && state.message) {
    // The pressed message, as it is now.
    message = core.edit(state.message.channelId, state.message.id, data, 'update', state);
  } else if (type === 6) {
    message = state.message;
  }
  state.original = message;
  state.modal = modal;
  state.callback = { type, data, ephemeral, afterMs };
  core.changed();
  return {
    interaction: {
      id: state.id,
      type: state.type,
      activity_instance_id: null,
      response_message_id: type === 4 || type === 5 ? (message?.id ?? null) : null,
      response_message_loading: type === 5,
      response_message_ephemeral: ephemeral,
    },
    resource: { type, ...(message ? { message: core.payloads.message(message, false) } : {}) },
  };
}

/** The interaction behind a webhook URL (404 Unknown Webhook until the interaction is acknowledged). */
export function webhookInteraction(core: FakeCore, applicationId: string, token: string): InteractionState {
  if (applicationId !== core.applicationId) throw unknown.webhook();
  for (const state of core.interactions.values()) {
    if (state.token === token) {
      if (!state.callback) throw unknown.webhook();
      return state;
    }
  }
  throw unknown.webhook();
}

/** The message a webhook route names (`@original` or an id of a follow-up). */
export function webhookMessage(state: InteractionState, messageId: string): FakeMessage {
  if (messageId === '@original') {
    if (!state.original) throw unknown.message();
    return state.original;
  }
  const followUp = state.followUps.find((f) => f.message.id === messageId);
  if (!followUp) throw unknown.message();
  return followUp.message;
}
