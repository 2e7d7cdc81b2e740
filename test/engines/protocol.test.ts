import { describe, expect, it } from 'vitest';
import { GOAL_MAX, parseProtocol } from '../../src/engines/llm/protocol.ts';

describe('parseProtocol', () => {
  it('GIVEN the plain protocol lines THEN every field is read and the body keeps only the text', () => {
    const p = parseProtocol('Chopped three logs.\n\nSTATUS: done\nGOAL: build a hut\nSUBTASK: done collect logs\nDIRECTION: done 3');
    expect(p).toEqual({
      status: 'done',
      statusGiven: true,
      goal: 'build a hut',
      subtask: { state: 'done', step: 'collect logs' },
      directionsDone: [3],
      body: 'Chopped three logs.',
    });
  });

  it('GIVEN no STATUS line THEN status is working and statusGiven is false', () => {
    const p = parseProtocol('Still walking to the forest.');
    expect(p.status).toBe('working');
    expect(p.statusGiven).toBe(false);
    expect(p.body).toBe('Still walking to the forest.');
  });

  it('GIVEN an empty reply THEN it parses to defaults without throwing', () => {
    expect(parseProtocol('')).toEqual({ status: 'working', statusGiven: false, goal: null, subtask: null, directionsDone: [], body: '' });
  });

  it.each([
    ['STATUS: done', 'done'],
    ['status: DONE', 'done'],
    ['Status:done', 'done'],
    ['STATUS :  blocked', 'blocked'],
    ['**STATUS:** done', 'done'],
    ['**STATUS**: done', 'done'],
    ['*Status*: Done', 'done'],
    ['`STATUS: done`', 'done'],
    ['__STATUS__: blocked', 'blocked'],
    ['- STATUS: done', 'done'],
    ['* STATUS: blocked', 'blocked'],
    ['> STATUS: done', 'done'],
    ['> - **Status:** `working`', 'working'],
    ['### STATUS: done', 'done'],
    ['STATUS: done — all 3 logs', 'done'],
    ['STATUS: blocked (no trees)', 'blocked'],
    ['STATUS: **done**', 'done'],
    ['   STATUS: working   ', 'working'],
    ['STATUS: done.', 'done'],
  ] as const)('GIVEN the phrasing %j THEN status is %s', (line, status) => {
    const p = parseProtocol(`Some text.\n${line}`);
    expect(p.status).toBe(status);
    expect(p.statusGiven).toBe(true);
    expect(p.body).toBe('Some text.');
  });

  it('GIVEN several STATUS lines THEN the last one wins', () => {
    expect(parseProtocol('STATUS: done\nmore\nSTATUS: blocked').status).toBe('blocked');
    expect(parseProtocol('STATUS: blocked\nSTATUS: working').status).toBe('working');
  });

  it.each(['STATUS: maybe', 'STATUS:', 'STATUS: working | done | blocked', 'STATUS: doneish'])(
    'GIVEN the malformed line %j THEN it is ignored (working, not given) and kept as text',
    (line) => {
      const p = parseProtocol(line);
      expect(p.status).toBe('working');
      expect(p.statusGiven).toBe(false);
      expect(p.body).toBe(line);
    },
  );

  it('GIVEN a malformed STATUS after a valid one THEN the valid one stands', () => {
    expect(parseProtocol('STATUS: done\nSTATUS: maybe').status).toBe('done');
  });

  it.each([
    ['DIRECTION: done 3', [3]],
    ['DIRECTION: done #3', [3]],
    ['DIRECTION: done 3, 4', [3, 4]],
    ['DIRECTION: done #3, #4', [3, 4]],
    ['DIRECTION: done 3 and 4', [3, 4]],
    ['direction: Done 7 (the quest is finished)', [7]],
    ['**DIRECTION:** done `5`', [5]],
    ['- DIRECTION: done: 2', [2]],
    ['DIRECTION: done x', []],
    ['DIRECTION: done', []],
    ['DIRECTION: open 3', []],
    ['DIRECTION: done 0', []],
  ] as const)('GIVEN %j THEN directionsDone is %j', (line, want) => {
    expect(parseProtocol(line).directionsDone).toEqual(want);
  });

  it('GIVEN several DIRECTION lines with repeats THEN all numbers come once, in order', () => {
    const p = parseProtocol('ok\nDIRECTION: done 2\nDIRECTION: done 5, 2\nDIRECTION: done #9\nSTATUS: working');
    expect(p.directionsDone).toEqual([2, 5, 9]);
    expect(p.body).toBe('ok');
  });

  it('GIVEN GOAL with emphasis THEN the goal text is clean', () => {
    expect(parseProtocol('**GOAL:** collect 10 oak logs').goal).toBe('collect 10 oak logs');
    expect(parseProtocol('Goal: `mine 5 stone`').goal).toBe('mine 5 stone');
    expect(parseProtocol('- goal: get iron_pickaxe').goal).toBe('get iron_pickaxe');
  });

  it('GIVEN an empty GOAL or the template placeholder THEN goal is null', () => {
    expect(parseProtocol('GOAL:').goal).toBeNull();
    expect(parseProtocol('GOAL:   ').goal).toBeNull();
    expect(parseProtocol('GOAL: <one line>').goal).toBeNull();
    expect(parseProtocol('GOAL: <one line>   (only when your goal changes)').goal).toBeNull();
    expect(parseProtocol('SUBTASK: done|blocked <step>').subtask).toBeNull();
  });

  it('GIVEN an empty GOAL after a real one THEN the real one stands', () => {
    expect(parseProtocol('GOAL: build a hut\nGOAL:').goal).toBe('build a hut');
  });

  it('GIVEN a very long GOAL THEN it is cut to 300 characters on one line', () => {
    const goal = parseProtocol(`GOAL: ${'x'.repeat(1000)}`).goal ?? '';
    expect(goal.length).toBeLessThanOrEqual(GOAL_MAX);
    expect(goal.endsWith('…')).toBe(true);
    expect(goal).not.toContain('\n');
  });

  it.each([
    ['SUBTASK: done collect logs', { state: 'done', step: 'collect logs' }],
    ['SUBTASK: blocked — no trees nearby', { state: 'blocked', step: 'no trees nearby' }],
    ['**SUBTASK:** Done: craft table', { state: 'done', step: 'craft table' }],
    ['subtask: blocked', { state: 'blocked', step: '' }],
  ] as const)('GIVEN %j THEN subtask is %j', (line, want) => {
    expect(parseProtocol(line).subtask).toEqual(want);
  });

  it('GIVEN a malformed SUBTASK THEN it is ignored', () => {
    expect(parseProtocol('SUBTASK: maybe later').subtask).toBeNull();
  });

  it('GIVEN protocol lines inside a code fence THEN they are read and the empty fence leaves the body', () => {
    const p = parseProtocol('Answer: at 10 64 -20.\n\n```\nSTATUS: working\nDIRECTION: done 1\n```');
    expect(p.status).toBe('working');
    expect(p.directionsDone).toEqual([1]);
    expect(p.body).toBe('Answer: at 10 64 -20.');
  });

  it('GIVEN CRLF line endings THEN lines are still read', () => {
    const p = parseProtocol('hi\r\nSTATUS: done\r\nGOAL: go home\r\n');
    expect(p.status).toBe('done');
    expect(p.goal).toBe('go home');
    expect(p.body).toBe('hi');
  });

  it('GIVEN a protocol word only in prose THEN nothing is read from it', () => {
    const p = parseProtocol('My status is fine and the goal: is close.\nDirections: go north');
    expect(p.statusGiven).toBe(false);
    expect(p.goal).toBeNull();
    expect(p.directionsDone).toEqual([]);
  });
});
