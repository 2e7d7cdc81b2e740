import { describe, expect, it } from 'vitest';
import { classifyKick, serverWords, type RefusalContext } from '../../src/game/refusals.ts';
import { asleepIn } from '../../src/game/server-probe.ts';
import { detectVersion, playableVersion } from '../../src/game/versions.ts';

const ctx: RefusalContext = { server: 'survival', avatar: 'bob', player: 'BobMC', version: '1.21.4', auth: 'microsoft' };

describe('classifyKick', () => {
  it.each([
    ['You are not white-listed on this server!', 'whitelist', true],
    ['multiplayer.disconnect.not_whitelisted', 'whitelist', true],
    ['You are banned from this server.\nReason: griefing', 'banned', true],
    ['multiplayer.disconnect.banned.reason griefing', 'banned', true],
    ['Outdated client! Please use 1.21.5', 'outdated', true],
    ['multiplayer.disconnect.outdated_server 1.20.4', 'outdated', true],
    ['Incompatible client! Please use 1.21.4', 'outdated', true],
    ['Wrong protocol version, expected: 769 and you are using: 765', 'outdated', true],
    ['Failed to verify username!', 'auth', true],
    ['multiplayer.disconnect.unverified_username', 'auth', true],
    ['This server is currently starting. Please wait.', 'asleep', false],
    ['Server is offline. Start it at aternos.org', 'asleep', false],
    ['You must accept the resource pack to play on this server', 'resource_pack', true],
    ['multiplayer.requiredTexturePrompt.disconnect', 'resource_pack', true],
    ['Wrong password!', 'login_plugin', true],
    ['You logged in from another location', 'duplicate_login', true],
    ['The server is full!', 'full', false],
    ['Server closed', 'restart', false],
    ['multiplayer.disconnect.server_shutdown', 'restart', false],
    ['Flying is not enabled on this server', 'other', true],
  ] as const)('GIVEN the kick "%s" THEN it is %s (final: %s)', (reason, kind, final) => {
    const r = classifyKick(reason, ctx);
    expect(r.kind).toBe(kind);
    expect(r.final).toBe(final);
    expect(r.status.length).toBeGreaterThan(0);
    if (final) expect(r.line.length).toBeGreaterThan(0);
  });

  it('GIVEN a whitelist kick of a signed-in avatar THEN the words name the player as the server knows it', () => {
    expect(classifyKick('You are not white-listed on this server!', ctx).line).toBe(
      "survival's whitelist does not include BobMC: ask the server's admin to run /whitelist add BobMC, then /play bob.",
    );
  });

  it('GIVEN a verification failure THEN an offline avatar is told about online mode, a signed-in one to sign in again', () => {
    expect(classifyKick('Failed to verify username!', { ...ctx, auth: 'offline' }).line).toMatch(/^survival is in online mode: it lets in only players signed in with Microsoft/);
    expect(classifyKick('Failed to verify username!', ctx).line).toMatch(/^survival did not accept BobMC's Microsoft sign-in .*: \/play bob signs in again\.$/);
  });
});

describe('versions', () => {
  it('GIVEN a status ping THEN the version is read from the protocol first, then from the name', () => {
    expect(detectVersion(765, '1.20.4')).toEqual({ ok: true, version: '1.20.4' });
    expect(detectVersion(769, 'Paper 1.21.4')).toEqual({ ok: true, version: '1.21.4' });
    expect(detectVersion(-1, 'Velocity 3.3.0 (1.20.4)')).toEqual({ ok: true, version: '1.20.4' });
    expect(detectVersion(5, '1.7.10')).toEqual({ ok: false, reason: 'Minecraft 1.7.10 is older than avatars can play (1.8.8 to 26.1)' });
    expect(detectVersion(99_999, 'Future')).toEqual({ ok: false, reason: 'the server speaks a protocol mindlink does not know (99999, "Future"; avatars play 1.8.8 to 26.1)' });
  });

  it('GIVEN a version typed THEN only what mineflayer plays is taken', () => {
    expect(playableVersion('1.21.4')).toEqual({ ok: true, version: '1.21.4' });
    expect(playableVersion('1.8.8')).toEqual({ ok: true, version: '1.8.8' });
    expect(playableVersion('1.7.10')).toMatchObject({ ok: false });
    expect(playableVersion('banana')).toMatchObject({ ok: false });
  });

  it('GIVEN a server list entry THEN a sleeping hosted server is told from a running one', () => {
    expect(asleepIn('§4● Offline', 'This server is offline.')).toBe(true);
    expect(asleepIn('Sleeping', '')).toBe(true);
    expect(asleepIn('1.21.4', 'Welcome! Offline-mode server for friends')).toBe(false);
    expect(asleepIn('Paper 1.21.4', 'starting soon: events!')).toBe(false);
  });
});

describe('serverWords', () => {
  it('GIVEN a kick with formatting codes, line breaks and a terminal escape THEN it is one plain line with the escape made visible', () => {
    expect(serverWords('§cYou are banned\n§7Reason: \u001b[2Jgriefing')).toBe('You are banned Reason: ␛[2Jgriefing');
  });
});
