import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../src/chat.ts';
import { UserError } from '../src/errors.ts';
import { LINK_TTL_MS, SESSION_TTL_MS, WebAccess } from '../src/web-access.ts';

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
});
