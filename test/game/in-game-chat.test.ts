import { describe, expect, it } from 'vitest';
import { chatLineProblem, heardLine } from '../../src/game/in-game-chat.ts';

const system = { position: 'system' };

describe('what the avatar hears in the game’s chat', () => {
  it('GIVEN a player’s line THEN it is theirs; GIVEN the server’s THEN it has no sender and no formatting codes', () => {
    expect(heardLine('<alice> anyone got iron?', system, 'demo')).toEqual({ from: 'alice', text: 'anyone got iron?' });
    expect(heardLine('<alice> hi', { position: 'chat', translate: 'chat.type.text' }, 'demo')).toEqual({ from: 'alice', text: 'hi' });
    expect(heardLine('&ealice joined the game.', system, 'demo')).toEqual({ from: null, text: 'alice joined the game.' });
    expect(heardLine('§c[Server] restart in 5 minutes', system, 'demo')).toEqual({ from: null, text: '[Server] restart in 5 minutes' });
    expect(heardLine('* alice waves', system, 'demo')).toEqual({ from: null, text: '* alice waves' });
  });

  it('GIVEN the avatar’s own lines, whispers, team messages or the action bar THEN nothing is passed on', () => {
    expect(heardLine('<demo> hello', system, 'demo')).toBeNull();
    expect(heardLine('<Demo> hello', system, 'demo')).toBeNull();
    expect(heardLine('* demo waves', system, 'demo')).toBeNull();
    expect(heardLine('alice whispers to you: secret', { position: 'chat', translate: 'commands.message.display.incoming' }, 'demo')).toBeNull();
    expect(heardLine('alice whispers to you: secret', system, 'demo')).toBeNull();
    expect(heardLine('You whisper to alice: secret', { position: 'chat', translate: 'commands.message.display.outgoing' }, 'demo')).toBeNull();
    expect(heardLine('[alice -> demo] secret', system, 'demo')).toBeNull();
    expect(heardLine('[Blue] <alice> team plan', { position: 'chat', translate: 'chat.type.team.text' }, 'demo')).toBeNull();
    expect(heardLine('Health: 20', { position: 'game_info' }, 'demo')).toBeNull();
    expect(heardLine('   ', system, 'demo')).toBeNull();
  });

  it('GIVEN control characters or a very long line heard THEN they arrive visible, on one line, cut', () => {
    expect(heardLine('<mallory> a\u001b[2Kb\nc', system, 'demo')).toEqual({ from: 'mallory', text: 'a␛[2Kb c' });
    const long = heardLine(`x${'y'.repeat(1000)}`, system, 'demo');
    expect(long?.text.length).toBe(400);
    expect(long?.text.endsWith('…')).toBe(true);
  });
});

describe('what the avatar can say in the game’s chat', () => {
  it('GIVEN one line of plain text up to 256 characters THEN it can be said', () => {
    expect(chatLineProblem('hello')).toBeNull();
    expect(chatLineProblem('/time set day')).toBeNull();
    expect(chatLineProblem('x'.repeat(256))).toBeNull();
  });

  it('GIVEN too long, empty, a line break, a control character (raw or as its picture) or § THEN it says why', () => {
    expect(chatLineProblem('x'.repeat(300))).toBe('A chat line is at most 256 characters; this one has 300.');
    expect(chatLineProblem('  ')).toBe('Say what to say, e.g. /say hello.');
    for (const bad of ['a\nb', 'a\u0007b', 'a␇b', 'a\u009bb']) expect(chatLineProblem(bad)).toBe("Minecraft's chat takes one line of plain text: no line breaks or control characters.");
    expect(chatLineProblem('§4red')).toBe("Minecraft's chat does not take § (its formatting codes).");
  });
});
