import { describe, expect, it } from 'vitest';
import { cardAction, parseActionId, postCard, statusActions, type ActionKind } from '../src/cards.ts';

const KINDS: ActionKind[] = ['play', 'stop', 'refresh', 'view', 'goal', 'newgoal', 'status'];

describe('card buttons', () => {
  it('GIVEN every kind on the longest name THEN the id reads back and fits Telegram (64 bytes) and Discord (100 characters)', () => {
    const name = 'a_sixteen_chars_';
    for (const kind of KINDS) {
      const { id } = cardAction(kind, name);
      expect(parseActionId(id)).toEqual({ kind, avatar: name });
      expect(Buffer.byteLength(id, 'utf8')).toBeLessThanOrEqual(64);
    }
  });

  it('GIVEN ids mindlink never made THEN none reads as a press', () => {
    for (const id of ['drop:steve', 'stop:', 'stop:st', 'stop:steve:extra', 'STOP:steve', 'stop:ste ve', `stop:${'x'.repeat(17)}`, '']) {
      expect(parseActionId(id)).toBeNull();
    }
  });

  it('GIVEN a Done: THEN a control link gets New goal… and Status, a watch link Status alone, and other posts no buttons', () => {
    expect(postCard('steve', 'done', 'control')?.actions.map((a) => a.label)).toEqual(['New goal…', 'Status']);
    expect(postCard('steve', 'done', 'watch')?.actions.map((a) => a.label)).toEqual(['Status']);
    expect(postCard('steve', 'new_goal', 'control')).toBeUndefined();
  });

  it('GIVEN a status card THEN who may steer gets Stop or Play by the state, Refresh and Goal…; a watcher Refresh alone', () => {
    expect(statusActions('steve', true, true).map((a) => a.id)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    expect(statusActions('steve', false, true).map((a) => a.id)).toEqual(['play:steve', 'refresh:steve', 'goal:steve']);
    expect(statusActions('steve', true, false).map((a) => [a.id, a.label])).toEqual([['view:steve', 'Refresh']]);
  });
});
