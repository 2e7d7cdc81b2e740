/**
 * Button presses and modal submits, as a Discord client sends them: INTERACTION_CREATE of type 3
 * (`data.custom_id`, `component_type` 2, and the message the button is on) for a button the message
 * really shows, to someone who can see it; type 5 (the modal's `custom_id` and its fields' values) only
 * after the bot answered a press or a command with that modal, by the same person, with the values the
 * modal allows.
 */
import { buttonIds, Component } from './components.ts';
import type { FakeCore, InteractionState } from './core.ts';
import { dispatchInteraction, interactionBase } from './interactions.ts';
import { EPHEMERAL, type Json } from './model.ts';

/** A press of the button `customId` on message `messageId` by `userId`. */
export function createPress(core: FakeCore, input: { userId: string; messageId: string; customId: string }): InteractionState {
  const { world, payloads } = core;
  const message = world.messages.get(input.messageId);
  if (!message) throw new Error(`fake Discord: no message ${input.messageId} to press a button on`);
  if (message.authorId !== world.bot.id) throw new Error('fake Discord: only a message of the bot has its buttons');
  const ids = buttonIds(message.components);
  if (!ids.includes(input.customId)) throw new Error(`fake Discord: message ${message.id} shows no button "${input.customId}" (it shows: ${ids.join(', ') || 'none'})`);
  // An ephemeral message is seen, and pressed, by the person it answered alone.
  if (message.flags & EPHEMERAL && message.interaction?.userId !== input.userId) throw new Error('fake Discord: only its recipient sees an ephemeral message');
  const channel = world.channel(message.channelId);
  const user = world.user(input.userId);
  const { id, token, payload } = interactionBase(core, 3, channel, user);
  payload.data = { custom_id: input.customId, component_type: Component.Button };
  payload.message = payloads.message(message, false);
  return dispatchInteraction(core, {
    id,
    token,
    type: 3,
    name: input.customId,
    userId: user.id,
    channelId: channel.id,
    guildId: channel.guildId,
    payload,
    createdAt: performance.now(),
    callback: null,
    original: null,
    message,
    modal: null,
    edits: [],
    followUps: [],
  });
}

/** The person who saw the modal `from` (answered with callback 9) submits it with `values` by field custom id. */
export function createModalSubmit(core: FakeCore, input: { userId: string; from: InteractionState; values: Record<string, string> }): InteractionState {
  const { world, payloads } = core;
  const modal = input.from.modal;
  if (!modal || input.from.callback?.type !== 9) throw new Error(`fake Discord: ${input.from.name} was not answered with a modal`);
  if (input.from.userId !== input.userId) throw new Error('fake Discord: a modal is shown to, and submitted by, the person who opened it');
  for (const key of Object.keys(input.values)) {
    if (!modal.fields.some((f) => f.customId === key)) throw new Error(`fake Discord: the modal has no field "${key}"`);
  }
  const components: Json[] = modal.fields.map((f) => {
    const value = input.values[f.customId] ?? '';
    if (f.required && value === '') throw new Error(`fake Discord: the field "${f.customId}" must be filled before the modal can be sent`);
    if (value !== '' && (value.length < f.minLength || value.length > f.maxLength)) {
      throw new Error(`fake Discord: the field "${f.customId}" takes ${f.minLength}–${f.maxLength} characters`);
    }
    return { type: Component.Label, id: 0, component: { type: Component.TextInput, id: 0, custom_id: f.customId, value } };
  });
  const channel = world.channel(input.from.channelId);
  const user = world.user(input.userId);
  const { id, token, payload } = interactionBase(core, 5, channel, user);
  payload.data = { custom_id: String(modal.data.custom_id), components };
  const message = input.from.message;
  if (message) payload.message = payloads.message(message, false);
  return dispatchInteraction(core, {
    id,
    token,
    type: 5,
    name: String(modal.data.custom_id),
    userId: user.id,
    channelId: channel.id,
    guildId: channel.guildId,
    payload,
    createdAt: performance.now(),
    callback: null,
    original: null,
    message,
    modal: null,
    edits: [],
    followUps: [],
  });
}
