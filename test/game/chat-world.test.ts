/**
 * The avatar's side of the game's chat on the embedded world (`src/game/in-game-chat.ts` in a real
 * mineflayer game): it hears only while asked to, never its own lines, and says lines in order, paced,
 * refusing more than it can keep waiting.
 */
import { describe, expect, it } from 'vitest';
import type { HeardLine } from '../../src/game/game.ts';
import { connectedGame, waitFor, worldPerFile } from './helpers.ts';

const w = worldPerFile('chat-world');

describe('the game’s chat, on the embedded world', () => {
  it('GIVEN hearing off THEN nothing is reported; turned on THEN players’ and server lines are, the avatar’s own are not', async () => {
    const eve = await connectedGame(w.world, 'eve', w.log);
    w.games.push(eve);
    const heard: HeardLine[] = [];
    eve.on('heard', (line) => heard.push(line));
    // What eve's client shows, hearing or not: a line there has been through her chat listener too.
    const shown: string[] = [];
    eve.bot?.on('messagestr', (text) => {
      shown.push(text);
    });
    const fred = await connectedGame(w.world, 'fred', w.log);
    w.games.push(fred);
    fred.bot?.chat('not heard yet');
    await waitFor(() => shown.includes('<fred> not heard yet'), 20_000, 'eve’s client to show fred’s line');
    expect(heard).toEqual([]);

    eve.hearChat(true);
    expect(await eve.say('my own line')).toBe('said');
    await waitFor(() => shown.includes('<eve> my own line'), 20_000, 'eve’s own line to come back');
    fred.bot?.chat('now you hear me');
    await waitFor(() => heard.length > 0, 20_000, 'a line heard');
    expect(heard).toEqual([{ from: 'fred', text: 'now you hear me' }]);

    await fred.stop();
    await waitFor(() => heard.some((l) => l.from === null), 20_000, 'the server to say fred left');
    expect(heard.at(-1)).toEqual({ from: null, text: 'fred left the game.' });
  }, 120_000);

  it('GIVEN seven lines asked at once THEN six are said in order and the seventh is refused as busy', async () => {
    const gus = await connectedGame(w.world, 'gus', w.log);
    w.games.push(gus);
    const hal = await connectedGame(w.world, 'hal', w.log);
    w.games.push(hal);
    const shown: string[] = [];
    hal.bot?.on('messagestr', (text) => {
      shown.push(text);
    });
    const outcomes = await Promise.all(Array.from({ length: 7 }, (_, i) => gus.say(`line ${i + 1}`)));
    expect(outcomes).toEqual(['said', 'said', 'said', 'said', 'said', 'said', 'busy']);
    await waitFor(() => shown.includes('<gus> line 6'), 20_000, 'hal to see the sixth line');
    expect(shown.filter((l) => l.startsWith('<gus> '))).toEqual(['<gus> line 1', '<gus> line 2', '<gus> line 3', '<gus> line 4', '<gus> line 5', '<gus> line 6']);
    await gus.stop();
    expect(await gus.say('gone')).toBe('not_in_game');
  }, 120_000);
});
