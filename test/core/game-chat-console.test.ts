/**
 * The game's chat seen from the console and from the core: `/relay` needs a linked Discord or Telegram
 * chat, `/say` works, and the relays (with whether each avatar's game listens) follow a renamed avatar
 * and go with a removed one. Real core, store and console bridge; the games are FakeGames.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coresPerTest } from './console-harness.ts';

const start = coresPerTest('game-chat');

describe('the game’s chat from the console', () => {
  it('GIVEN the console THEN /relay says it needs a linked chat, /help lists /say but not /relay, and /say speaks in the game', async () => {
    const r = await start();
    r.send('/relay on');
    await r.line(/^\[demo\] The game's chat is relayed into a Discord channel or Telegram chat linked to demo: type \/relay there\.$/);
    r.send('/help');
    await r.line(/^\[mindlink\] \/say <text> \[avatar\] — /);
    expect(r.lines.some((l) => l.startsWith('/relay'))).toBe(false);
    r.send('/say hello world');
    await r.line(/^\[demo\] Said in the game: hello world$/);
    expect(r.games.get('demo')?.said).toEqual(['hello world']);
    r.send('/say /give demo diamond 64');
    await r.line(/^\[demo\] A line starting with \/ is a server command, run as demo: its owner can allow them with \/say commands on demo\. Nothing was said\.$/);
    r.send('/say commands on');
    await r.line(/^\[demo\] \/say sends lines starting with \/ through demo: the server runs them as its commands\.$/);
    r.send('/say /time set day');
    await r.line(/^\[demo\] Said in the game: \/time set day$/);
    r.send('/stop');
    await r.line(/^\[demo\] Stopped\./);
    r.send('/say anyone there?');
    await r.line(/^\[demo\] I'm not in the game right now \(\/play demo starts me\)\. Nothing was said\.$/);
    expect(r.games.get('demo')?.said).toEqual(['hello world', '/time set day']);
  });

  it('GIVEN demo relayed into a linked chat THEN only its game listens, and the relay and its /say setting follow a rename and go with a removal', async () => {
    const r = await start();
    const { core } = r;
    r.send('/avatar create bob');
    await r.line(/^\[bob\] Created bob/);
    expect(r.games.get('demo')?.hearing).toBe(false);
    core.links.link('demo', 'telegram:42', 'control');
    core.gameChat.relayOn('demo', 'telegram:42', 'console');
    core.gameChat.setTakesCommands('demo', true, 'console');
    expect(r.games.get('demo')?.hearing).toBe(true);
    expect(r.games.get('bob')?.hearing).toBe(false);
    r.send('/stop demo');
    await r.line(/^\[demo\] Stopped\./);
    r.send('/avatar rename demo steve');
    await r.line(/^\[steve\] Renamed demo to steve\./);
    expect(core.store.state.data.relays.map((x) => [x.avatar, x.dest])).toEqual([['steve', 'telegram:42']]);
    expect(core.gameChat.takesCommands('steve')).toBe(true);
    expect(r.games.get('steve')?.hearing).toBe(true);
    r.send('/avatar remove steve steve');
    await r.line(/^\[mindlink\] Removed steve: /);
    expect(core.store.state.data.relays).toEqual([]);
    expect(core.store.state.data.sayCommands).toEqual([]);
    await core.store.flush();
    const state = JSON.parse(await readFile(join(core.store.dir, 'state.json'), 'utf8')) as { relays: unknown[]; sayCommands: unknown[] };
    expect(state).toMatchObject({ relays: [], sayCommands: [] });
  });

  it('GIVEN a relay whose chat was unlinked THEN the next line heard ends it and the game stops listening', async () => {
    const r = await start();
    const { core } = r;
    core.links.link('demo', 'telegram:42', 'control');
    core.gameChat.relayOn('demo', 'telegram:42', 'console');
    core.links.unlink('demo', 'telegram:42');
    r.games.get('demo')?.hear('alice', 'hi');
    expect(core.store.state.data.relays).toEqual([]);
    expect(r.games.get('demo')?.hearing).toBe(false);
  });
});
