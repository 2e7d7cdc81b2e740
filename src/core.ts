/**
 * The mindlink core: the avatars, their goal loops, the message router and
 * the command dispatcher, behind the one interface every bridge talks to
 * ({@link BridgeHost}). Rights are decided here (through `rights.ts`), never
 * in a bridge.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Bridge, BridgeHost, ChatContext, CommandInvocation, InboundMessage, Platform } from '../bridges/bridge.ts';
import { commandList, findCommand, parseCommandArgs } from '../commands/index.ts';
import type { Config } from './config.ts';
import type { Engine, EngineContext } from './engines/engine.ts';
import { errorRef, UserError } from './errors.ts';
import type { AvatarGame } from './game/game.ts';
import { checkGoal as defaultCheckGoal } from './goals/check.ts';
import { classifyMessage, MAX_MESSAGE_LENGTH, splitAddress } from './loop/classify.ts';
import { addDirection } from './loop/directions.ts';
import { GoalLoop, type DisplayState, type GoalChecker, type LoopPostKind } from './loop/goal-loop.ts';
import { TaskFile } from './loop/task-md.ts';
import { scrubSecrets } from './logger.ts';
import { Courier, type CourierOptions } from './outbox/courier.ts';
import { Outbox, platformOf } from './outbox/outbox.ts';
import { canControl, canWatch, isAdmin, personOf, roleFor, type Role } from './rights.ts';
import { newAvatarRecord, Store, type Avatar, type Destination, type Person, type Server } from './store/store.ts';

/** Builds and tears down the games of avatars (mineflayer in production). */
export interface GameProvider {
  /** The game of one avatar on its server (not started). */
  create(avatar: Avatar, server: Server, log: Logger): AvatarGame;
  /** Stop whatever the provider started (the embedded world). */
  close(): Promise<void>;
}

/** Builds the engine of an avatar. */
export type EngineProvider = (kind: Avatar['engine'], ctx: EngineContext) => Engine;

/** How to start the core. */
export interface MindlinkOptions {
  config: Config;
  log: Logger;
  games: GameProvider;
  engines: EngineProvider;
  checkGoal?: GoalChecker;
  now?: () => Date;
}

/** One avatar's live parts. */
interface Runtime {
  game: AvatarGame;
  engine: Engine;
  loop: GoalLoop;
  task: TaskFile;
}

const STRANGER_REFUSAL = "I don't know you yet. Ask an admin of this mindlink to give you access; /help lists what you can do.";
const PAIR_MAX_FAILURES = 5;
const PAIR_LOCK_MS = 10 * 60_000;

/**
 * @example
 * const core = await Mindlink.start({ config, log, games, engines });
 * await core.addBridge(new ConsoleBridge(process.stdin, process.stdout, log));
 */
export class Mindlink implements BridgeHost {
  /** The one-time pairing code while no chat admin exists, else null. */
  pairingCode: string | null = null;
  private readonly runtimes = new Map<string, Runtime>();
  private readonly bridges: { bridge: Bridge; courier: Courier }[] = [];
  private readonly pairFailures = new Map<string, { count: number; until: number }>();
  private stopping = false;

  private constructor(
    readonly config: Config,
    readonly log: Logger,
    readonly store: Store,
    readonly outbox: Outbox,
    private readonly opts: MindlinkOptions,
  ) {}

  /** Open the store (a corrupt file throws StoreCorruptError), seed first-start data, resume playing avatars. */
  static async start(opts: MindlinkOptions): Promise<Mindlink> {
    const store = await Store.open(opts.config.DATA_DIR);
    const core = new Mindlink(opts.config, opts.log, store, new Outbox(store), opts);
    core.seed();
    // One avatar that cannot start (its engine or server is gone) must not keep the others from playing.
    for (const a of store.state.data.avatars) {
      try {
        core.runtime(a.name);
        if (a.playing) await core.play(a.name);
      } catch (err) {
        opts.log.error({ err, avatar: a.name }, 'avatar cannot start; it stays stopped');
        store.state.update(() => {
          a.playing = false;
          a.state = 'stopped';
        });
      }
    }
    await store.flush();
    return core;
  }

  private now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  /** First start: the console person, the default server, the `demo` avatar; a pairing code while no chat admin exists. */
  private seed(): void {
    const { config } = this;
    this.store.state.update((s) => {
      if (!s.persons.some((p) => p.identities.includes('console:local'))) {
        s.persons.push({ id: 'console', name: 'console', identities: ['console:local'], admin: true });
      }
      const serverId = config.MC_HOST ? 'default' : 'embedded';
      const server: Server = {
        id: serverId,
        host: config.MC_HOST ?? null,
        port: config.MC_PORT ?? null,
        version: config.MC_VERSION,
        auth: 'offline',
      };
      const i = s.servers.findIndex((x) => x.id === serverId);
      if (i < 0) s.servers.push(server);
      else s.servers[i] = server;
      if (s.avatars.length === 0) {
        s.avatars.push(newAvatarRecord('demo', 'console', serverId, config.ENGINE, true, this.now()));
        s.links.push({ avatar: 'demo', dest: 'console', mode: 'control', createdAt: this.now().toISOString() });
      }
    });
    const hasChatAdmin = this.store.state.data.persons.some((p) => p.admin && p.identities.some((i) => !i.startsWith('console:')));
    if (!hasChatAdmin && config.ADMINS.length === 0 && (config.TELEGRAM_TOKEN || config.DISCORD_TOKEN)) {
      this.pairingCode = randomBytes(5).toString('hex');
      this.log.warn(`pairing code: ${this.pairingCode} — send "/pair ${this.pairingCode}" to the bot from your chat to become the admin`);
    }
  }

  // ───────────────────────────── bridges ─────────────────────────────

  /** Start a bridge and the courier that delivers its posts. */
  async addBridge(bridge: Bridge, courier: Partial<Omit<CourierOptions, 'outbox' | 'bridge' | 'log'>> = {}): Promise<void> {
    const c = new Courier({
      outbox: this.outbox,
      bridge,
      log: this.log.child({ courier: bridge.platform }),
      onUndeliverable: (dest, reason) => this.unlinkDest(dest, reason),
      onMoved: (from, to) => this.moveDest(from, to),
      ...courier,
    });
    this.bridges.push({ bridge, courier: c });
    await bridge.start(this);
    c.start();
  }

  /** Wait until every bridge delivered what it can (tests). */
  async idle(): Promise<void> {
    await Promise.all(this.bridges.map((b) => b.courier.idle()));
  }

  /** A chat blocked the bot or is gone: unlink it everywhere and drop its posts. */
  unlinkDest(dest: Destination, reason: string): void {
    const removed = this.store.state.update((s) => {
      const before = s.links.length;
      s.links = s.links.filter((l) => l.dest !== dest);
      return before - s.links.length;
    });
    this.outbox.dropDest(dest);
    this.log.warn({ dest, reason, links: removed }, 'chat unreachable: unlinked');
  }

  /**
   * A chat got a new address (a Telegram group upgraded to a supergroup):
   * every link of `from` points at `to` instead (an avatar already linked to
   * `to` keeps that link, so none is doubled) and its pending posts go there.
   * Calling it again for the same move changes nothing.
   */
  moveDest(from: Destination, to: Destination): void {
    if (from === to) return;
    if (platformOf(from) !== platformOf(to)) throw new Error(`a chat cannot move from ${from} to another platform (${to})`);
    const links = this.store.state.update((s) => {
      const moving = s.links.filter((l) => l.dest === from);
      if (moving.length === 0) return 0;
      const linkedThere = new Set(s.links.filter((l) => l.dest === to).map((l) => l.avatar));
      s.links = s.links.flatMap((l) => (l.dest !== from ? [l] : linkedThere.has(l.avatar) ? [] : [{ ...l, dest: to }]));
      return moving.length;
    });
    const posts = this.outbox.moveDest(from, to).length;
    if (links > 0 || posts > 0) this.log.info({ from, to, links, posts }, 'chat moved: its links and pending posts follow it');
    else this.log.debug({ from, to }, 'chat moved: nothing was linked there');
  }

  /** The platform announced a chat's new address: see {@link Mindlink.moveDest}. */
  chatMoved(from: Destination, to: Destination): void {
    this.moveDest(from, to);
  }

  // ───────────────────────────── avatars ─────────────────────────────

  /** Every avatar record. */
  avatars(): Avatar[] {
    return this.store.state.data.avatars;
  }

  /** One avatar by name (case-insensitive). */
  avatar(name: string): Avatar | undefined {
    const n = name.toLowerCase();
    return this.store.state.data.avatars.find((a) => a.name.toLowerCase() === n);
  }

  private runtime(name: string): Runtime {
    const existing = this.runtimes.get(name);
    if (existing) return existing;
    const avatar = this.avatar(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const server = this.store.state.data.servers.find((s) => s.id === avatar.server);
    if (!server) throw new UserError('unknown_server', `Avatar ${name} is on server "${avatar.server}", which is not configured.`);
    const log = this.log.child({ avatar: name });
    const game = this.opts.games.create(avatar, server, log);
    const engine = this.opts.engines(avatar.engine, { avatar: name, game, log });
    const task = new TaskFile(this.store.avatarDir(name), name);
    const loop = new GoalLoop({
      avatar: name,
      store: this.store,
      engine,
      game,
      task,
      log,
      checkGoal: this.opts.checkGoal ?? defaultCheckGoal,
      post: (kind, text, ping) => this.postAbout(name, kind, text, ping ?? null),
      onSelfStop: () => {
        void game.stop().catch((err: unknown) => log.error({ err }, 'leaving the game failed'));
      },
      syncTask: () => this.syncTask(name),
      pacing: { baseMs: this.config.LOOP_PACE_MS, maxMs: this.config.LOOP_MAX_PACE_MS },
      ...(this.opts.now ? { now: this.opts.now } : {}),
    });
    const rt = { game, engine, loop, task };
    this.runtimes.set(name, rt);
    return rt;
  }

  /** The loop state to show for an avatar. */
  displayState(name: string): DisplayState {
    try {
      return this.runtime(name).loop.displayState;
    } catch (err) {
      // An avatar whose engine or server cannot be built is not running.
      this.log.debug({ err, avatar: name }, 'no runtime');
      return 'stopped';
    }
  }

  /** The live game of an avatar (for /status). */
  game(name: string): AvatarGame {
    return this.runtime(name).game;
  }

  /** Create an avatar (stopped until /play) and link it to the chat it was created from. */
  async createAvatar(name: string, ownerId: string, opts: { server?: string; engine?: Avatar['engine']; linkTo?: Destination }): Promise<Avatar> {
    if (!/^[A-Za-z0-9_]{3,16}$/.test(name)) {
      throw new UserError('bad_name', 'An avatar name is 3–16 letters, digits or _ (it is its Minecraft name).');
    }
    if (this.avatar(name)) throw new UserError('name_taken', `There is already an avatar called ${name}.`);
    const servers = this.store.state.data.servers;
    const server = opts.server ?? servers[0]?.id;
    if (!server || !servers.some((s) => s.id === server)) {
      throw new UserError('unknown_server', `Unknown server "${opts.server}". Servers: ${servers.map((s) => s.id).join(', ')}.`);
    }
    const avatar = newAvatarRecord(name, ownerId, server, opts.engine ?? this.config.ENGINE, false, this.now());
    this.store.state.update((s) => s.avatars.push(avatar));
    try {
      this.runtime(name);
    } catch (err) {
      // Its engine or game cannot be built: leave nothing half-created behind.
      this.store.state.update((s) => {
        s.avatars = s.avatars.filter((a) => a !== avatar);
      });
      throw err;
    }
    if (opts.linkTo) {
      const dest = opts.linkTo;
      this.store.state.update((s) => s.links.push({ avatar: name, dest, mode: 'control', createdAt: this.now().toISOString() }));
    }
    await this.syncTask(name);
    return avatar;
  }

  /** Start an avatar: join the game and run its loop (resuming its goal). */
  async play(name: string): Promise<void> {
    const rt = this.runtime(name);
    if (rt.loop.isActive) return;
    await rt.game.start();
    rt.loop.start();
  }

  /** Stop an avatar: end the loop, leave the game; the goal is kept. */
  async stopAvatar(name: string): Promise<void> {
    const rt = this.runtime(name);
    await rt.loop.stop('owner stop');
    await rt.game.stop();
  }

  /** Replace an avatar's goal with an owner goal. */
  setGoal(name: string, text: string, setById: string | null): void {
    this.runtime(name).loop.setOwnerGoal(text, setById);
    void this.syncTask(name);
  }

  /** Store a new owner direction and hand it to the loop. Returns its number. */
  addDirection(name: string, text: string, by: string | null): number {
    const avatar = this.avatar(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const { added } = this.store.state.update(() => addDirection(avatar.directions, text, by, this.now()));
    void this.syncTask(name);
    this.runtime(name).loop.directionAdded(added.text);
    return added.n;
  }

  /** Ask an avatar a question in its own short turn. */
  async ask(name: string, question: string): Promise<string> {
    return this.runtime(name).loop.ask(question);
  }

  /** Link an avatar to a chat (replacing the mode of an existing link). */
  link(name: string, dest: Destination, mode: 'control' | 'watch', guild?: string): void {
    this.store.state.update((s) => {
      s.links = s.links.filter((l) => !(l.avatar === name && l.dest === dest));
      s.links.push({ avatar: name, dest, mode, createdAt: this.now().toISOString(), ...(guild ? { guild } : {}) });
    });
  }

  /** Unlink an avatar from a chat. Returns whether a link existed. */
  unlink(name: string, dest: Destination): boolean {
    return this.store.state.update((s) => {
      const before = s.links.length;
      s.links = s.links.filter((l) => !(l.avatar === name && l.dest === dest));
      return s.links.length < before;
    });
  }

  /** Rewrite the mindlink sections of an avatar's TASK.md from the store. */
  async syncTask(name: string): Promise<void> {
    const avatar = this.avatar(name);
    if (!avatar) return;
    const finished = this.store.record.data.goals
      .filter((g) => g.avatar === name && g.outcome === 'done')
      .slice(-15)
      .map((g) => ({ text: g.text, setBy: g.setBy, ended: g.ended, outcome: g.outcome }));
    try {
      await this.runtime(name).task.update({ open: avatar.directions.open, done: avatar.directions.done, finished });
    } catch (err) {
      this.log.error({ err, avatar: name }, 'TASK.md update failed');
    }
  }

  // ───────────────────────────── people ─────────────────────────────

  /** The person behind an identity, created on first need. */
  ensurePerson(identity: string, name: string): Person {
    const existing = personOf(this.store.state.data, identity);
    if (existing) return existing;
    const person: Person = { id: `p${Date.now().toString(36)}${randomBytes(2).toString('hex')}`, name, identities: [identity], admin: false };
    this.store.state.update((s) => s.persons.push(person));
    return person;
  }

  /** Display name of a person id. */
  personName(id: string | null): string {
    if (!id) return 'someone';
    return this.store.state.data.persons.find((p) => p.id === id)?.name ?? id;
  }

  /** Whether the chat's sender is an admin. */
  isAdmin(chat: ChatContext): boolean {
    return isAdmin(this.store.state.data, chat, this.config.ADMINS);
  }

  /** The sender's role towards an avatar. */
  roleFor(chat: ChatContext, avatar: Avatar): Role {
    return roleFor(this.store.state.data, chat, avatar, this.config.ADMINS);
  }

  /** Avatars this chat addresses without a name: those linked here; in a DM or the console, else those the sender owns. */
  candidates(chat: ChatContext): Avatar[] {
    const s = this.store.state.data;
    const linked = s.links.filter((l) => l.dest === chat.dest).map((l) => l.avatar);
    const list = s.avatars.filter((a) => linked.includes(a.name));
    if (list.length > 0 || chat.chatKind === 'group') return list;
    const person = personOf(s, chat.from);
    return person ? s.avatars.filter((a) => a.owner === person.id) : [];
  }

  /** Avatars the sender may know about from this chat (names usable in addressing and commands). */
  visible(chat: ChatContext): Avatar[] {
    return this.avatars().filter((a) => canWatch(this.roleFor(chat, a)));
  }

  /**
   * Resolve the avatar a command or message means: the named one, or the only candidate.
   * Throws UserError that reveals nothing to someone who may not see the avatar.
   */
  resolveAvatar(chat: ChatContext, name?: string | null): Avatar {
    if (name) {
      const a = this.avatar(name);
      if (!a || !canWatch(this.roleFor(chat, a))) {
        if (this.visible(chat).length === 0 && !this.isAdmin(chat)) throw new UserError('stranger', STRANGER_REFUSAL);
        throw new UserError('unknown_avatar', `You have no avatar called "${name}" here. /avatars lists yours.`);
      }
      return a;
    }
    const list = this.candidates(chat);
    if (list.length === 1 && list[0]) return list[0];
    if (list.length > 1) {
      throw new UserError('which_avatar', `Several avatars here: ${list.map((a) => a.name).join(', ')}. Name one, e.g. "${list[0]?.name}: …" or add the name to the command.`);
    }
    if (this.visible(chat).length === 0 && !this.isAdmin(chat)) throw new UserError('stranger', STRANGER_REFUSAL);
    throw new UserError('no_avatar', 'No avatar is linked to this chat. /avatars lists yours; /link <avatar> links one here.');
  }

  /** The avatar a control command means (named, or the only one here), once the sender's right to control it is checked. */
  controlledAvatar(chat: ChatContext, name?: string | null): Avatar {
    const avatar = this.resolveAvatar(chat, name);
    this.requireControl(chat, avatar);
    return avatar;
  }

  /** Throw unless the sender may control the avatar. */
  requireControl(chat: ChatContext, avatar: Avatar): void {
    const role = this.roleFor(chat, avatar);
    if (canControl(role)) return;
    if (role === 'stranger') throw new UserError('stranger', STRANGER_REFUSAL);
    throw new UserError('not_allowed', `You can't control ${avatar.name}: ask its owner.`, avatar.name);
  }

  /** Try a pairing code; the first right code makes the sender an admin. */
  pair(chat: ChatContext, code: string): string {
    const key = chat.from;
    const now = Date.now();
    const f = this.pairFailures.get(key);
    if (f && f.count >= PAIR_MAX_FAILURES && f.until > now) {
      throw new UserError('pair_locked', 'Too many wrong codes. Try again in a few minutes.');
    }
    if (!this.pairingCode || code.trim() !== this.pairingCode) {
      const count = (f && f.until > now ? f.count : 0) + 1;
      this.pairFailures.set(key, { count, until: now + PAIR_LOCK_MS });
      throw new UserError('pair_wrong', 'That pairing code is not valid.');
    }
    this.pairingCode = null;
    this.pairFailures.clear();
    const person = this.ensurePerson(chat.from, chat.fromName);
    this.store.state.update(() => {
      person.admin = true;
    });
    this.log.info({ identity: chat.from }, 'paired: new admin');
    return `Paired: ${chat.fromName} is now an admin of this mindlink. /avatar create <name> makes an avatar; /help lists commands.`;
  }

  // ───────────────────────────── chat in ─────────────────────────────

  /** Platforms whose bridge is configured; posts to others would never be delivered, so they are not queued. */
  private platformEnabled(platform: Platform): boolean {
    if (platform === 'console') return this.config.CONSOLE;
    if (platform === 'telegram') return this.config.TELEGRAM_TOKEN !== undefined;
    return this.config.DISCORD_TOKEN !== undefined;
  }

  /** Post a reply into the chat a message or command came from. */
  reply(chat: ChatContext, avatar: string | null, text: string): void {
    if (!this.platformEnabled(chat.platform)) return;
    this.outbox.post({ dest: chat.dest, avatar, text: scrubSecrets(text), replyTo: chat.messageId, ping: null, kind: 'reply' });
  }

  /** Post about an avatar to every chat linked to it; `pingPerson` is pinged where they have an identity on that platform. */
  postAbout(name: string, kind: LoopPostKind, text: string, pingPerson: string | null): void {
    const s = this.store.state.data;
    const person = pingPerson ? s.persons.find((p) => p.id === pingPerson) : undefined;
    for (const link of s.links.filter((l) => l.avatar === name)) {
      const platform = platformOf(link.dest);
      if (!this.platformEnabled(platform)) continue;
      const ping = platform === 'console' ? null : (person?.identities.find((i) => i.startsWith(`${platform}:`)) ?? null);
      this.outbox.post({ dest: link.dest, avatar: name, text: scrubSecrets(text), ping, replyTo: null, kind });
    }
  }

  /** Route a chat message: goal, question, direction or a lone `stop`. Never throws. */
  async handleMessage(msg: InboundMessage): Promise<void> {
    try {
      await this.route(msg);
    } catch (err) {
      this.replyError(msg, err);
    }
  }

  private async route(msg: InboundMessage): Promise<void> {
    if (msg.text.length > MAX_MESSAGE_LENGTH) {
      throw new UserError(
        'too_long',
        `That message is ${msg.text.length} characters; the limit is ${MAX_MESSAGE_LENGTH}. Nothing was stored: send it shorter.`,
      );
    }
    const names = this.visible(msg).map((a) => a.name);
    const addressed = splitAddress(msg.text, names);
    const avatar = this.resolveAvatar(msg, addressed.name ?? msg.replyToAvatar ?? null);
    const role = this.roleFor(msg, avatar);
    if (role === 'stranger') throw new UserError('stranger', STRANGER_REFUSAL);
    const { kind, text } = classifyMessage(addressed.rest);
    const person = this.ensurePersonIfControl(msg, role);
    const loop = this.runtime(avatar.name).loop;

    switch (kind) {
      case 'stop': {
        this.requireControl(msg, avatar);
        if (!loop.isActive) {
          this.reply(msg, avatar.name, 'Already stopped. /play starts me again.');
          return;
        }
        await this.stopAvatar(avatar.name);
        this.reply(msg, avatar.name, 'Stopped. My goal is kept: /play resumes it.');
        return;
      }
      case 'goal': {
        this.requireControl(msg, avatar);
        if (!text.trim()) throw new UserError('empty_goal', 'Say what the goal is, e.g. "Goal: collect 10 oak logs".', avatar.name);
        const goal = oneLine(text);
        this.setGoal(avatar.name, goal, person?.id ?? null);
        const tail = loop.isActive ? '' : ` I'm stopped: /play ${avatar.name} starts me.`;
        this.reply(msg, avatar.name, `New goal from ${msg.fromName}: ${goal}.${tail}`);
        return;
      }
      case 'question': {
        if (!loop.isActive) {
          this.reply(msg, avatar.name, `I'm stopped, so I can't look around. /play ${avatar.name} starts me.`);
          return;
        }
        // Answered in its own turn; the reply comes when the engine has it, without holding up the chat.
        void this.ask(avatar.name, text)
          .then((answer) => this.reply(msg, avatar.name, answer))
          .catch((err: unknown) => this.replyError(msg, err, avatar.name));
        return;
      }
      case 'direction': {
        this.requireControl(msg, avatar);
        const n = this.addDirection(avatar.name, text, person?.id ?? null);
        this.reply(msg, avatar.name, `Noted as direction #${n}.`);
        return;
      }
    }
  }

  private ensurePersonIfControl(chat: ChatContext, role: Role): Person | undefined {
    const known = personOf(this.store.state.data, chat.from);
    if (known) return known;
    // ADMINS identities and pilots get a person on first use, so goals they set can ping them.
    if (canControl(role)) return this.ensurePerson(chat.from, chat.fromName);
    return undefined;
  }

  /** Run a command; the reply is posted to the chat. Never throws. */
  async runCommand(inv: CommandInvocation): Promise<void> {
    try {
      const command = findCommand(inv.name, inv.platform);
      if (!command) {
        throw new UserError('unknown_command', `There is no /${inv.name} command. /help lists them.`);
      }
      const known = this.isAdmin(inv) || this.visible(inv).length > 0 || personOf(this.store.state.data, inv.from) !== undefined;
      if (!known && command.name !== 'help' && command.name !== 'pair') throw new UserError('stranger', STRANGER_REFUSAL);
      const names = this.avatars().map((a) => a.name);
      const options = inv.options ?? parseCommandArgs(command, inv.argsText ?? '', names);
      const result = await command.run({ core: this, chat: inv }, options);
      this.reply(inv, result.avatar, result.text);
    } catch (err) {
      this.replyError(inv, err);
    }
  }

  private replyError(chat: ChatContext, err: unknown, avatar: string | null = null): void {
    if (err instanceof UserError) {
      this.reply(chat, err.avatar ?? avatar, err.message);
      return;
    }
    const ref = errorRef();
    this.log.error({ err, ref, from: chat.from }, 'handler failed');
    this.reply(chat, avatar, `Something went wrong (ref ${ref}).`);
  }

  /** The commands offered on a platform (for /help and the platform's command menu). */
  commandsFor(platform: Platform): { name: string; description: string; usage: string }[] {
    return commandList(platform).map((c) => ({ name: c.name, description: c.description, usage: c.usage }));
  }

  // ───────────────────────────── shutdown ─────────────────────────────

  /** Stop everything gracefully: loops paused between turns, bots quit, posts delivered where possible, state flushed. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await Promise.all([...this.runtimes.values()].map((rt) => rt.loop.pause('shutdown')));
    await Promise.all(
      [...this.runtimes.values()].map((rt) => rt.game.stop().catch((err: unknown) => this.log.warn({ err }, 'leaving the game failed'))),
    );
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, 2000).unref())]);
    for (const { bridge, courier } of this.bridges) {
      await courier.stop();
      await bridge.stop().catch((err: unknown) => this.log.warn({ err, platform: bridge.platform }, 'bridge stop failed'));
    }
    await this.opts.games.close();
    await this.store.flush();
  }
}

/** Collapse a goal to one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
