/**
 * The command host: everything a command may read and do, and nothing more
 * (commands live in `commands/` and never see the store or the core's
 * parts). Rights are checked here, through {@link People}: an avatar handle
 * comes only from {@link CommandHost.watch} or {@link CommandHost.control},
 * and admin-only acts check the sender themselves.
 */
import type { AvatarManager, AvatarUsage } from './avatars/manager.ts';
import { llmSetupProblem, type Config } from './config.ts';
import type { EngineKind } from './engines/engine.ts';
import type { Prices } from './engines/llm/usage.ts';
import { UserError } from './errors.ts';
import type { ChatContext, CommandInvocation } from './chat.ts';
import type { Snapshot } from './game/game.ts';
import type { DisplayState } from './loop/goal-loop.ts';
import type { Links } from './people/links.ts';
import type { Pairing } from './people/pairing.ts';
import type { People } from './people/people.ts';
import type { ScheduleDesk } from './schedule/desk.ts';
import type { Sharing, ShareMade, ShareRequest, UnshareRequest } from './sharing.ts';
import type { Avatar, Destination, Identity, Share } from './store/schema.ts';
import type { ThoughtStream } from './thought-stream.ts';

/** A command's reply: the text, and the avatar it is about (console prefix `[name] `), or null (`[mindlink] `). */
export interface CommandReply {
  avatar: string | null;
  text: string;
  /** Set by the dispatcher for a command that announces: the whole chat should see the reply (Discord). */
  announce?: boolean;
}

/** An avatar the sender may see from this chat. */
export interface WatchedAvatar {
  readonly name: string;
  /** The stored record (read only): goal, parked goals, directions, owner, engine, server. */
  readonly record: Readonly<Avatar>;
  /** The loop state to show. */
  state(): DisplayState;
  /** Whether it plays (`state() !== 'stopped'`). */
  isPlaying(): boolean;
  /** What it sees and carries now; undefined while stopped or out of the game. */
  snapshot(): Snapshot | undefined;
  /** The model tokens it used: in all, on its current goal, on its ended goals. */
  usage(): AvatarUsage;
  /** While it is `waiting` to reconnect: why it left the game, in a short plain phrase. */
  downReason(): string | undefined;
}

/** An avatar the sender may control from this chat. */
export interface ControlledAvatar extends WatchedAvatar {
  /** Join the game and run the loop. False when it was playing already. */
  play(): Promise<boolean>;
  /** End the loop and leave the game; the goal is kept. False when it was stopped already. */
  stop(): Promise<boolean>;
  /** Replace the goal with an owner goal set by the sender. */
  setGoal(text: string): void;
  /** Link it to this chat in `mode` (replacing an existing link's mode). */
  link(mode: 'control' | 'watch'): void;
  /** Unlink it from this chat. False when it was not linked here. */
  unlink(): boolean;
  /**
   * Its owner or an admin switches its engine (stored; a playing avatar carries on with the new one).
   * Throws UserError for anyone else (a pilot steers the avatar, it does not choose what it costs),
   * or when the engine cannot be built (the llm engine not configured).
   */
  setEngine(kind: EngineKind): Promise<void>;
}

/** The llm engine as configured, for /engine, /usage and /status. */
export interface LlmInfo {
  /** `LLM_MODEL`, when set. */
  model: string | undefined;
  /** `LLM_PRICE_IN` / `LLM_PRICE_OUT`. */
  prices: Prices;
  /** Whether /engine and /usage are worth offering: the engine is configured, or an avatar uses it. */
  offered: boolean;
}

/**
 * What a command may read and do.
 *
 * @example
 * const a = host.control(chat, avatar); // throws UserError unless the sender may control it
 * if (!(await a.play())) return { avatar: a.name, text: 'Already playing.' };
 */
export interface CommandHost {
  /** The avatar the sender means (named, or the only one here) and may see. Throws UserError otherwise. */
  watch(chat: ChatContext, name?: string | null): WatchedAvatar;
  /** The avatar the sender means and may control. Throws UserError otherwise. */
  control(chat: ChatContext, name?: string | null): ControlledAvatar;
  /** Every avatar the sender may see from this chat. */
  visible(chat: ChatContext): WatchedAvatar[];
  /** Whether the sender is an admin. */
  isAdmin(chat: ChatContext): boolean;
  /** Whether the sender may control at least one avatar from here. */
  controlsAny(chat: ChatContext): boolean;
  /** Whether mindlink knows the sender: an admin, a known person, or someone who may see an avatar from here. */
  knows(chat: ChatContext): boolean;
  /** Throw the stranger refusal unless mindlink knows the sender. */
  requireKnown(chat: ChatContext): void;
  /** Display name of a person id (`someone` for null). */
  personName(id: string | null): string;
  /** The identities of a person, shown to admins only (empty for anyone else). */
  identitiesFor(chat: ChatContext, personId: string): readonly string[];
  /** Admins: create an avatar owned by the sender, stopped, linked to this chat. */
  createAvatar(chat: ChatContext, name: string, opts: { server?: string; engine?: Avatar['engine'] }): Promise<Readonly<Avatar>>;
  /** Admins: give an avatar to the person behind `identity` (created if new). Returns the new owner's name. */
  setOwner(chat: ChatContext, avatar: WatchedAvatar, identity: string): string;
  /** Try a pairing code; the reply text. */
  pair(chat: ChatContext, code: string): string;
  /** Scheduled goals, time zones and digests (owner and admin rights checked there). */
  readonly schedules: ScheduleDesk;
  /** The llm engine's model, prices, and whether its commands are offered. */
  llm(): LlmInfo;
  /**
   * Stream the avatar's turns, one line each, into a new thread under this linked chat (Discord).
   * The thread, and whether it was opened now (false: one was open already). Throws UserError where it cannot.
   */
  openThoughts(chat: ChatContext, avatar: ControlledAvatar): Promise<{ thread: Destination; opened: boolean }>;
  /** End the avatar's thought stream opened from (or running in) this chat; whether one was open. */
  closeThoughts(chat: ChatContext, avatar: ControlledAvatar): boolean;
  /** Share a server's avatars or one avatar with a role of the chat's Discord guild (rights checked). */
  share(chat: ChatContext, request: ShareRequest): ShareMade;
  /** End the chat's guild shares that match and the sender may end; the shares ended. */
  unshare(chat: ChatContext, request: UnshareRequest): Share[];
}

/** What the router needs from `commands/`: run one invocation against the host. */
export interface CommandDispatcher {
  /** Run the command; its reply. Throws UserError for an unknown command, bad arguments or a refusal. */
  run(inv: CommandInvocation, host: CommandHost): Promise<CommandReply>;
}

/** The identity at the other end of a direct-message chat, for its link (a scheduled goal's Done pings its creator there). */
function dmWith(chat: ChatContext): Identity | undefined {
  return chat.chatKind === 'private' ? (chat.from as Identity) : undefined;
}

/** The parts the host is made of. */
export interface CommandHostParts {
  avatars: AvatarManager;
  people: People;
  links: Links;
  pairing: Pairing;
  schedules: ScheduleDesk;
  config: Config;
  sharing: Sharing;
  thoughts: ThoughtStream;
  /** Open a thread under a chat on its platform's bridge. */
  openThread(dest: Destination, name: string): Promise<Destination>;
}

/**
 * The production command host over the core's parts.
 *
 * @example
 * const host = createCommandHost({ avatars, people, links, pairing, schedules, config, sharing, thoughts, openThread });
 */
export function createCommandHost({ avatars, people, links, pairing, schedules, config, sharing, thoughts, openThread }: CommandHostParts): CommandHost {
  const watched = (record: Avatar): WatchedAvatar => ({
    name: record.name,
    record,
    state: () => avatars.displayState(record.name),
    isPlaying: () => avatars.isPlaying(record.name),
    snapshot: () => avatars.snapshot(record.name),
    usage: () => avatars.usage(record.name),
    downReason: () => avatars.downReason(record.name),
  });
  const controlled = (chat: ChatContext, record: Avatar): ControlledAvatar => ({
    ...watched(record),
    play: () => avatars.play(record.name),
    stop: () => avatars.stop(record.name),
    setGoal: (text) => avatars.setGoal(record.name, text, people.ensurePerson(chat.from, chat.fromName).id, chat.dest),
    link: (mode) => links.link(record.name, chat.dest, mode, chat.guild, dmWith(chat)),
    unlink: () => links.unlink(record.name, chat.dest),
    async setEngine(kind) {
      const role = people.roleFor(chat, record);
      if (role !== 'owner' && role !== 'admin') throw new UserError('not_allowed', `Only ${record.name}'s owner or an admin can change its engine.`, record.name);
      await avatars.switchEngine(record.name, kind);
    },
  });
  return {
    watch: (chat, name) => watched(people.resolveAvatar(chat, name)),
    control: (chat, name) => controlled(chat, people.controlledAvatar(chat, name)),
    visible: (chat) => people.visible(chat).map(watched),
    isAdmin: (chat) => people.isAdmin(chat),
    controlsAny: (chat) => people.controlsAny(chat),
    knows: (chat) => people.knows(chat),
    requireKnown: (chat) => people.requireKnown(chat),
    personName: (id) => people.personName(id),
    identitiesFor: (chat, personId) => (people.isAdmin(chat) ? (people.byId(personId)?.identities ?? []) : []),
    async createAvatar(chat, name, opts) {
      people.requireAdmin(chat, 'Only an admin can create avatars.');
      const owner = people.ensurePerson(chat.from, chat.fromName);
      const created = await avatars.create(name, owner.id, opts);
      links.link(created.name, chat.dest, 'control', undefined, dmWith(chat));
      return created;
    },
    setOwner(chat, avatar, identity) {
      people.requireAdmin(chat, 'Only an admin can change who owns an avatar.');
      const person = people.ensurePerson(identity, identity);
      avatars.setOwner(avatar.name, person.id);
      return person.name;
    },
    pair: (chat, code) => pairing.pair(chat, code),
    schedules,
    llm: () => ({
      model: config.LLM_MODEL,
      prices: { inPerMillion: config.LLM_PRICE_IN, outPerMillion: config.LLM_PRICE_OUT },
      offered: llmSetupProblem(config) === null || avatars.all().some((a) => a.engine === 'llm'),
    }),
    async openThoughts(chat, avatar) {
      if (!links.isLinkedTo(avatar.name, chat.dest)) {
        throw new UserError('not_linked', `Link ${avatar.name} to this channel first: /link ${avatar.name}`, avatar.name);
      }
      const open = thoughts.threadOf(avatar.name, chat.dest);
      if (open) return { thread: open, opened: false };
      const thread = await openThread(chat.dest, `${avatar.name} thinking`);
      thoughts.open(avatar.name, thread, chat.dest);
      return { thread, opened: true };
    },
    closeThoughts: (chat, avatar) => thoughts.close(avatar.name, chat.dest).length > 0,
    share: (chat, request) => sharing.share(chat, request),
    unshare: (chat, request) => sharing.unshare(chat, request),
  };
}
