/**
 * People: the persons behind chat identities (`state.json` `persons`, written
 * here only), and, for each message, the
 * sender's rights from the chat they write in ({@link People.rightsOf}: the one
 * place rights are decided, through `src/rights.ts`, for the message router and
 * the command host alike; it also resolves which avatar a message or command means).
 */
import { randomBytes } from 'node:crypto';
import type { ChatContext } from '../chat.ts';
import { personOf } from '../rights.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Person } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { personsWriter } from '../store/writers/persons.ts';
import { SenderRights } from './sender-rights.ts';

/** A name that is a chat identity (`discord:80351110224678912`): a person known only by id, not yet by name. */
const IDENTITY_NAME = /^(telegram|discord|console):/;

/** How each platform's people are called before mindlink has seen their name. */
const UNNAMED: Record<string, string> = { telegram: 'a Telegram user', discord: 'a Discord user', console: 'console' };

/**
 * How a person is shown in chat: their platform display name, never a raw id. Someone mindlink
 * knows only by an identity (given an avatar with `/owner … discord:<id>` before they ever wrote)
 * is "a Discord user" until they write.
 *
 * @example
 * displayName({ id: 'p1', name: 'discord:80351110224678912', identities: ['discord:80351110224678912'], admin: false }) // → 'a Discord user'
 */
export function displayName(person: DeepReadonly<Person> | undefined): string {
  if (!person) return 'someone';
  const platform = IDENTITY_NAME.exec(person.name)?.[1];
  if (platform === undefined && person.name.trim() !== '') return person.name;
  return UNNAMED[platform ?? person.identities[0]?.split(':')[0] ?? ''] ?? 'someone';
}

export { NOTHING_HERE_REFUSAL, STRANGER_REFUSAL } from './sender-rights.ts';

/**
 * @example
 * const people = new People(store, config.ADMINS);
 * const avatar = people.rightsOf(chat).control('steve'); // throws UserError unless the sender may control steve
 */
export class People {
  /** Each message's rights, kept while the state they were decided on is unchanged. */
  private readonly decided = new WeakMap<ChatContext, { version: number; rights: SenderRights }>();
  /** `state.json` `persons`: written here only. */
  private readonly persons;

  constructor(
    private readonly store: Store,
    private readonly admins: readonly string[],
  ) {
    this.persons = personsWriter(store);
  }

  /** The person behind an identity, if known. */
  personOf(identity: string): DeepReadonly<Person> | undefined {
    return personOf(this.store.state.data, identity);
  }

  /**
   * Someone wrote under `name`: a person mindlink knew only by id (given an avatar with `/owner`
   * before they ever wrote) takes it as their name. Returns the person, if known.
   */
  noteName(identity: string, name: string): DeepReadonly<Person> | undefined {
    const person = this.personOf(identity);
    if (person && IDENTITY_NAME.test(person.name) && name.trim() !== '' && !IDENTITY_NAME.test(name)) {
      return this.change(person.id, (p) => {
        p.name = name;
      });
    }
    return person;
  }

  /** Make a person an admin (a pairing code was right). */
  makeAdmin(id: string): void {
    this.change(id, (p) => {
      p.admin = true;
    });
  }

  /** Set a person's time zone (`/timezone`). */
  setTimezone(id: string, zone: string): void {
    this.change(id, (p) => {
      p.timezone = zone;
    });
  }

  /** The console's person (an admin), added on first start when missing. */
  ensureConsole(): void {
    if (this.persons.value.persons.some((p) => p.identities.includes('console:local'))) return;
    this.persons.update((d) => d.persons.push({ id: 'console', name: 'console', identities: ['console:local'], admin: true }));
  }

  /** Change one person's record; the record as it is then. */
  private change(id: string, fn: (p: Person) => void): DeepReadonly<Person> | undefined {
    return this.persons.update((d) => {
      const p = d.persons.find((x) => x.id === id);
      if (p) fn(p);
      return p;
    });
  }

  /**
   * Someone wrote: their name is noted (see {@link People.noteName}), and a pilot becomes a known
   * person, so that where they pilot nothing (a DM) they are told where they do, not that mindlink
   * does not know them.
   */
  seen(chat: ChatContext): void {
    if (this.noteName(chat.from, chat.fromName)) return;
    if (this.rightsOf(chat).controlsAny()) this.ensurePerson(chat.from, chat.fromName);
  }

  /** A person by id. */
  byId(id: string): DeepReadonly<Person> | undefined {
    return this.persons.value.persons.find((p) => p.id === id);
  }

  /** The person behind an identity, created on first need (see {@link People.noteName}). */
  ensurePerson(identity: string, name: string): DeepReadonly<Person> {
    const existing = this.noteName(identity, name);
    if (existing) return existing;
    const person: Person = { id: `p${Date.now().toString(36)}${randomBytes(2).toString('hex')}`, name, identities: [identity], admin: false };
    this.persons.update((d) => d.persons.push(person));
    return person;
  }

  /** Display name of a person id (see {@link displayName}): never a raw id. */
  personName(id: string | null): string {
    return displayName(id ? this.byId(id) : undefined);
  }

  /**
   * Who is speaking from this chat and what they may do there, decided once for the message (the same
   * object for every ask about the same message until the state changes; a change decides them again).
   */
  rightsOf(chat: ChatContext): SenderRights {
    const version = this.store.state.version;
    const kept = this.decided.get(chat);
    if (kept && kept.version === version) return kept.rights;
    const rights = new SenderRights(this.store.state.data, chat, this.admins, () => this.ensurePerson(chat.from, chat.fromName));
    this.decided.set(chat, { version, rights });
    return rights;
  }
}
