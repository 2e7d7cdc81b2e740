import { describe, expect, it } from 'vitest';
import { closestName, emptyMessageReason, unknownAddress } from '../src/classify.ts';

describe('messages that say nothing', () => {
  it('GIVEN blank, invisible or wordless messages THEN each has a reason to refuse it', () => {
    expect(emptyMessageReason('')).toBe('That message is empty. Nothing was stored.');
    expect(emptyMessageReason('\u200b')).toBe('That message is empty. Nothing was stored.');
    expect(emptyMessageReason(' \ufeff\u2060 ')).toBe('That message is empty. Nothing was stored.');
    expect(emptyMessageReason('', 'demo')).toMatch(/^Say something after "demo:"/);
    expect(emptyMessageReason('/')).toBe('That has no words in it. Nothing was stored.');
    expect(emptyMessageReason('... !!!')).toBe('That has no words in it. Nothing was stored.');
    expect(emptyMessageReason('/fly away')).toBe('"/fly" is not a command; /help lists them. Nothing was stored.');
  });
  it('GIVEN ordinary messages THEN nothing is refused, in any script', () => {
    for (const text of ['stay close', 'ok', '3', 'держись рядом', '待在这里', 'Goal: explore']) expect(emptyMessageReason(text)).toBeNull();
  });
});

describe('addresses to avatars that are not here', () => {
  it('GIVEN an unknown name in front of a goal or a stop THEN it is an address to no one', () => {
    expect(unknownAddress('nobody: Goal: explore', ['demo'])).toEqual({ name: 'nobody', closest: null });
    expect(unknownAddress('nobody: stop', ['demo'])).toEqual({ name: 'nobody', closest: null });
  });
  it('GIVEN a slip of an avatar name in front of anything THEN it names the avatar meant', () => {
    expect(unknownAddress('demoo: stay close', ['demo'])).toEqual({ name: 'demoo', closest: 'demo' });
    expect(unknownAddress('@stevee: how are you?', ['demo', 'steve'])).toEqual({ name: 'stevee', closest: 'steve' });
  });
  it('GIVEN a label in front of a direction, or a known name THEN it is no unknown address', () => {
    expect(unknownAddress('note: bring torches', ['demo'])).toBeNull();
    expect(unknownAddress('Demo: Goal: explore', ['demo'])).toBeNull();
    expect(unknownAddress('stay close', ['demo'])).toBeNull();
  });
  it('GIVEN words near and far from the names THEN only one or two slips count', () => {
    expect(closestName('demoo', ['demo'])).toBe('demo');
    expect(closestName('demo', ['demo'])).toBeNull();
    expect(closestName('dirt', ['demo'])).toBeNull();
    expect(closestName('stevee', ['steve'])).toBe('steve');
    expect(closestName('robinhoodd', ['robinhood_2'])).toBe('robinhood_2');
    expect(closestName('stone', ['steve'])).toBeNull();
  });
});
