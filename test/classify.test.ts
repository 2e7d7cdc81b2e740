import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH, classifyMessage, isTooLong, splitAddress } from '../src/classify.ts';

describe('classifyMessage', () => {
  it.each([
    // goals
    ['Goal: get 30 logs', 'goal', 'get 30 logs'],
    ['goal:get 30 logs', 'goal', 'get 30 logs'],
    ['GOAL :  get 30 logs  ', 'goal', 'get 30 logs'],
    ['  goal: collect 10 oak logs', 'goal', 'collect 10 oak logs'],
    ['New goal: build a hut', 'goal', 'build a hut'],
    ['NEW GOAL:build a hut', 'goal', 'build a hut'],
    ['your goal is to build a hut', 'goal', 'build a hut'],
    ['Your goal is: build a hut', 'goal', 'build a hut'],
    ['your goal is build a hut', 'goal', 'build a hut'],
    ['your goal is tomorrow-proof walls', 'goal', 'tomorrow-proof walls'],
    ['Goal: what is the best sword?', 'goal', 'what is the best sword?'],
    ['Goal: stop', 'goal', 'stop'],
    ['Goal:', 'goal', ''],
    ['goal:   ', 'goal', ''],
    ['your goal is', 'goal', ''],
    // questions
    ['how much wood do you have?', 'question', 'how much wood do you have?'],
    ['How about wood', 'question', 'How about wood'],
    ["what's your position", 'question', "what's your position"],
    ['Where are you', 'question', 'Where are you'],
    ['WHY', 'question', 'WHY'],
    ['you ok?   ', 'question', 'you ok?'],
    ['are you stuck ?', 'question', 'are you stuck ?'],
    ['stop?', 'question', 'stop?'],
    ['my goal is unclear?', 'question', 'my goal is unclear?'],
    // stop
    ['stop', 'stop', 'stop'],
    ['STOP', 'stop', 'STOP'],
    ['  Stop!  ', 'stop', 'Stop!'],
    ['stop.', 'stop', 'stop.'],
    // directions
    ['stop please', 'direction', 'stop please'],
    ['please stop', 'direction', 'please stop'],
    ['stay near the village', 'direction', 'stay near the village'],
    ['Whatever you like, just no lava', 'direction', 'Whatever you like, just no lava'],
    ['Whoever comes, be nice', 'direction', 'Whoever comes, be nice'],
    ['goals are for later', 'direction', 'goals are for later'],
    ['your goal isn’t important right now', 'direction', 'your goal isn’t important right now'],
    ['go fishing', 'direction', 'go fishing'],
  ] as const)('GIVEN %j THEN it is a %s with text %j', (message, kind, text) => {
    expect(classifyMessage(message)).toEqual({ kind, text });
  });

  it('GIVEN a multi-line direction THEN the whole message is kept as its text', () => {
    expect(classifyMessage('stay near the village\nand no TNT')).toEqual({ kind: 'direction', text: 'stay near the village\nand no TNT' });
  });
});

describe('isTooLong', () => {
  it('GIVEN 2000 characters THEN it is accepted, and 2001 is refused', () => {
    expect(isTooLong('a'.repeat(MAX_MESSAGE_LENGTH))).toBe(false);
    expect(isTooLong('a'.repeat(MAX_MESSAGE_LENGTH + 1))).toBe(true);
  });

  it('GIVEN 2000 emoji (two UTF-16 units each) THEN they count as 2000 characters', () => {
    expect(isTooLong('🪓'.repeat(MAX_MESSAGE_LENGTH))).toBe(false);
  });
});

describe('splitAddress', () => {
  const names = ['steve', 'Alex', 'steve2'] as const;

  it.each([
    ['steve: Goal: x', 'steve', 'Goal: x'],
    ['Steve, how are you?', 'steve', 'how are you?'],
    ['@steve what are you doing', 'steve', 'what are you doing'],
    ['@STEVE: stop', 'steve', 'stop'],
    ['alex : go home', 'Alex', 'go home'],
    ['steve2: mine 5 stone', 'steve2', 'mine 5 stone'],
    ['  steve:   ', 'steve', ''],
    ['@alex', 'Alex', ''],
  ] as const)('GIVEN %j THEN it addresses %s with rest %j', (text, name, rest) => {
    expect(splitAddress(text, names)).toEqual({ name, rest });
  });

  it.each(['Goal: x', 'steve go home', 'stevens: hi', '@stevens hi', 'hello steve: hi', 'where is steve?'])(
    'GIVEN %j THEN no avatar is addressed and the text is whole',
    (text) => {
      expect(splitAddress(text, names)).toEqual({ name: null, rest: text.trim() });
    },
  );

  it('GIVEN an avatar literally called Goal THEN `Goal: x` addresses it', () => {
    expect(splitAddress('Goal: x', ['Goal'])).toEqual({ name: 'Goal', rest: 'x' });
  });

  it('GIVEN no names THEN nothing is addressed', () => {
    expect(splitAddress('steve: hi', [])).toEqual({ name: null, rest: 'steve: hi' });
  });
});
