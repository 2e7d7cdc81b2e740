/**
 * The shapes of mindlink's data files (lowdb JSON under DATA_DIR), as zod schemas.
 * Each file is validated after read; a file that does not match stops start-up.
 */
import { z } from 'zod';
import { ENGINE_KINDS } from '../engines/kinds.ts';
import { DestinationSchema, IdentitySchema } from './chat-ids.ts';
import { HandledSchema, McpTokenSchema, RelaySchema, SayCommandsSchema } from './chat-records-schema.ts';
import { PlaceSchema } from './place-schema.ts';
import { keyed, keyedRecord } from '../keyed.ts';
import { WHOLE_COLLECTION } from './quarantine.ts';

export { PlaceSchema, type Place } from './place-schema.ts';

export { DestinationSchema, IdentitySchema, type Destination, type Identity } from './chat-ids.ts';
export { HandledSchema, McpTokenSchema, RelaySchema, SayCommandsSchema, type Handled, type McpToken, type Relay, type SayCommands } from './chat-records-schema.ts';

/** Identities typed by a person, checked per platform (`identity.ts`). */
export { identityProblem, TypedIdentitySchema } from './identity.ts';

export const LoopStateSchema = z.enum(['stopped', 'choosing', 'working', 'wrapup']);
export type LoopState = z.infer<typeof LoopStateSchema>;

/** Tokens an engine used (prompt, completion, requests), and a hybrid avatar's turns by who played them. */
export const UsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  requests: z.number(),
  /** USD the engines reported themselves (an agent CLI's own figure), when any did. */
  costUsd: z.number().optional(),
  /** A hybrid avatar's turns by who played them: the scripted engine, or a model (absent for other engines). */
  turns: z.object({ scripted: z.number(), model: z.number() }).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const GoalSchema = z.object({
  text: z.string(),
  setBy: z.enum(['owner', 'self']),
  /** The person who set an owner goal (pinged on Done). */
  setById: z.string().nullable(),
  /** The chat an owner goal was set in: its Done pings the setter there (absent in older files). */
  setIn: DestinationSchema.optional(),
  startedAt: z.string(),
  /** Inventory when the goal was set, for "collect N more" checks; null until a snapshot was seen. */
  baseline: keyedRecord(z.string(), z.number()).nullable(),
  /** Changes whenever the goal changes, so a stale turn can never complete a newer goal. */
  runToken: z.string(),
  /** Tokens spent on this goal so far (metered engines). */
  usage: UsageSchema.optional(),
  /** Set by this schedule's run of `slot` (ISO): a message written before that time but read only later comes first. */
  schedule: z.object({ id: z.number().int().positive(), slot: z.string() }).optional(),
});
export type Goal = z.infer<typeof GoalSchema>;

export const ParkedGoalSchema = z.object({
  text: z.string(),
  setById: z.string().nullable(),
  /** Where it was set (see {@link GoalSchema}), kept for when it is taken up again. */
  setIn: DestinationSchema.optional(),
  parkedAt: z.string(),
  reason: z.string(),
});
export type ParkedGoal = z.infer<typeof ParkedGoalSchema>;

export const DirectionSchema = z.object({
  n: z.number().int().positive(),
  text: z.string(),
  /** ISO time it came. */
  at: z.string(),
  by: z.string().nullable(),
});
export type Direction = z.infer<typeof DirectionSchema>;

export const DoneDirectionSchema = DirectionSchema.extend({
  doneAt: z.string(),
});
export type DoneDirection = z.infer<typeof DoneDirectionSchema>;

export const DirectionBookSchema = z.object({
  next: z.number().int().positive(),
  open: z.array(DirectionSchema),
  done: z.array(DoneDirectionSchema),
});
export type DirectionBook = z.infer<typeof DirectionBookSchema>;

export const AvatarSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_]{3,16}$/),
  server: z.string(),
  /** Person id of the owner. */
  owner: z.string(),
  engine: z.enum(ENGINE_KINDS),
  /** Whether the owner wants it playing (resumed on restart). */
  playing: z.boolean(),
  state: LoopStateSchema,
  goal: GoalSchema.nullable(),
  parked: z.array(ParkedGoalSchema),
  directions: DirectionBookSchema,
  createdAt: z.string(),
});
export type Avatar = z.infer<typeof AvatarSchema>;

export const PersonSchema = z.object({
  id: z.string(),
  name: z.string(),
  identities: z.array(IdentitySchema),
  admin: z.boolean(),
  /** The person's IANA time zone (`/timezone`); their schedules run and print in it. UTC when absent. */
  timezone: z.string().optional(),
});
export type Person = z.infer<typeof PersonSchema>;

export const LinkSchema = z.object({
  avatar: z.string(),
  dest: DestinationSchema,
  mode: z.enum(['control', 'watch']),
  /** Discord guild of the channel, when known. */
  guild: z.string().optional(),
  /** For a direct-message chat: the identity at its other end (a scheduled goal's Done pings its creator there). */
  dmWith: IdentitySchema.optional(),
  createdAt: z.string(),
});
export type Link = z.infer<typeof LinkSchema>;

/** A server name: what `/server add` calls it, and what avatars and shares refer to. */
export const ServerNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/);

/** A Minecraft server avatars can play on: the embedded world (`host` null) or an external one. */
export const ServerSchema = z.object({
  id: z.string(),
  host: z.string().nullable(), // null = embedded
  port: z.number().int().nullable(),
  version: z.string(),
  auth: z.enum(['offline', 'microsoft']),
  /** What the server said it runs when it was last pinged (`Paper 1.21.4`); absent for the embedded world. */
  software: z.string().optional(),
  /** Whether it verifies players with Microsoft (online mode), as last seen; absent when unknown. */
  onlineMode: z.boolean().optional(),
  /** The version was given in `/server add` (kept as is), not found by the ping (updated by `/server test`). */
  versionPinned: z.boolean().optional(),
  /** When it was added (`/server add`), ISO. */
  addedAt: z.string().optional(),
});
export type Server = z.infer<typeof ServerSchema>;

/**
 * A Discord guild shares avatars with one of its roles (the pilots): every
 * avatar of `server`, present and future, or only `avatar`; when `owner` is
 * set, only that person's avatars (an owner shares what they own, an admin everything).
 */
export const ShareSchema = z.object({
  guild: z.string(),
  role: z.string(),
  server: z.string(),
  /** Only this avatar, when set. */
  avatar: z.string().optional(),
  /** Only the avatars of this person id, when set. */
  owner: z.string().optional(),
  /** Person id of whoever made the share. */
  by: z.string().optional(),
  createdAt: z.string().optional(),
});
export type Share = z.infer<typeof ShareSchema>;

/** A thought stream (`/verbose on`): the avatar's turns, one line each, into a thread opened from a linked chat. */
export const StreamSchema = z.object({
  avatar: z.string(),
  /** The thread the lines go to. */
  dest: DestinationSchema,
  /** The linked chat it was opened from; the stream ends when that link does. */
  parent: DestinationSchema,
  createdAt: z.string(),
});
export type Stream = z.infer<typeof StreamSchema>;

/** `state.json`: everything but the outbox and the goal record. */
/** Report the second of two entries with the same key (`avatars.1.name: duplicate avatar "demo"`). */
function unique<T>(key: (item: T) => string, field: string, what: string) {
  return (items: T[], ctx: z.RefinementCtx): void => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const k = key(item);
      // Which of the two is the right one is not for mindlink to guess: the whole file is refused.
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i, field], message: `duplicate ${what} "${k}"`, params: WHOLE_COLLECTION });
      seen.add(k);
    });
  };
}

export const StateFileSchema = z.object({
  version: z.literal(1),
  // Names are Minecraft names: unique regardless of case, as the core looks them up.
  avatars: z.array(AvatarSchema).superRefine(unique((a) => a.name.toLowerCase(), 'name', 'avatar')),
  persons: z.array(PersonSchema).superRefine(unique((p) => p.id, 'id', 'person')),
  links: z.array(LinkSchema),
  servers: z.array(ServerSchema).superRefine(unique((s) => s.id, 'id', 'server')),
  shares: z.array(ShareSchema),
  /** Added after version 1 was first written: absent in older files. */
  streams: z.array(StreamSchema).default([]),
  /**
   * Where each chat was read up to: the newest platform message id a bridge handed over, for a
   * platform that does not replay what came while mindlink was down (Discord). Absent in older files.
   */
  readMarks: keyedRecord(DestinationSchema, z.string().regex(/^\d{1,25}$/)).default(() => keyed<string>()),
  /** Tokens of the people's MCP server, hashed (docs/mcp.md). Absent in older files. */
  mcpTokens: z.array(McpTokenSchema).default([]),
  /** Chat relays of the game's chat (`/relay`). Absent in older files. */
  relays: z.array(RelaySchema).default([]),
  /** Avatars whose `/say` takes server commands (`/say commands on`). Absent in older files. */
  sayCommands: z.array(SayCommandsSchema).default([]),
  /** Places avatars remember, per avatar and server (docs/commands.md "Places"). Absent in older files. */
  places: z.array(PlaceSchema).superRefine(unique((p) => `${p.avatar.toLowerCase()} ${p.server} ${p.name}`, 'name', 'place')).default([]),
  /** Messages that changed something and whose reply is not known to be on disk yet (see {@link HandledSchema}). Absent in older files. */
  handled: z.array(HandledSchema).default([]),
});
export type StateFile = z.infer<typeof StateFileSchema>;

/** The states a card can show (a loop's phase, or `waiting` while it is out of the game): the platform shows each as a colour. */
export const CardStateSchema = z.enum(['stopped', 'choosing', 'working', 'wrapup', 'waiting', 'dead']);

/**
 * A button on a card. Its `id` carries all it needs (`stop:steve`, see `src/cards.ts`), so a press on an
 * old card works after a restart; Telegram's callback data holds at most 64 bytes.
 */
export const CardActionSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(40),
  style: z.enum(['primary', 'secondary', 'danger']),
});
export type CardAction = z.infer<typeof CardActionSchema>;

/**
 * What a reply or post looks like beyond its text, for platforms that show more (docs/discord.md
 * "Cards and buttons"): a title with the state as a colour, named fields, a footer and buttons. A post
 * with buttons only (`Done: …`) has no title and no fields. The text stays the plain form (the console).
 */
export const CardSchema = z.object({
  /** The avatar it shows, by name. */
  title: z.string().optional(),
  state: CardStateSchema.optional(),
  /** One line under the title (the state in words, the server). */
  summary: z.string().optional(),
  fields: z.array(z.object({ name: z.string(), value: z.string(), inline: z.boolean().optional() })).default([]),
  /** The last press and what it did (`alice: Stopped.`). */
  footer: z.string().optional(),
  actions: z.array(CardActionSchema).default([]),
});
export type Card = z.infer<typeof CardSchema>;

export const PostSchema = z.object({
  id: z.string(),
  dest: DestinationSchema,
  /** The avatar the post is about (stdout prefix `[name] `), or null for `[mindlink] `. */
  avatar: z.string().nullable(),
  text: z.string(),
  /** The one identity this post may ping (on the destination's platform), or null. */
  ping: IdentitySchema.nullable(),
  /** Platform message id this post replies to. */
  replyTo: z.string().nullable(),
  kind: z.enum(['reply', 'done', 'new_goal', 'direction_done', 'stopped', 'info']),
  createdAt: z.string(),
  attempts: z.number().int().nonnegative(),
  /** Earliest next attempt (epoch ms), after a failure. */
  notBefore: z.number().nonnegative(),
  /**
   * The first parts of a multi-part post the platform accepted already (a later part failed):
   * the next attempt, after a restart too, sends only the rest.
   */
  sent: z.object({ parts: z.array(z.string()), messageIds: z.array(z.string()) }).optional(),
  /** Its card (a `/status`, the buttons of a `Done:`), shown where the platform can; absent in older files. */
  card: CardSchema.optional(),
  /**
   * The key of the update it answers, when the platform may deliver that update again (Telegram): the post
   * goes out only once it is on disk, with the update marked answered (`OutboxFile.answered`).
   */
  answers: z.string().optional(),
});
export type Post = z.infer<typeof PostSchema>;

/** The parts of a post a platform accepted so far, and the message ids they became. */
export type SentParts = NonNullable<Post['sent']>;

/** `outbox.json`: posts not yet accepted by their platform. Delivered posts are removed. */
export const OutboxFileSchema = z.object({
  version: z.literal(1),
  seq: z.number().int().nonnegative(),
  pending: z.array(PostSchema),
  /**
   * The keys of the updates answered lately (newest last), each written with the post that answers it: an
   * update delivered again after a restart that is here was answered, and is not handled again. Absent in older files.
   */
  answered: z.array(z.string()).default([]),
});
export type OutboxFile = z.infer<typeof OutboxFileSchema>;

export const GoalRecordEntrySchema = z.object({
  avatar: z.string(),
  text: z.string(),
  setBy: z.enum(['owner', 'self']),
  setById: z.string().nullable(),
  started: z.string(),
  ended: z.string(),
  outcome: z.enum(['done', 'blocked', 'replaced', 'parked']),
  note: z.string().optional(),
  /** Tokens the goal took (metered engines). */
  usage: UsageSchema.optional(),
});
export type GoalRecordEntry = z.infer<typeof GoalRecordEntrySchema>;

/** `goal-record.json`: every finished goal, and usage per avatar. */
export const RecordFileSchema = z.object({
  version: z.literal(1),
  goals: z.array(GoalRecordEntrySchema),
  usage: keyedRecord(z.string(), UsageSchema),
});
export type RecordFile = z.infer<typeof RecordFileSchema>;

/** One scheduled goal (`/schedule`). */
export const ScheduleSchema = z.object({
  /** Shown as `#id`; never reused. */
  id: z.number().int().positive(),
  avatar: z.string(),
  /** The cron expression the schedule runs on (5 fields, or 6 with seconds first). */
  cron: z.string(),
  /** What the person typed for `<when>` (`every day at 8:00`, or the cron expression itself). */
  when: z.string(),
  goal: z.string(),
  /** Person id of the creator: the goal is set as theirs (Done pings them), in their time zone. */
  createdBy: z.string(),
  /** The chat it was made in: each run's acknowledgement goes there. */
  dest: DestinationSchema,
  createdAt: z.string(),
  /** The scheduled time (ISO) of the last run that was handled (run, parked or skipped); a run never fires twice. */
  lastRun: z.string().nullable(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

/** Where the last digest of a chat left off: its time, and the avatars' counters then. */
export const DigestMarkSchema = z.object({
  at: z.string(),
  /** Minutes in game per avatar (cumulative counter) at that time. */
  played: keyedRecord(z.string(), z.number()),
  usage: keyedRecord(z.string(), UsageSchema),
});
export type DigestMark = z.infer<typeof DigestMarkSchema>;

/** The daily digest of one linked chat (`/digest on [HH:MM]`). */
export const DigestSchema = z.object({
  dest: DestinationSchema,
  /** Local time of day `HH:MM`, in the zone of the person who turned it on. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  by: z.string(),
  mark: DigestMarkSchema,
});
export type Digest = z.infer<typeof DigestSchema>;

/** `schedules.json`: scheduled goals, daily digests, and minutes played per avatar. */
export const ScheduleFileSchema = z.object({
  version: z.literal(1),
  /** The id of the next schedule. */
  next: z.number().int().positive(),
  schedules: z.array(ScheduleSchema),
  digests: z.array(DigestSchema),
  /** Minutes each avatar spent in the game, counted once a minute (the digest reports the difference). */
  played: keyedRecord(z.string(), z.number()),
});
export type ScheduleFile = z.infer<typeof ScheduleFileSchema>;
