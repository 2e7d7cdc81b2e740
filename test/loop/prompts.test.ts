import { describe, expect, it } from 'vitest';
import type { TurnKind, TurnRequest } from '../../src/engines/engine.ts';
import { addDirection, emptyBook, summarizeDirections } from '../../src/task/directions.ts';
import { parseProtocol } from '../../src/engines/llm/protocol.ts';
import { PROTOCOL_HELP } from '../../src/engines/protocol-help.ts';
import { NUDGES, renderPrompt } from '../../src/loop/prompts.ts';
import { CUT_NOTE, initialTask, ownPart } from '../../src/task/task-md.ts';

type Req = Omit<TurnRequest, 'prompt' | 'completion'>;

function request(kind: TurnKind, over: Partial<Req> = {}): Req {
  const book = emptyBook();
  addDirection(book, 'no TNT', null, new Date('2026-11-28T10:00:00Z'));
  addDirection(book, 'be nice to alex', null, new Date('2026-11-29T10:00:00Z'));
  addDirection(book, 'stay near the village', null, new Date('2026-11-30T10:00:00Z'));
  return {
    kind,
    avatar: 'steve',
    goal: { text: 'collect 10 oak logs', setBy: 'owner', baseline: null },
    directionSummary: summarizeDirections(book),
    directions: book.open.map(({ n, text, at }) => ({ n, text, at })),
    task: '',
    nudges: [],
    ...over,
  };
}

const AUTOMATIC: TurnKind[] = ['choose', 'continue', 'blocked', 'wrapup', 'resume', 'fresh', 'direction'];

describe('renderPrompt', () => {
  it.each(AUTOMATIC)('GIVEN a %s turn THEN it carries the direction summary and every nudge', (kind) => {
    const req = request(kind, { nudges: [NUDGES.tryDifferent, NUDGES.rewriteTask], message: 'stay near the village' });
    const prompt = renderPrompt(req);
    expect(prompt).toContain(req.directionSummary);
    expect(prompt).toContain(NUDGES.tryDifferent);
    expect(prompt).toContain(NUDGES.rewriteTask);
    expect(prompt).toContain(PROTOCOL_HELP);
  });

  it('GIVEN a choose turn THEN it lists direction, ambitions, efficiency and enjoyment, the last five goals and parked goals, in order, and asks for GOAL', () => {
    const prompt = renderPrompt(
      request('choose', {
        goal: null,
        task: ownPart(initialTask('steve')),
        recentGoals: ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'],
        parkedGoals: ['build a castle'],
      }),
    );
    const order = ['Owner direction (3 open', 'full iron tools', 'Efficiency and enjoyment', "don't just repeat one", 'build a castle'].map((s) => prompt.indexOf(s));
    for (const i of order) expect(i).toBeGreaterThanOrEqual(0);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).toContain('g2 | g3 | g4 | g5 | g6');
    expect(prompt).not.toContain('g1 |');
    expect(prompt).toContain('GOAL: <one line>');
  });

  it('GIVEN a choose turn with nothing open or recorded THEN each item says so', () => {
    const prompt = renderPrompt(request('choose', { goal: null, directionSummary: '', directions: [] }));
    expect(prompt).toContain('Owner direction: none open.');
    expect(prompt).toContain('ambitions (TASK.md): none written yet.');
    expect(prompt).toContain("don't just repeat one): none yet.");
  });

  it('GIVEN the last lessons of the lab log THEN the choose, resume and fresh prompts carry them, one short line each, and no other prompt does', () => {
    const lessons = ['"collect 3 oak logs" done in 12 s with 2 collect runs; that works here.', 'Sand is far from spawn: look near water.'];
    for (const kind of ['choose', 'resume', 'fresh'] as const) {
      const prompt = renderPrompt(request(kind, { lessons }));
      expect(prompt).toContain(`Lessons of your last goals (newest last):\n- ${lessons[0]}\n- ${lessons[1]}`);
    }
    const choose = renderPrompt(request('choose', { goal: null, lessons }));
    expect(choose.indexOf('Lessons of your last goals')).toBeGreaterThan(choose.indexOf('Owner goals set aside'));
    expect(choose.indexOf('Lessons of your last goals')).toBeLessThan(choose.indexOf('Reply with GOAL'));
    for (const kind of ['continue', 'blocked', 'wrapup', 'direction'] as const) expect(renderPrompt(request(kind, { lessons }))).not.toContain('Lessons of your');
    expect(renderPrompt(request('choose', { lessons: [] }))).not.toContain('Lessons of your');
  });

  it('GIVEN a continue turn THEN it names the goal and says continue, and stays well under 1500 characters', () => {
    const prompt = renderPrompt(request('continue', { nudges: [NUDGES.tryDifferent] }));
    expect(prompt).toContain('collect 10 oak logs');
    expect(prompt).toMatch(/continue/i);
    expect(prompt.length).toBeLessThan(1000);
  });

  it('GIVEN a continue turn after a refused done claim THEN it says "continue: the check says …"', () => {
    expect(renderPrompt(request('continue', { checkFailure: 'you hold 3 oak logs, not 10' }))).toContain('Continue: the check says you hold 3 oak logs, not 10');
    expect(renderPrompt(request('continue', { checkFailure: 'the check says you hold 3' }))).toContain('Continue: the check says you hold 3');
  });

  it('GIVEN a blocked turn THEN it says take another route, or pick another goal, once', () => {
    const prompt = renderPrompt(request('blocked'));
    expect(prompt).toContain('Take another route, or pick another goal.');
    const withNudge = renderPrompt(request('blocked', { nudges: ['Your last step was blocked: take another route, or pick another goal.'] }));
    expect(withNudge.match(/another route/gi)).toHaveLength(1);
  });

  it('GIVEN a wrapup turn THEN it asks for the lesson for the lab log in a few lines', () => {
    expect(renderPrompt(request('wrapup'))).toContain('Write the lesson of this goal for your lab log in a few lines');
  });

  it('GIVEN a resume turn THEN it carries the goal, the open direction in full and the own part of TASK.md without the mindlink sections', () => {
    const task = `${ownPart(initialTask('steve'))}## Now\nat the forest edge\n`;
    const prompt = renderPrompt(request('resume', { task: `${task}## Owner direction\n#1 (2026-11-28) no TNT\n` }));
    expect(prompt).toContain('collect 10 oak logs');
    expect(prompt).toContain('#3 (2026-11-30) stay near the village\n#2 (2026-11-29) be nice to alex\n#1 (2026-11-28) no TNT');
    expect(prompt).toContain('at the forest edge');
    expect(prompt).not.toContain('## Owner direction');
  });

  it('GIVEN a resume turn with a huge TASK.md THEN only about 6 KB of it is sent', () => {
    const task = `## Now\n${'a long line of notes\n'.repeat(1000)}`;
    const prompt = renderPrompt(request('resume', { task }));
    expect(prompt).toContain(CUT_NOTE);
    expect(prompt.length).toBeLessThan(6144 + 1500);
  });

  it('GIVEN many long open directions on resume THEN the list is bounded and points to TASK.md for the rest', () => {
    const directions = Array.from({ length: 12 }, (_, i) => ({ n: i + 1, text: 'x'.repeat(600), at: '2026-11-30T00:00:00Z' }));
    const prompt = renderPrompt(request('resume', { directions }));
    expect(prompt).toContain('#12 (2026-11-30)');
    expect(prompt).toMatch(/older: see ## Owner direction in TASK\.md/);
    expect(prompt.length).toBeLessThan(4000);
  });

  it('GIVEN a fresh turn THEN it says it is fresh and carries the goal, TASK.md and where the lessons are', () => {
    const prompt = renderPrompt(request('fresh', { task: ownPart(initialTask('steve')) }));
    expect(prompt).toMatch(/fresh session/);
    expect(prompt).toContain('collect 10 oak logs');
    expect(prompt).toContain('## Ambitions');
    expect(prompt).toContain('lab-log.md');
  });

  it('GIVEN a fresh turn with no goal THEN it asks for one', () => {
    expect(renderPrompt(request('fresh', { goal: null }))).toContain('GOAL: <one line>');
  });

  it('GIVEN a question THEN it quotes it, asks for a sentence or two, keeps the goal and carries no direction summary', () => {
    const req = request('question', { message: 'where are you?', nudges: [NUDGES.tryDifferent] });
    const prompt = renderPrompt(req);
    expect(prompt).toContain('where are you?');
    expect(prompt).toContain('Answer in a sentence or two');
    expect(prompt).toContain('Do not change your goal');
    expect(prompt).not.toContain(req.directionSummary);
    expect(prompt).not.toContain(NUDGES.tryDifferent);
    expect(prompt.length).toBeLessThan(400);
  });

  it('GIVEN a new direction THEN it names its number and says do it now / follow it / may become a goal', () => {
    const prompt = renderPrompt(request('direction', { message: 'be nice to alex' }));
    expect(prompt).toContain('New owner direction #2: be nice to alex');
    expect(prompt).toMatch(/do it now/);
    expect(prompt).toMatch(/lasting rule, follow it/);
    expect(prompt).toMatch(/make it your goal/);
    expect(prompt).toContain('DIRECTION: done 2');
  });

  it('GIVEN a self goal THEN the prompt says it was its own choice', () => {
    expect(renderPrompt(request('continue', { goal: { text: 'mine 5 stone', setBy: 'self', baseline: null } }))).toContain('Goal (your own choice): mine 5 stone');
  });

  it('GIVEN the protocol help echoed back as a reply THEN the parser reads nothing from it', () => {
    const p = parseProtocol(PROTOCOL_HELP);
    expect(p.statusGiven).toBe(false);
    expect(p.goal).toBeNull();
    expect(p.subtask).toBeNull();
    expect(p.directionsDone).toEqual([]);
  });
});
