import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../src/chat.ts';
import { mayShare, roleFor, shareCovers, sightOf } from '../src/rights.ts';
import { addShare, defaultServer, removeShares, roleIdOf } from '../src/sharing.ts';
import { newAvatarRecord } from '../src/store/store.ts';
import type { Share, StateFile } from '../src/store/schema.ts';
import { keyed } from '../src/keyed.ts';

const at = new Date('2026-12-01T08:00:00Z');
const steve = newAvatarRecord('steve', 'pAlice', 'embedded', 'scripted', false, at);
const alex = newAvatarRecord('alex', 'pBob', 'embedded', 'scripted', false, at);
const far = newAvatarRecord('far', 'pAlice', 'other', 'scripted', false, at);

function state(shares: Share[] = []): StateFile {
  return {
    version: 1,
    avatars: [steve, alex, far],
    persons: [
      { id: 'pAlice', name: 'alice', identities: ['discord:1'], admin: false },
      { id: 'pBob', name: 'bob', identities: ['discord:2'], admin: false },
    ],
    links: [
      { avatar: 'steve', dest: 'discord:100', mode: 'control', guild: 'G', createdAt: '' },
      { avatar: 'steve', dest: 'discord:101', mode: 'watch', guild: 'G', createdAt: '' },
    ],
    servers: [
      { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' },
      { id: 'other', host: 'mc.example', port: 25565, version: '1.21.4', auth: 'offline' },
    ],
    shares,
    streams: [],
    readMarks: keyed<string>(),
    mcpTokens: [],
    relays: [],
    sayCommands: [],
    places: [],
    handled: [],
  };
}

const member = (id: string, dest: string, roles: string[], extra: Partial<ChatContext> = {}): ChatContext => ({
  platform: 'discord',
  from: `discord:${id}`,
  fromName: id,
  dest,
  chatKind: 'group',
  messageId: null,
  guild: 'G',
  roles: [...roles, 'G'],
  canManageGuild: false,
  ...extra,
});

describe('guild sharing rights', () => {
  it('GIVEN shares of a server, one avatar and one owner THEN each covers exactly those avatars', () => {
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded' }, steve)).toBe(true);
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded' }, far)).toBe(false);
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded', avatar: 'STEVE' }, steve)).toBe(true);
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded', avatar: 'steve' }, alex)).toBe(false);
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded', owner: 'pBob' }, alex)).toBe(true);
    expect(shareCovers({ guild: 'G', role: 'R', server: 'embedded', owner: 'pBob' }, steve)).toBe(false);
  });

  it('GIVEN a server shared with role R THEN a member with R pilots from any channel of the guild, except one linked in watch mode, and one without R watches only where it is linked', () => {
    const s = state([{ guild: 'G', role: 'R', server: 'embedded' }]);
    expect(roleFor(s, member('9', 'discord:100', ['R']), steve, [])).toBe('pilot');
    expect(roleFor(s, member('9', 'discord:555', ['R']), alex, [])).toBe('pilot');
    expect(roleFor(s, member('9', 'discord:101', ['R']), steve, [])).toBe('watcher');
    // A member without R sees the avatar only where it is linked (channel 100 links steve).
    expect(roleFor(s, member('8', 'discord:555', ['other']), alex, [])).toBe('stranger');
    expect(roleFor(s, member('8', 'discord:100', ['other']), steve, [])).toBe('watcher');
    // Another guild, a DM, or an avatar on another server: the share does not reach.
    expect(roleFor(s, member('9', 'discord:555', ['R'], { guild: 'H' }), alex, [])).toBe('stranger');
    const { guild: _inDm, ...dm } = member('9', 'discord:777', ['R']);
    expect(roleFor(s, { ...dm, chatKind: 'private' }, alex, [])).toBe('stranger');
    expect(roleFor(s, member('9', 'discord:555', ['R']), far, [])).toBe('stranger');
    // No share: a linked channel makes a watcher, nothing else.
    expect(roleFor(state(), member('9', 'discord:100', ['R']), steve, [])).toBe('watcher');
    expect(roleFor(state(), member('9', 'discord:555', ['R']), steve, [])).toBe('stranger');
  });

  it('GIVEN each role, in a linked chat and elsewhere THEN full direction text and owner ids go to owners and admins, and to a linked chat', () => {
    expect(sightOf('owner', false)).toEqual({ details: true, fullDirection: true, ownerIdentities: true });
    expect(sightOf('admin', false)).toEqual({ details: true, fullDirection: true, ownerIdentities: true });
    expect(sightOf('pilot', false)).toEqual({ details: true, fullDirection: false, ownerIdentities: false });
    expect(sightOf('pilot', true)).toEqual({ details: true, fullDirection: true, ownerIdentities: false });
    expect(sightOf('watcher', true)).toEqual({ details: true, fullDirection: true, ownerIdentities: false });
    expect(sightOf('stranger', true)).toEqual({ details: false, fullDirection: false, ownerIdentities: false });
  });

  it('GIVEN who asks THEN only a Manage Server member who is admin or owner may share, an owner only their own avatars', () => {
    const s = state();
    const manager = (id: string) => member(id, 'discord:100', [], { canManageGuild: true });
    expect(mayShare(s, member('1', 'discord:100', []), [], { avatar: steve })).toMatchObject({ ok: false, reason: expect.stringMatching(/Manage Server/) });
    expect(mayShare(s, manager('1'), [], { avatar: steve })).toEqual({ ok: true, owner: undefined });
    expect(mayShare(s, manager('2'), [], { avatar: steve })).toMatchObject({ ok: false });
    expect(mayShare(s, manager('2'), [], { server: 'embedded' })).toEqual({ ok: true, owner: 'pBob' });
    expect(mayShare(s, manager('3'), [], { server: 'embedded' })).toMatchObject({ ok: false });
    expect(mayShare(s, manager('3'), ['discord:3'], { server: 'embedded' })).toEqual({ ok: true, owner: undefined });
    const { guild: _none, ...elsewhere } = manager('3');
    expect(mayShare(s, { ...elsewhere, platform: 'telegram' }, ['discord:3'], { server: 'embedded' })).toMatchObject({ ok: false });
  });

  it('GIVEN shares added twice and removed THEN one is kept and the removed ones are returned', () => {
    const s = state();
    expect(addShare(s, { guild: 'G', role: 'R', server: 'embedded', by: 'a' })).toBe(true);
    expect(addShare(s, { guild: 'G', role: 'R', server: 'embedded', by: 'b' })).toBe(false);
    expect(addShare(s, { guild: 'G', role: 'R', server: 'embedded', avatar: 'steve' })).toBe(true);
    expect(s.shares).toHaveLength(2);
    expect(removeShares(s, (x) => x.avatar === 'steve')).toHaveLength(1);
    expect(s.shares).toEqual([{ guild: 'G', role: 'R', server: 'embedded', by: 'b' }]);
    expect(roleIdOf('<@&123>')).toBe('123');
    expect(roleIdOf('123')).toBe('123');
    expect(roleIdOf('@builders')).toBeNull();
    expect(defaultServer(s.servers)?.id).toBe('embedded');
  });
});
