/**
 * Where an engine's report enters the loop, and the one completion check of
 * a turn, as plain functions.
 */
import { describe, expect, it } from 'vitest';
import { GOAL_MAX, saying, type CompletionCheck } from '../../src/engines/engine.ts';
import { accepted, turnCompletion, turnSays } from '../../src/loop/turn.ts';

describe('an engine report entering the loop', () => {
  it('GIVEN control characters in every field THEN none is left raw, and the goal is one line', () => {
    const r = accepted({
      status: 'done',
      goal: 'say \u001b[2Jhi\nthere\u202e',
      subtask: { state: 'done', step: 'the \u0007step\nis done' },
      directionsDone: [3],
      text: '  Lesson: \u001b[31mred\r\nand more  ',
    });
    expect(r).toEqual({
      status: 'done',
      goal: 'say ␛[2Jhi there',
      subtask: { state: 'done', step: 'the ␇step is done' },
      directionsDone: [3],
      text: 'Lesson: ␛[31mred\nand more',
    });
  });

  it(`GIVEN a goal longer than ${GOAL_MAX} characters THEN it is cut to ${GOAL_MAX}; GIVEN a blank goal THEN there is none`, () => {
    expect(accepted({ ...saying(''), goal: 'x'.repeat(GOAL_MAX + 50) }).goal?.length).toBe(GOAL_MAX);
    expect(accepted({ ...saying(''), goal: ' \n ' }).goal).toBeNull();
  });
});

describe('what a turn said, for the thought stream', () => {
  it("GIVEN an agent's words between its tool calls THEN they come first, one line each and cleaned, then the reply's first line", () => {
    const report = accepted({ ...saying('I have the 2 logs now.\nMore words.'), status: 'done' });
    expect(turnSays(['Going for\nthe logs.', '  ', 'Found a \u001b[2Jtree.'], report)).toBe('Going for the logs. … Found a ␛[2Jtree. … I have the 2 logs now.');
    expect(turnSays([], report)).toBe('I have the 2 logs now.');
  });
});

describe('the completion check of one turn', () => {
  function counted(answers: CompletionCheck[]): { ask: () => CompletionCheck; asked: () => number } {
    let n = 0;
    return { ask: () => answers[Math.min(n++, answers.length - 1)] as CompletionCheck, asked: () => n };
  }
  const met: CompletionCheck = { checkable: true, met: true, says: 'you hold 3 oak logs' };
  const unmet: CompletionCheck = { checkable: true, met: false, says: 'you hold 1 of the 3 oak logs needed' };

  it('GIVEN the engine asked and was told met THEN a done claim is judged by that answer, without a second check', () => {
    const c = counted([met]);
    const check = turnCompletion(c.ask);
    expect(check.ask()).toEqual(met);
    expect(check.judge()).toEqual(met);
    expect(c.asked()).toBe(1);
  });

  it('GIVEN the engine asked about a goal the game cannot check THEN that answer stands', () => {
    const c = counted([{ checkable: false }]);
    const check = turnCompletion(c.ask);
    check.ask();
    expect(check.judge()).toEqual({ checkable: false });
    expect(c.asked()).toBe(1);
  });

  it('GIVEN the engine asked none, or its last answer was not met THEN the claim is checked now', () => {
    const none = counted([unmet]);
    expect(turnCompletion(none.ask).judge()).toEqual(unmet);
    expect(none.asked()).toBe(1);
    const later = counted([unmet, met]);
    const check = turnCompletion(later.ask);
    check.ask();
    expect(check.judge()).toEqual(met);
    expect(later.asked()).toBe(2);
  });
});
