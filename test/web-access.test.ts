import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../src/chat.ts';
import { UserError } from '../src/errors.ts';
import { LINK_RATE_WINDOW_MS, LINK_TTL_MS, LINKS_PER_MINUTE, LINKS_PER_PERSON, MAX_LINKS, MAX_SESSIONS, SESSION_TTL_MS, SESSIONS_PER_PERSON, WebAccess } from '../src/web-access.ts';

const group: ChatContext = {
  platform: 'discord',
  from: 'discord:80351110224678912',
  fromName: 'ada',
  dest: 'discord:1234',
  chatKind: 'group',
  messageId: 'm1',
  guild: 'g1',
  roles: ['r1'],
};

const tokenOf = (url: string): string => url.slice(url.indexOf('#') + 1);

/** Someone else, in their own private chat. */
const person = (n: number): ChatContext => ({ platform: 'telegram', from: `telegram:${1000 + n}`, fromName: `p${n}`, dest: `telegram:${1000 + n}`, chatKind: 'private', messageId: null });

/** A WebAccess listening, on a clock the test moves. */
function clocked(): { access: WebAccess; tick(ms: number): void } {
  let now = 1_000_000;
  const access = new WebAccess({ now: () => now });
  access.listening('http://127.0.0.1:1');
  return { access, tick: (ms) => (now += ms) };
}

/** What `fn` throws: its code and text. */
function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('nothing was refused');
}

describe('dashboard sign-in links and sessions', () => {
  it('GIVEN the dashboard is not listening THEN /web is refused in plain words', () => {
    const access = new WebAccess();
    expect(() => access.signInLink(group)).toThrow(UserError);
    expect(() => access.signInLink(group)).toThrow(/dashboard is off/);
  });

  it('GIVEN a sign-in link THEN it works once, and the session is the asker seen from the chat they asked in', () => {
    const access = new WebAccess();
    access.listening('http://127.0.0.1:4780');
    const url = access.signInLink(group);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4780\/login#[A-Za-z0-9_-]{43}$/);
    const made = access.redeem(tokenOf(url));
    expect(made).not.toBeNull();
    expect(access.redeem(tokenOf(url))).toBeNull();
    const session = access.session(made?.cookie);
    expect(session?.chat).toMatchObject({ from: group.from, dest: group.dest, guild: 'g1', roles: ['r1'], messageId: null });
    const chat = access.chatOf(session!, 'w1');
    expect(chat).toMatchObject({ platform: 'web', from: group.from, dest: session!.dest, chatKind: 'private', messageId: 'w1', openedFrom: { dest: 'discord:1234' } });
    expect(chat.dest).toMatch(/^web:[A-Za-z0-9_-]+$/);
    expect(access.hasPage(chat.dest)).toBe(true);
  });

  it('GIVEN a link older than 10 minutes THEN it no longer signs in; GIVEN a session past its time THEN it is gone', () => {
    let now = 1_000_000;
    const access = new WebAccess({ now: () => now });
    access.listening('http://127.0.0.1:1');
    const late = access.signInLink(group);
    now += LINK_TTL_MS;
    expect(access.redeem(tokenOf(late))).toBeNull();
    const made = access.redeem(tokenOf(access.signInLink(group)));
    now += SESSION_TTL_MS - 1;
    expect(access.session(made?.cookie)).toBeDefined();
    now += 1;
    expect(access.session(made?.cookie)).toBeUndefined();
    expect(access.hasPage(made!.session.dest)).toBe(false);
  });

  it('GIVEN a page signed out, a made-up token or cookie THEN nothing signs in', () => {
    const access = new WebAccess();
    access.listening('http://127.0.0.1:1');
    const made = access.redeem(tokenOf(access.signInLink(group)));
    access.end(made!.cookie);
    expect(access.session(made!.cookie)).toBeUndefined();
    expect(access.redeem('x'.repeat(43))).toBeNull();
    expect(access.session('x'.repeat(43))).toBeUndefined();
    expect(access.session(undefined)).toBeUndefined();
  });

  it('GIVEN /web asked from a dashboard page THEN the new link is for the chat that page was opened from', () => {
    const access = new WebAccess();
    access.listening('http://127.0.0.1:1');
    const first = access.redeem(tokenOf(access.signInLink(group)))!;
    const fromPage = access.chatOf(first.session, 'w2');
    const second = access.redeem(tokenOf(access.signInLink(fromPage)))!;
    expect(second.session.chat.dest).toBe('discord:1234');
    expect(second.session.chat.openedFrom).toBeUndefined();
  });

  it('GIVEN one person signs in again and again THEN only their own oldest sessions and links go, and someone else stays signed in', () => {
    const { access, tick } = clocked();
    const other = access.redeem(tokenOf(access.signInLink(person(1))))!;
    let otherLink = '';
    const mine: string[] = [];
    for (let i = 0; i < MAX_SESSIONS + 100; i++) {
      tick(LINK_RATE_WINDOW_MS / LINKS_PER_MINUTE);
      // A link asked for by someone else while these sign-ins go on (a link lasts 10 minutes).
      if (i === MAX_SESSIONS + 80) otherLink = access.signInLink(person(2));
      mine.push(access.redeem(tokenOf(access.signInLink(group)))!.cookie);
    }
    expect(access.session(other.cookie)?.chat.from).toBe('telegram:1001');
    expect(access.redeem(tokenOf(otherLink))).not.toBeNull();
    expect(mine.map((c) => access.session(c) !== undefined)).toEqual(mine.map((_, i) => i >= mine.length - SESSIONS_PER_PERSON));
    // Links asked for and not used: the newest few are kept, the older ones no longer sign in.
    const links: string[] = [];
    for (let i = 0; i < LINKS_PER_PERSON + 2; i++) {
      tick(LINK_RATE_WINDOW_MS);
      links.push(access.signInLink(group));
    }
    expect(links.map((l) => access.redeem(tokenOf(l)) !== null)).toEqual([false, false, true, true, true]);
  });

  it('GIVEN a 4th link asked for within a minute THEN it is refused, saying when to ask again; a minute after the first, one more is given', () => {
    const { access, tick } = clocked();
    for (let i = 0; i < LINKS_PER_MINUTE; i++) {
      access.signInLink(group);
      tick(10_000);
    }
    expect(refusal(() => access.signInLink(group))).toEqual({
      code: 'web_too_many',
      message: 'You asked for 3 sign-in links in the last minute: ask again in 30 s. The links you have work for 10 minutes.',
    });
    // From a page opened from that chat it is the same person.
    const first = access.redeem(tokenOf(access.signInLink(person(9))))!;
    expect(refusal(() => access.signInLink({ ...access.chatOf(first.session, 'w'), openedFrom: { ...group } })).code).toBe('web_too_many');
    // Someone else is not held up.
    expect(access.signInLink(person(1))).toMatch(/#/);
    tick(29_999);
    expect(refusal(() => access.signInLink(group)).message).toMatch(/ask again in 1 s/);
    tick(1);
    expect(access.redeem(tokenOf(access.signInLink(group)))).not.toBeNull();
  });

  it('GIVEN the sessions are full of other people’s live ones THEN a newcomer is refused in plain words and nobody is signed out; as they expire, the newcomer gets in', () => {
    const { access, tick } = clocked();
    const early = access.signInLink(person(-1));
    const cookies: string[] = [];
    for (let n = 0; n < MAX_SESSIONS; n++) {
      cookies.push(access.redeem(tokenOf(access.signInLink(person(n))))!.cookie);
      if (n === 0) tick(60_000);
    }
    const full = refusal(() => access.signInLink(group));
    expect(full).toEqual({ code: 'web_full', message: 'The dashboard has 500 pages signed in, as many as it holds: try again when some sign out or expire (each lasts 12 hours).' });
    // A link given before it filled up is refused too, and kept for later.
    expect(refusal(() => access.redeem(tokenOf(early))).code).toBe('web_full');
    expect(cookies.every((c) => access.session(c) !== undefined)).toBe(true);
    // Someone already signed in may sign in again: their own oldest session makes room.
    const again = access.redeem(tokenOf(access.signInLink(person(7))))!;
    expect(access.session(cookies[7])).toBeUndefined();
    expect(access.session(again.cookie)).toBeDefined();
    expect(cookies.filter((c) => access.session(c) !== undefined)).toHaveLength(MAX_SESSIONS - 1);
    // One signs out: the early link now works.
    access.end(cookies[1]!);
    expect(access.redeem(tokenOf(early))).not.toBeNull();
    // The first session expires before the others: then a newcomer gets its place.
    tick(SESSION_TTL_MS - 60_000);
    expect(access.session(cookies[0])).toBeUndefined();
    expect(access.redeem(tokenOf(access.signInLink(group)))).not.toBeNull();
    expect(cookies.slice(2).filter((c) => access.session(c) !== undefined)).toHaveLength(MAX_SESSIONS - 3);
  });

  it('GIVEN the waiting links are full of other people’s THEN a newcomer’s /web is refused and every waiting link still works', () => {
    const { access, tick } = clocked();
    const links: string[] = [];
    for (let n = 0; n < MAX_LINKS; n++) links.push(access.signInLink(person(n)));
    expect(refusal(() => access.signInLink(group))).toEqual({ code: 'web_full', message: '200 sign-in links are waiting to be used, as many as the dashboard holds: ask again in a few minutes.' });
    // One who has a link waiting gets a new one in its place.
    const again = access.signInLink(person(3));
    expect(access.redeem(tokenOf(links[3]!))).toBeNull();
    expect(links.filter((l, n) => n !== 3 && access.redeem(tokenOf(l)) !== null)).toHaveLength(MAX_LINKS - 1);
    expect(access.redeem(tokenOf(again))).not.toBeNull();
    tick(LINK_TTL_MS);
    expect(access.signInLink(group)).toMatch(/#/);
  });
});
