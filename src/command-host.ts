/**
 * The command host: everything a command may read and do, and nothing more
 * (commands live in `commands/` and never see the store or the core's
 * parts). Rights are checked by the host (`src/host.ts`, over the core's
 * parts): an avatar handle comes only from {@link CommandHost.watch} or
 * {@link CommandHost.control}, and admin-only acts check the sender
 * themselves. This file is the contract.
 */
import type { AvatarUsage } from './avatars/manager.ts';
import { childEnvironment, llmSetupProblem, type Config } from './config.ts';
import { AGENT_KINDS, type AgentKind } from './engines/agents/agent-cli.ts';
import { agentMissing } from './engines/agents/agents.ts';
import type { EngineKind, PlayedBy } from './engines/engine.ts';
import type { HybridModelKind } from './engines/kinds.ts';
import type { Prices } from './engines/llm/usage.ts';
import type { ChatContext, CommandInvocation } from './chat.ts';
import type { Snapshot } from './game/game.ts';
import type { LoopPostKind } from './loop/decide.ts';
import type { DisplayState } from './loop/goal-loop.ts';
import type { Sight } from './rights.ts';
import type { ScheduleDesk } from './schedule/desk.ts';
import type { ServerDesk } from './servers/desk.ts';
import type { ShareMade, ShareRequest, UnshareRequest } from './sharing.ts';
import type { DeepReadonly } from './store/readonly.ts';
import type { Avatar, Card, Destination, ParkedGoal, Share } from './store/schema.ts';
import type { KeptSkillCode } from './learned/library.ts';
import type { KeptSkill } from './learned/manifest.ts';
import type { McpDesk } from './people/mcp-tokens.ts';

export type { KeptSkill, KeptSkillCode, PlayedBy };
export type { McpDesk, McpTokenMade, McpTokenView } from './people/mcp-tokens.ts';

/** A command's reply: the text, and the avatar it is about (console prefix `[name] `), or null (`[mindlink] `). */
export interface CommandReply {
  avatar: string | null;
  text: string;
  /** Set by the dispatcher for a command that announces: the whole chat should see the reply (Discord). */
  announce?: boolean;
  /**
   * The reply tells a change to the avatar itself (a goal set, played, stopped): it is also one of the avatar's
   * latest lines on the dashboard, of this kind.
   */
  news?: LoopPostKind;
  /**
   * For the sender's eyes only (a sign-in link): from a group it goes to the sender's private chat
   * where mindlink can reach one, and is never posted to the group.
   */
  private?: boolean;
  /** The reply as a card (`/status`), for platforms that show one; `text` stays its plain form (the console). */
  card?: Card;
}

/** An avatar the sender may see from this chat. */
export interface WatchedAvatar {
  readonly name: string;
  /** The stored record as it is now (read only): goal, parked goals, directions, owner, engine, server. */
  readonly record: DeepReadonly<Avatar>;
  /** The loop state to show. */
  state(): DisplayState;
  /** Whether it plays (`state() !== 'stopped'`). */
  isPlaying(): boolean;
  /** What it sees and carries now; undefined while stopped or out of the game. */
  snapshot(): Snapshot | undefined;
  /** The model tokens it used (and a hybrid avatar's turns by who played them): in all, on its current goal, on its ended goals. */
  usage(): AvatarUsage;
  /** Who played its last turn since mindlink started, when its engine says (a hybrid avatar: the scripted engine or a model). */
  lastPlayedBy(): PlayedBy | undefined;
  /** While it is `waiting` to reconnect: why it left the game, in a short plain phrase. */
  downReason(): string | undefined;
  /** While it is `waiting` for something else (a Microsoft sign-in): what, in a short plain phrase. */
  waitReason(): string | undefined;
  /** While it is stopped because its server refused it for good (a whitelist, a ban …): why. */
  stopReason(): string | undefined;
  /** Ask it a question, answered in its own short turn while it plays; the answer. */
  ask(question: string): Promise<string>;
  /** The skills it wrote and kept, by name (docs/skills.md). */
  learnedSkills(): Promise<KeptSkill[]>;
  /** One skill it kept, with its code. Throws UserError when it keeps none of that name. */
  learnedSkill(name: string): Promise<KeptSkillCode>;
  /** What the sender may see of it from this chat: full direction text, the owner's identities (`rights.ts`). */
  readonly sight: Sight;
  /** The places it remembers on the server it is on now, in the order they were first remembered, each with its distance now. */
  places(): PlaceView[];
}

/** A place an avatar remembers, as a command shows it. */
export interface PlaceView {
  name: string;
  x: number;
  y: number;
  z: number;
  /** `overworld`, `the_nether`, `the_end`. */
  dimension: string;
  /** Blocks from the avatar now, rounded; null while it is out of the game or in another dimension. */
  distance: number | null;
  /** Who set it: a person's name, or null when the avatar remembered it itself. */
  by: string | null;
}

/** An avatar the sender may control from this chat. */
export interface ControlledAvatar extends WatchedAvatar {
  /** Join the game and run the loop. False when it was playing already. */
  play(): Promise<boolean>;
  /** End the loop and leave the game; the goal is kept. False when it was stopped already. */
  stop(): Promise<boolean>;
  /**
   * Replace the goal with an owner goal set by the sender (`/goal`, `Goal: …`; the text is not blank):
   * white space folded, a goal no avatar can reach refused (UserError), the reply saying so. A
   * scheduled run's goal that came after the sender's message (read late, after a restart) is parked
   * behind it, not replaced, and the reply says that too.
   */
  setGoal(text: string): CommandReply;
  /** Store an owner direction from the sender (TASK.md follows; a playing loop takes it in); the reply with its number. */
  addDirection(text: string): CommandReply;
  /**
   * Resolves once the turn that takes in the latest goal or direction (the one the sender's message woke)
   * has ended, or the loop stopped; null when there is none to wait for (stopped, or that turn is over).
   */
  wokenTurn(): Promise<void> | null;
  /** Drop parked goals by their positions in the list (1 is the oldest), or all; the goals dropped. Throws UserError for a position not in the list. */
  unpark(which: readonly number[] | 'all'): ParkedGoal[];
  /** Drop one of the skills it kept (its owner, a pilot or an admin). Throws UserError when it keeps none of that name. */
  removeLearnedSkill(name: string): Promise<void>;
  /**
   * Remember where it stands now as place `name` (any case; a name in use moves here), set by the sender: the place,
   * and where it was before. Throws UserError while it is out of the game, for a bad name, or past the most it keeps.
   */
  setPlace(name: string): { place: PlaceView; was: PlaceView | undefined };
  /** Forget one of its places; the place it was. Throws UserError, naming those it knows, when it knows none of that name. */
  removePlace(name: string): PlaceView;
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
  /**
   * Its owner or an admin removes it (a pilot steers an avatar, it does not end it): it stops and leaves
   * the game, is unlinked everywhere, its schedules go, and its files are kept a week in `DATA_DIR/removed/`.
   * With `confirmed` false only the right is checked (UserError otherwise) and null returned.
   */
  remove(confirmed: boolean): Promise<AvatarRemoved | null>;
  /** Its owner or an admin renames it while it is stopped, to a name Minecraft accepts; the new name. Throws UserError otherwise. */
  rename(to: string): Promise<string>;
  /**
   * Say one line in the game's chat through it (`/say`), paced; resolves with the line once said. Throws UserError,
   * saying nothing, for what Minecraft's chat does not take (over 256 characters, line breaks, control characters),
   * for a server command (a line starting with `/`) unless its owner allows them, and while it is out of the game.
   */
  say(text: string): Promise<string>;
  /** Whether `/say` sends server commands through it (its owner allowed them). */
  takesSayCommands(): boolean;
  /** Its owner or an admin lets `/say` send server commands through it, or not; whether that changed. Throws UserError for anyone else. */
  allowSayCommands(on: boolean): boolean;
  /**
   * Relay the public chat it hears in the game into this chat, a Discord channel or Telegram chat linked to it
   * (on), or end that (off); whether that changed. Throws UserError where no such chat is.
   */
  relayChat(on: boolean): boolean;
}

/** What removing an avatar did. */
export interface AvatarRemoved {
  /** Where its files are kept for a week, relative to DATA_DIR (`removed/steve-…`). */
  keptIn: string;
  /** How many chats it was linked to. */
  unlinked: number;
  /** How many of its schedules went. */
  schedules: number;
}

/** The llm engine as configured, for /engine, /usage and /status. */
export interface LlmInfo {
  /** `LLM_MODEL`, when set. */
  model: string | undefined;
  /** `LLM_PRICE_IN` / `LLM_PRICE_OUT`. */
  prices: Prices;
  /** Whether /engine and /usage are worth offering: the engine is configured, an agent CLI is installed, or an avatar uses a model engine. */
  offered: boolean;
  /** The agent engines whose CLI is installed here. */
  agents: readonly string[];
  /** `HYBRID_MODEL`: the engine a hybrid avatar's model turns go to. */
  hybridModel: HybridModelKind;
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
  /** Whether the sender owns at least one avatar (what only owners and admins may do: schedules, engines). */
  ownsAny(chat: ChatContext): boolean;
  /** Whether the sender may control this avatar from here (replies offer only what they can do). */
  mayControl(chat: ChatContext, avatar: WatchedAvatar): boolean;
  /** Whether mindlink knows the sender: an admin, a known person, or someone who may see an avatar from here. */
  knows(chat: ChatContext): boolean;
  /** Throw the stranger refusal unless mindlink knows the sender. */
  requireKnown(chat: ChatContext): void;
  /** Display name of a person id (`someone` for null). */
  personName(id: string | null): string;
  /** The chat identities of an avatar's owner, for those who may see them (its owner, admins); empty for anyone else. */
  ownerIdentities(avatar: WatchedAvatar): readonly string[];
  /** Admins: create an avatar owned by the sender, stopped, linked to this chat. */
  createAvatar(chat: ChatContext, name: string, opts: { server?: string; engine?: Avatar['engine'] }): Promise<DeepReadonly<Avatar>>;
  /** Admins: give an avatar to the person behind `identity` (created if new). Returns the new owner's name. */
  setOwner(chat: ChatContext, avatar: WatchedAvatar, identity: string): string;
  /** Try a pairing code; the reply text. */
  pair(chat: ChatContext, code: string): string;
  /** Whether a pairing code waits to be used (mindlink has no chat admin yet): only then can `/pair` work. */
  pairingOpen(): boolean;
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
  /** The Minecraft servers: list, add, remove, test, move an avatar (admins). */
  readonly servers: ServerDesk;
  /** Share a server's avatars or one avatar with a role of the chat's Discord guild (rights checked). */
  share(chat: ChatContext, request: ShareRequest): ShareMade;
  /** End the chat's guild shares that match and the sender may end; the shares ended. */
  unshare(chat: ChatContext, request: UnshareRequest): Share[];
  /** A one-time link that signs the sender in to the dashboard, seen from this chat. Throws UserError while it is off. */
  webSignIn(chat: ChatContext): string;
  /** The sender's tokens of the people's MCP server (docs/mcp.md): made, listed and revoked by their person only. */
  readonly mcp: McpDesk;
}

/**
 * Whether the model engines' commands (`/engine`, `/usage`) are worth offering: the llm engine is configured,
 * an agent CLI is installed, or an avatar uses an engine other than the scripted one. The command menus and
 * `/help` both ask this, so they agree.
 *
 * @example
 * llmOffered(config, core.avatars.all()) // → false with no LLM_MODEL and no llm avatar
 */
export function llmOffered(config: Config, avatars: readonly Pick<Avatar, 'engine'>[]): boolean {
  return llmSetupProblem(config) === null || avatars.some((a) => a.engine !== 'scripted') || installedAgents(config).length > 0;
}

/**
 * The agent engines whose CLI is installed here (in `AGENTS_DIR` or on PATH).
 *
 * @example
 * installedAgents(config) // → ['claude-code'] after `npm run agents:install -- claude-code`
 */
export function installedAgents(config: Config): AgentKind[] {
  const setup = { agentsDir: config.AGENTS_DIR, baseEnv: childEnvironment() };
  return AGENT_KINDS.filter((kind) => agentMissing(kind, setup) === null);
}

/** What the router needs from `commands/`: run one invocation against the host. */
export interface CommandDispatcher {
  /** Run the command; its reply. Throws UserError for an unknown command, bad arguments or a refusal. */
  run(inv: CommandInvocation, host: CommandHost): Promise<CommandReply>;
  /**
   * Whether the invocation names a command that waits on the network (a ping of a Minecraft server): the
   * router runs it beside the chat's next lines and posts its reply when it is done. False for anything else.
   */
  detached(inv: CommandInvocation): boolean;
}
