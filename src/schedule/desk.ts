/**
 * What the schedule commands (`/schedule`, `/schedules`, `/unschedule`,
 * `/timezone`, `/digest`) may do, with the sender's rights checked here
 * (through `rights.ts`): scheduling is for an avatar's owner and admins only.
 */
import type { ChatContext } from '../chat.ts';
import { UserError } from '../errors.ts';
import type { SenderRights } from '../people/sender-rights.ts';
import { canSchedule } from '../rights.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Digest, Person, Schedule } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { DEFAULT_ZONE, resolveZone } from './runs.ts';
import { DEFAULT_DIGEST_TIME, digestTime } from './digests.ts';
import type { ScheduleAdded, Scheduler } from './scheduler.ts';

/** The people side the desk needs: who the sender is and what they may do. */
export interface DeskPeople {
  /** The sender's rights from this chat: which avatar they mean, their role, whether they are an admin. */
  rightsOf(chat: ChatContext): SenderRights;
  ensurePerson(identity: string, name: string): DeepReadonly<Person>;
  personName(id: string | null): string;
  /** Set a person's time zone (the persons' owner writes it). */
  setTimezone(id: string, zone: string): void;
}

/** One line of `/schedules`. */
export interface ScheduleEntry {
  schedule: DeepReadonly<Schedule>;
  next: Date | null;
  /** The creator's zone, which the schedule runs and prints in. */
  zone: string;
  byName: string;
}

/** A chat's digest as `/digest` shows it. */
export interface DigestView {
  digest: DeepReadonly<Digest> | undefined;
  zone: string;
  next: Date | null;
  /** The avatars linked to this chat (one digest message each). */
  avatars: string[];
}

/** The schedule commands' view of mindlink. */
export interface ScheduleDesk {
  /** `/schedule <when> <goal> [avatar]`: store and arm a schedule. Throws UserError naming what is wrong. */
  add(chat: ChatContext, text: string, avatar?: string): ScheduleAdded;
  /**
   * `/schedules [avatar]`: that avatar's schedules, or those of every avatar the sender may schedule
   * (`mayAdd`: whether there is any, so a reply offers `/schedule` only to who can use it).
   */
  list(chat: ChatContext, avatar?: string): { about: string | null; entries: ScheduleEntry[]; mayAdd: boolean };
  /** `/unschedule <id>`: remove one the sender may change. Throws UserError (revealing nothing) otherwise. */
  remove(chat: ChatContext, id: number): Schedule;
  /** The sender's zone (`isDefault` when they set none). */
  zone(chat: ChatContext): { zone: string; isDefault: boolean };
  /** `/timezone <zone>`: set the sender's zone; their schedules and digests move to it. Returns their schedule ids. */
  setZone(chat: ChatContext, text: string): { zone: string; schedules: number[] };
  /** `/digest`: this chat's digest. */
  digest(chat: ChatContext): DigestView;
  /** `/digest on [HH:MM]` / `/digest off`. */
  setDigest(chat: ChatContext, on: boolean, time?: string): DigestView;
}

/**
 * @example
 * const desk = createScheduleDesk({ scheduler, people, store });
 * const added = desk.add(chat, 'every day at 8:00 collect 10 oak logs');
 */
export function createScheduleDesk({ scheduler, people, store }: { scheduler: Scheduler; people: DeskPeople; store: Store }): ScheduleDesk {
  const mayChange = (chat: ChatContext, avatar: DeepReadonly<Avatar>): boolean => canSchedule(people.rightsOf(chat).role(avatar));
  const scheduled = (chat: ChatContext, name?: string | null): DeepReadonly<Avatar> => {
    const avatar = people.rightsOf(chat).resolve(name);
    if (mayChange(chat, avatar)) return avatar;
    throw new UserError('not_allowed', `Only ${avatar.name}'s owner or an admin can schedule its goals.`, avatar.name);
  };
  const linkedHere = (chat: ChatContext): DeepReadonly<Avatar>[] => {
    const names = new Set(store.state.data.links.filter((l) => l.dest === chat.dest).map((l) => l.avatar));
    return store.state.data.avatars.filter((a) => names.has(a.name));
  };
  const digestView = (chat: ChatContext): DigestView => {
    const linked = linkedHere(chat);
    if (linked.length === 0) throw new UserError('not_linked', 'No avatar is linked to this chat: /link <avatar> first, then /digest on.');
    if (!linked.some((a) => mayChange(chat, a))) {
      throw new UserError('not_allowed', 'Only the owner of an avatar linked here, or an admin, can set the digest.');
    }
    const digest = scheduler.digests.get(chat.dest);
    return {
      digest,
      zone: digest ? scheduler.zoneOf(digest.by) : DEFAULT_ZONE,
      next: digest ? scheduler.digests.next(digest) : null,
      avatars: linked.map((a) => a.name),
    };
  };

  return {
    add(chat, text, avatar) {
      const a = scheduled(chat, avatar);
      const person = people.ensurePerson(chat.from, chat.fromName);
      return scheduler.add({ avatar: a.name, text, by: person.id, dest: chat.dest });
    },
    list(chat, avatar) {
      const one = avatar ? scheduled(chat, avatar) : undefined;
      const names = one ? [one.name] : store.state.data.avatars.filter((a) => mayChange(chat, a)).map((a) => a.name);
      const entries = scheduler.list(names).map((schedule) => ({
        schedule,
        next: scheduler.nextRun(schedule),
        zone: scheduler.zoneOf(schedule.createdBy),
        byName: people.personName(schedule.createdBy),
      }));
      return { about: one?.name ?? (names.length === 1 ? (names[0] ?? null) : null), entries, mayAdd: names.length > 0 };
    },
    remove(chat, id) {
      const s = scheduler.get(id);
      const avatar = s ? store.state.data.avatars.find((a) => a.name === s.avatar) : undefined;
      const allowed = s !== undefined && (avatar ? mayChange(chat, avatar) : people.rightsOf(chat).admin);
      // Someone who may not change it learns nothing about it.
      if (!s || !allowed) throw new UserError('unknown_schedule', `You have no schedule #${id}. /schedules lists yours.`);
      scheduler.remove(id);
      return s;
    },
    zone(chat) {
      const person = people.ensurePerson(chat.from, chat.fromName);
      return { zone: person.timezone ?? DEFAULT_ZONE, isDefault: person.timezone === undefined };
    },
    setZone(chat, text) {
      const resolved = resolveZone(text);
      if (!resolved.ok) throw new UserError('bad_zone', `${resolved.error} Nothing was changed.`);
      const person = people.ensurePerson(chat.from, chat.fromName);
      people.setTimezone(person.id, resolved.value);
      scheduler.zoneChanged(person.id);
      return { zone: resolved.value, schedules: scheduler.list().filter((s) => s.createdBy === person.id).map((s) => s.id) };
    },
    digest: digestView,
    setDigest(chat, on, time) {
      const before = digestView(chat);
      if (!on) {
        scheduler.digests.set(chat.dest, false, '');
        return { ...before, digest: undefined, next: null };
      }
      const at = time === undefined ? undefined : digestTime(time);
      if (at === null) throw new UserError('bad_time', `"${time}" is not a time of day: write it as HH:MM, e.g. /digest on 20:00. Nothing was changed.`);
      const person = people.ensurePerson(chat.from, chat.fromName);
      scheduler.digests.set(chat.dest, true, person.id, at ?? before.digest?.time ?? DEFAULT_DIGEST_TIME);
      return digestView(chat);
    },
  };
}
