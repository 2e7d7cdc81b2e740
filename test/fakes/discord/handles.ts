/**
 * What a test holds after injecting an interaction ({@link InteractionHandle}),
 * and builders for interaction options.
 */
import type { InteractionCallback, InteractionState, MessageEdit, SentMessage } from './core.ts';
import type { InteractionOption } from './interactions.ts';
import type { Pings } from './messages.ts';
import type { FakeChannel, FakeRole, FakeUser, Json } from './model.ts';

/** What a handle needs from the fake. */
export interface HandleHost {
  readonly posts: readonly SentMessage[];
  waitFor<T>(probe: () => T | undefined, what: string): Promise<T>;
}

/** Builders for interaction options (as Discord sends them in `data.options`). */
export const option = {
  string: (name: string, value: string): InteractionOption => ({ name, type: 3, value }),
  integer: (name: string, value: number): InteractionOption => ({ name, type: 4, value }),
  boolean: (name: string, value: boolean): InteractionOption => ({ name, type: 5, value }),
  user: (name: string, user: FakeUser): InteractionOption => ({ name, type: 6, value: user.id }),
  channel: (name: string, channel: FakeChannel): InteractionOption => ({ name, type: 7, value: channel.id }),
  role: (name: string, role: FakeRole): InteractionOption => ({ name, type: 8, value: role.id }),
  number: (name: string, value: number): InteractionOption => ({ name, type: 10, value }),
  /** The option the user is typing in (autocomplete); `type` 3 string unless given. */
  focused: (name: string, value: string, type = 3): InteractionOption => ({ name, type, value, focused: true }),
  subcommand: (name: string, options: InteractionOption[] = []): InteractionOption => ({ name, type: 1, options }),
};

/** What the user sees as the interaction's response. */
export interface InteractionReply {
  content: string;
  ephemeral: boolean;
  /** Whether it came through a deferred reply (then an `@original` edit, or a follow-up after deleting it). */
  deferred: boolean;
  /** `reply` (callback type 4), `edit` (of the deferred `@original`), or `followup` (the deferred reply was deleted and a follow-up sent instead). */
  via: 'reply' | 'edit' | 'followup';
  pings: Pings;
  /** The body that set it (the callback's `data` or the edit's body). */
  body: Json;
}

/** An interaction the test injected: a slash command, an autocomplete, a button press or a modal submit. */
export class InteractionHandle {
  constructor(
    private readonly fake: HandleHost,
    readonly state: InteractionState,
  ) {}

  get id(): string {
    return this.state.id;
  }

  /** INTERACTION_CREATE's `d`. */
  get payload(): Json {
    return this.state.payload;
  }

  /** Resolves with the interaction's callback (type 4 reply, 5 deferred, 8 autocomplete result, …). */
  callback(): Promise<InteractionCallback> {
    return this.fake.waitFor(() => this.state.callback ?? undefined, `the callback of /${this.state.name}`);
  }

  /**
   * Resolves with the response the user sees: the reply (type 4); for a
   * deferred reply (type 5) the first `@original` edit, or, when the bot
   * deleted the deferred reply instead, its first follow-up.
   */
  async reply(): Promise<InteractionReply> {
    const cb = await this.callback();
    if (cb.type === 4) {
      const sent = this.fake.posts.find((p) => p.interactionId === this.id && p.via === 'interaction');
      return { content: String(cb.data.content ?? ''), ephemeral: cb.ephemeral, deferred: false, via: 'reply', pings: sent?.pings ?? noPings, body: cb.data };
    }
    if (cb.type !== 5) throw new Error(`fake Discord: /${this.state.name} was answered with callback type ${cb.type}, not a reply`);
    const originalId = this.fake.posts.find((p) => p.interactionId === this.id && p.via === 'interaction')?.message.id;
    return this.fake.waitFor((): InteractionReply | undefined => {
      const edit = this.state.edits.find((e) => e.messageId === originalId);
      if (edit) return { content: edit.content, ephemeral: cb.ephemeral, deferred: true, via: 'edit', pings: edit.pings, body: edit.body };
      const followUp = this.state.original === null ? this.state.followUps[0] : undefined;
      if (followUp) {
        return { content: followUp.content, ephemeral: followUp.ephemeral, deferred: true, via: 'followup', pings: followUp.pings, body: followUp.body };
      }
      return undefined;
    }, `the answer to /${this.state.name}'s deferred reply`);
  }

  /** Resolves with follow-up number `index` (0 = the first). */
  followUp(index = 0): Promise<SentMessage> {
    return this.fake.waitFor(() => this.state.followUps[index], `follow-up ${index} of /${this.state.name}`);
  }

  /** Resolves with the choices of an autocomplete answer (callback type 8). */
  async choices(): Promise<{ name: string; value: string | number }[]> {
    const cb = await this.callback();
    if (cb.type !== 8) throw new Error(`fake Discord: autocomplete of /${this.state.name} was answered with type ${cb.type}`);
    return cb.data.choices as { name: string; value: string | number }[];
  }

  /**
   * Resolves with the pressed message as the bot left it: the callback's update (type 7), or the first
   * `@original` edit after a deferred update (type 6).
   */
  async updated(): Promise<MessageEdit> {
    const cb = await this.callback();
    if (cb.type !== 6 && cb.type !== 7) throw new Error(`fake Discord: ${this.state.name} was answered with callback type ${cb.type}, not an update`);
    return this.fake.waitFor(() => this.state.edits[0], `the update of the message ${this.state.name} was pressed on`);
  }

  /** Resolves with the modal the bot answered with (callback type 9). */
  async modal(): Promise<Json> {
    const cb = await this.callback();
    if (cb.type !== 9 || !this.state.modal) throw new Error(`fake Discord: ${this.state.name} was answered with callback type ${cb.type}, not a modal`);
    return this.state.modal.data;
  }

  /** Every edit of this interaction's messages. */
  get edits(): readonly MessageEdit[] {
    return this.state.edits;
  }
}

const noPings: Pings = { users: [], roles: [], everyone: false };
