/**
 * The production command host (`CommandHost` of `src/command-host.ts`) over
 * the core's parts: rights checked through {@link People} (an avatar handle
 * comes only from `watch` or `control`), each act handed to the part that
 * owns it.
 */
import type { AvatarManager } from './avatars/manager.ts';
import type { Places } from './avatars/places.ts';
import type { ChatContext } from './chat.ts';
import { installedAgents, llmOffered, type CommandHost, type ControlledAvatar, type PlaceView, type WatchedAvatar } from './command-host.ts';
import type { Config } from './config.ts';
import { UserError } from './errors.ts';
import type { GameChat } from './game-chat/game-chat.ts';
import { chatLineProblem } from './game/in-game-chat.ts';
import { requirePossibleGoal } from './goals/possible.ts';
import type { SkillLibrary } from './learned/library.ts';
import type { Links } from './people/links.ts';
import type { McpDesk } from './people/mcp-tokens.ts';
import type { Pairing } from './people/pairing.ts';
import type { People } from './people/people.ts';
import type { RecentActivity } from './recent.ts';
import type { ScheduleDesk } from './schedule/desk.ts';
import type { ServerDesk } from './servers/desk.ts';
import type { Sharing } from './sharing.ts';
import type { DeepReadonly } from './store/readonly.ts';
import type { Avatar, Destination, Identity, Place } from './store/schema.ts';
import { notedReply } from './task/directions.ts';
import { cutText, oneLine, plainGoal } from './text.ts';
import type { ThoughtStream } from './thought-stream.ts';
import type { WebAccess } from './web-access.ts';

/** What a refused goal leaves as it was, in one sentence. */
function keptGoal(current: string | undefined): string {
  return current ? `Nothing was changed: my goal is still ${plainGoal(current, 120)}.` : 'Nothing was changed.';
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
  servers: ServerDesk;
  /** The server of a new avatar when none is named. */
  defaultServer(): string | undefined;
  config: Config;
  sharing: Sharing;
  thoughts: ThoughtStream;
  /** Open a thread under a chat on its platform's bridge. */
  openThread(dest: Destination, name: string): Promise<Destination>;
  /** Dashboard sign-in links and sessions. */
  web: WebAccess;
  /** The skills avatars wrote and kept. */
  learned: SkillLibrary;
  /** Tokens of the people's MCP server. */
  mcp: McpDesk;
  /** What each avatar did lately (who played its last turn); absent, nobody is said to have. */
  recent?: RecentActivity;
  /** The game's chat: relays into linked chats, and which avatars' `/say` takes server commands. */
  gameChat: GameChat;
  /** The places avatars remember. */
  places: Places;
}

/**
 * The production command host over the core's parts.
 *
 * @example
 * const host = createCommandHost({ avatars, people, links, pairing, schedules, servers, defaultServer, config, sharing, thoughts, openThread, web, learned, mcp, recent, gameChat });
 */
export function createCommandHost({ avatars, people, links, pairing, schedules, servers, defaultServer, config, sharing, thoughts, openThread, web, learned, mcp, recent, gameChat, places }: CommandHostParts): CommandHost {
  const noSkill = (record: DeepReadonly<Avatar>, name: string): UserError =>
    new UserError('unknown_skill', `${record.name} keeps no skill called ${cutText(oneLine(name), 40)}: /skills ${record.name} lists them.`, record.name);
  /** A stored place as a command shows it, measured from where the avatar stands now. */
  const placeView = (record: DeepReadonly<Avatar>, p: DeepReadonly<Place>): PlaceView => {
    const snap = avatars.snapshot(record.name);
    const near = snap && snap.dimension === p.dimension;
    return {
      name: p.name,
      x: p.x,
      y: p.y,
      z: p.z,
      dimension: p.dimension,
      distance: near ? Math.round(Math.hypot(snap.position.x - p.x, snap.position.y - p.y, snap.position.z - p.z)) : null,
      by: p.by === null ? null : people.personName(p.by),
    };
  };
  const watched = (chat: ChatContext, record: DeepReadonly<Avatar>): WatchedAvatar => ({
    name: record.name,
    // The record as stored now (each change to it is a new one), the one given while it is gone or renamed.
    get record() {
      return avatars.get(record.name) ?? record;
    },
    sight: people.rightsOf(chat).sight(record),
    state: () => avatars.displayState(record.name),
    isPlaying: () => avatars.isPlaying(record.name),
    snapshot: () => avatars.snapshot(record.name),
    usage: () => avatars.usage(record.name),
    lastPlayedBy: () => recent?.lastPlayedBy(record.name),
    downReason: () => avatars.downReason(record.name),
    waitReason: () => avatars.waitReason(record.name),
    stopReason: () => avatars.stopReason(record.name),
    ask: (question) => avatars.ask(record.name, question),
    learnedSkills: () => learned.list(record.name),
    async learnedSkill(name) {
      const found = await learned.get(record.name, name);
      if (!found) throw noSkill(record, name);
      return found;
    },
    places: () => places.of(record.name).map((p) => placeView(record, p)),
  });
  const controlled = (chat: ChatContext, record: DeepReadonly<Avatar>): ControlledAvatar => {
    const ownerOrAdmin = (what: string): void => {
      const role = people.rightsOf(chat).role(record);
      if (role !== 'owner' && role !== 'admin') throw new UserError('not_allowed', `Only ${record.name}'s owner or an admin can ${what}.`, record.name);
    };
    // Assigned onto the watched handle, so its `record` stays the one stored now.
    return Object.assign(watched(chat, record), {
      play: () => avatars.play(record.name),
      stop: () => avatars.stop(record.name),
      setGoal: (text) => {
        const goal = text.replace(/\s+/g, ' ').trim();
        requirePossibleGoal(goal, (why) => `I can't take that goal: ${why}. ${keptGoal(record.goal?.text)}`, record.name, places.known(record.name));
        const by = people.ensurePerson(chat.from, chat.fromName);
        const behind = avatars.setGoal(record.name, goal, by.id, { writtenAt: chat.sentAt, byName: people.personName(by.id), setIn: chat.dest });
        const stopped = avatars.isPlaying(record.name) ? '' : ` I'm stopped: /play ${record.name} starts me.`;
        const parked = behind ? ` Your message came before the scheduled goal I was on (${plainGoal(behind.text, 80)}), so that one is parked for later.` : '';
        return { avatar: record.name, text: `New goal from ${chat.fromName}: ${goal}.${stopped}${parked}`, news: 'new_goal' };
      },
      addDirection: (text) => {
        const { n, dropped } = avatars.addDirection(record.name, text, people.rightsOf(chat).author(record)?.id ?? null);
        return { avatar: record.name, text: notedReply(n, dropped) };
      },
      wokenTurn: () => avatars.wokenTurn(record.name),
      unpark: (which) => avatars.unpark(record.name, which),
      async removeLearnedSkill(name) {
        if (!(await learned.remove(record.name, name))) throw noSkill(record, name);
      },
      setPlace: (name) => {
        const snap = avatars.snapshot(record.name);
        const state = avatars.displayState(record.name);
        // Dead, it lies where it died until it respawns: no place to remember.
        if (!snap || state === 'dead' || state === 'waiting') {
          throw new UserError('not_in_game', `${record.name} is not in the game, so it stands nowhere to remember: /play ${record.name} first.`, record.name);
        }
        const by = people.ensurePerson(chat.from, chat.fromName);
        const { place, was } = places.set(record.name, name, { ...snap.position, dimension: snap.dimension }, by.id);
        return { place: placeView(record, place), was: was ? placeView(record, was) : undefined };
      },
      removePlace: (name) => placeView(record, places.remove(record.name, name)),
      link: (mode) => links.link(record.name, chat.dest, mode, chat.guild, dmWith(chat)),
      unlink: () => {
        gameChat.relayOff(record.name, chat.dest);
        return links.unlink(record.name, chat.dest);
      },
      async setEngine(kind) {
        ownerOrAdmin('change its engine');
        await avatars.switchEngine(record.name, kind);
      },
      async remove(confirmed) {
        ownerOrAdmin('remove it');
        if (!confirmed) return null;
        const { keptIn, forgotten } = await avatars.remove(record.name);
        return { keptIn, unlinked: forgotten.links ?? 0, schedules: forgotten.schedules ?? 0 };
      },
      async rename(to) {
        ownerOrAdmin('rename it');
        return (await avatars.rename(record.name, to)).name;
      },
      async say(text) {
        const line = text.trim();
        const problem = chatLineProblem(line);
        if (problem) throw new UserError('bad_chat_line', `${problem} Nothing was said.`, record.name);
        if (line.startsWith('/') && !gameChat.takesCommands(record.name)) {
          throw new UserError(
            'game_command',
            `A line starting with / is a server command, run as ${record.name}: its owner can allow them with /say commands on ${record.name}. Nothing was said.`,
            record.name,
          );
        }
        const outcome = await avatars.say(record.name, line);
        if (outcome === 'not_in_game') {
          const how = avatars.isPlaying(record.name) ? 'I am waiting to join it again' : `/play ${record.name} starts me`;
          throw new UserError('not_in_game', `I'm not in the game right now (${how}). Nothing was said.`, record.name);
        }
        if (outcome === 'busy') throw new UserError('chat_busy', 'I still have lines to say before this one: say it again in a few seconds. Nothing was said.', record.name);
        return line;
      },
      takesSayCommands: () => gameChat.takesCommands(record.name),
      allowSayCommands(on) {
        ownerOrAdmin(on ? 'let /say send server commands through it' : 'change what /say sends through it');
        return gameChat.setTakesCommands(record.name, on, people.ensurePerson(chat.from, chat.fromName).id);
      },
      relayChat(on) {
        if (chat.platform !== 'discord' && chat.platform !== 'telegram') {
          throw new UserError('not_linked', `The game's chat is relayed into a Discord channel or Telegram chat linked to ${record.name}: type /relay there.`, record.name);
        }
        if (!on) return gameChat.relayOff(record.name, chat.dest);
        if (!links.isLinkedTo(record.name, chat.dest)) throw new UserError('not_linked', `Link ${record.name} to this chat first: /link ${record.name}`, record.name);
        return gameChat.relayOn(record.name, chat.dest, people.ensurePerson(chat.from, chat.fromName).id);
      },
    } satisfies Omit<ControlledAvatar, keyof WatchedAvatar>);
  };
  return {
    watch: (chat, name) => watched(chat, people.rightsOf(chat).resolve(name)),
    control: (chat, name) => controlled(chat, people.rightsOf(chat).control(name)),
    visible: (chat) => people.rightsOf(chat).visible().map((a) => watched(chat, a)),
    isAdmin: (chat) => people.rightsOf(chat).admin,
    controlsAny: (chat) => people.rightsOf(chat).controlsAny(),
    mayControl: (chat, avatar) => people.rightsOf(chat).mayControl(avatar.record),
    ownsAny: (chat) => people.rightsOf(chat).ownsAny(),
    knows: (chat) => people.rightsOf(chat).knows(),
    requireKnown: (chat) => people.rightsOf(chat).requireKnown(),
    personName: (id) => people.personName(id),
    ownerIdentities: (avatar) => (avatar.sight.ownerIdentities ? (people.byId(avatar.record.owner)?.identities ?? []) : []),
    async createAvatar(chat, name, opts) {
      people.rightsOf(chat).requireAdmin('Only an admin can create avatars.');
      // A `/server add` of that server typed just before (it runs beside the lines after it) ends first.
      if (opts.server) await servers.settled(opts.server);
      const owner = people.ensurePerson(chat.from, chat.fromName);
      const server = opts.server ?? defaultServer();
      const created = await avatars.create(name, owner.id, { ...opts, ...(server ? { server: server.toLowerCase() } : {}) });
      links.link(created.name, chat.dest, 'control', undefined, dmWith(chat));
      return created;
    },
    setOwner(chat, avatar, identity) {
      people.rightsOf(chat).requireAdmin('Only an admin can change who owns an avatar.');
      const person = people.ensurePerson(identity, identity);
      avatars.setOwner(avatar.name, person.id);
      return people.personName(person.id);
    },
    pair: (chat, code) => pairing.pair(chat, code),
    pairingOpen: () => pairing.code !== null,
    schedules,
    servers,
    llm: () => ({
      model: config.LLM_MODEL,
      prices: { inPerMillion: config.LLM_PRICE_IN, outPerMillion: config.LLM_PRICE_OUT },
      offered: llmOffered(config, avatars.all()),
      agents: installedAgents(config),
      hybridModel: config.HYBRID_MODEL,
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
    webSignIn: (chat) => web.signInLink(chat),
    mcp: {
      issue: (chat, label) => mcp.issue(chat, label),
      list: (chat) => mcp.list(chat),
      revoke: (chat, label) => mcp.revoke(chat, label),
      get url() {
        return mcp.url;
      },
    },
  };
}
