import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Direction, DoneDirection } from '../../src/store/schema.ts';
import {
  CUT_NOTE,
  FINISHED_SHOWN,
  MINDLINK_SECTIONS,
  OWN_REWRITE_LIMIT,
  OWN_SECTIONS,
  type FinishedGoalLine,
  initialTask,
  needsRewrite,
  ownPart,
  ownPartForPrompt,
  ownSize,
  renderTask,
  sectionText,
  withSections,
} from '../../src/task/task-md.ts';
import { TaskFile } from '../../src/task/task-file.ts';

const dir = (n: number, text: string): Direction => ({ n, text, at: `2026-11-${String(n).padStart(2, '0')}T08:00:00.000Z`, by: null });
const done = (n: number, text: string): DoneDirection => ({ ...dir(n, text), doneAt: '2026-12-01T09:00:00.000Z' });
const finished = (i: number): FinishedGoalLine => ({ text: `goal ${i}`, setBy: i % 2 ? 'self' : 'owner', ended: `2026-12-${String(i).padStart(2, '0')}T10:00:00.000Z`, outcome: 'done' });
const none = { open: [], done: [], finished: [] };

/** The body of a mindlink section in rendered TASK.md, as lines. */
function sectionLines(md: string, heading: string): string[] {
  const text = sectionText(md, heading);
  return text === '' ? [] : text.split('\n');
}

/** An own part a real avatar might write: odd whitespace, unicode, custom sections, CRLF, text before the first heading. */
const ODD_OWN = [
  'Notes before any heading — ✓ ünïcödé 🪓\t\t',
  '',
  '# TASK.md — steve',
  '## Goal  ',
  '  collect 10 oak logs   ',
  '',
  '',
  '## Ambitions\r',
  '- full iron tools\r',
  '## My secret section',
  '    indented code-ish line',
  '```',
  '## Owner direction (inside a fence: not a heading)',
  '```',
  '### Sub heading',
  '\t tab-led line',
  "## Done, don't redo",
  '- 2026-11-30 crafting table',
  '', // trailing newline
].join('\n');

describe('initialTask', () => {
  it('GIVEN a new avatar THEN TASK.md has its name, the 6 own sections with seed text and the 3 mindlink sections empty, in order', () => {
    const md = initialTask('steve');
    expect(md.startsWith('# TASK.md — steve\n')).toBe(true);
    const headings = md.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(headings).toEqual([...OWN_SECTIONS, ...MINDLINK_SECTIONS]);
    expect(sectionText(md, 'Ambitions')).toMatch(/iron tools/);
    expect(sectionText(md, 'Ambitions')).toMatch(/shelter/);
    expect(sectionText(md, 'Ambitions')).toMatch(/food/);
    for (const s of MINDLINK_SECTIONS) expect(sectionText(md, s)).toBe('');
    expect(ownSize(md)).toBeLessThan(2048);
  });
});

describe('ownPart / renderTask', () => {
  it('GIVEN a file with no mindlink sections THEN the own part is the whole file', () => {
    expect(ownPart(ODD_OWN)).toBe(ODD_OWN);
  });

  it('GIVEN an odd own part WHEN mindlink sections are rendered twice THEN the own part stays byte for byte and the file is stable', () => {
    const parts = { open: [dir(1, 'stay near the village'), dir(2, 'no TNT')], done: [done(0 + 3, 'say hi')], finished: [finished(1)] };
    const once = renderTask(ODD_OWN, parts);
    expect(once.startsWith(ODD_OWN)).toBe(true);
    expect(ownPart(once)).toBe(ODD_OWN);
    expect(renderTask(once, parts)).toBe(once);
    const other = renderTask(once, { open: [dir(2, 'no TNT')], done: [], finished: [] });
    expect(ownPart(other)).toBe(ODD_OWN);
    expect(sectionLines(other, 'Owner direction')).toEqual(['#2 (2026-11-02) no TNT']);
  });

  it('GIVEN mindlink sections in the middle and twice THEN they are removed from there and appended once at the end, in order', () => {
    const md = [
      '# T',
      '## Owner direction',
      '#9 (2026-01-01) stale',
      '## Goal',
      'build a hut',
      '## finished goals',
      '- 2025-01-01 done: stale goal (self)',
      '# Appendix written by the avatar',
      'keep me',
      '## Owner direction',
      '#8 (2026-01-01) stale too',
      '',
    ].join('\n');
    const own = '# T\n## Goal\nbuild a hut\n# Appendix written by the avatar\nkeep me\n';
    expect(ownPart(md)).toBe(own);
    const out = renderTask(md, { open: [dir(1, 'a')], done: [], finished: [] });
    expect(out).toBe(`${own}## Owner direction\n#1 (2026-11-01) a\n\n## Done direction\n\n## Finished goals\n`);
    expect(out).not.toContain('stale');
  });

  it('GIVEN the avatar wrote its own lines under a mindlink heading THEN they are kept (moved above the mindlink sections), not cut', () => {
    const md = [
      '## Goal',
      'x',
      '## Owner direction',
      '#1 (2026-11-01) a',
      'my own note about #1',
      '',
      '## Finished goals',
      '- 2026-12-01 done: goal 1 (self)',
      '',
      'PS: remember the cave at 10 64 -20',
      '```',
      '- 2026-01-01 inside a fence',
      '```',
      '',
    ].join('\n');
    const own = '## Goal\nx\nmy own note about #1\n\nPS: remember the cave at 10 64 -20\n```\n- 2026-01-01 inside a fence\n```\n';
    expect(ownPart(md)).toBe(own);
    const out = renderTask(md, { open: [dir(1, 'a')], done: [], finished: [finished(1)] });
    expect(out).toBe(`${own}## Owner direction\n#1 (2026-11-01) a\n\n## Done direction\n\n## Finished goals\n- 2026-12-01 done: goal 1 (self)\n`);
    expect(ownPart(out)).toBe(own);
    expect(renderTask(out, { open: [dir(1, 'a')], done: [], finished: [finished(1)] })).toBe(out);
  });

  it('GIVEN an own part with no final newline THEN one newline is added before the mindlink sections and nothing else changes', () => {
    const out = renderTask('## Goal\nx', none);
    expect(out.startsWith('## Goal\nx\n## Owner direction\n')).toBe(true);
    expect(ownPart(out)).toBe('## Goal\nx\n');
  });

  it('GIVEN open directions THEN each is listed in full on one line', () => {
    const long = 'w'.repeat(1900);
    const out = renderTask(initialTask('steve'), { open: [dir(1, long), dir(2, 'two\nlines')], done: [], finished: [] });
    expect(sectionLines(out, 'Owner direction')).toEqual([`#1 (2026-11-01) ${long}`, '#2 (2026-11-02) two lines']);
  });

  it('GIVEN 14 done directions THEN Done direction shows the 10 latest, each ≤ 300 chars', () => {
    const all = Array.from({ length: 14 }, (_, i) => done(i + 1, `${i + 1} `.repeat(200)));
    const lines = sectionLines(renderTask(initialTask('steve'), { open: [], done: all, finished: [] }), 'Done direction');
    expect(lines).toHaveLength(10);
    expect(lines[0]?.startsWith('#5 (2026-11-05, done 2026-12-01) 5 5')).toBe(true);
    expect(lines[9]?.startsWith('#14 ')).toBe(true);
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(300);
      expect(l.endsWith('…')).toBe(true);
    }
  });

  it('GIVEN 20 finished goals THEN Finished goals shows the 15 latest as `- YYYY-MM-DD done: text (owner|self)`', () => {
    const all = Array.from({ length: 20 }, (_, i) => finished(i + 1));
    const lines = sectionLines(renderTask(initialTask('steve'), { open: [], done: [], finished: all }), 'Finished goals');
    expect(lines).toHaveLength(FINISHED_SHOWN);
    expect(lines[0]).toBe('- 2026-12-06 done: goal 6 (owner)');
    expect(lines[14]).toBe('- 2026-12-20 done: goal 20 (owner)');
    expect(lines[1]).toBe('- 2026-12-07 done: goal 7 (self)');
  });

  it('GIVEN a huge direction list THEN it does not count toward the own size', () => {
    const md = initialTask('steve');
    const big = renderTask(md, { open: Array.from({ length: 12 }, (_, i) => dir(i + 1, 'q'.repeat(666))), done: [], finished: [] });
    expect(ownSize(big)).toBe(ownSize(md));
    expect(needsRewrite(big)).toBe(false);
    expect(needsRewrite(`${ownPart(md)}${'n'.repeat(OWN_REWRITE_LIMIT)}`)).toBe(true);
    // Text the avatar appends after the last mindlink heading is still the avatar's.
    expect(needsRewrite(`${md}${'n'.repeat(OWN_REWRITE_LIMIT)}`)).toBe(true);
  });

  it('GIVEN unicode own text THEN ownSize counts UTF-8 bytes', () => {
    expect(ownSize('🪓é')).toBe(6);
  });
});

describe('ownPartForPrompt', () => {
  it('GIVEN an own part under the limit THEN it comes whole without the mindlink sections', () => {
    const md = renderTask(initialTask('steve'), { open: [dir(1, 'no TNT')], done: [], finished: [] });
    expect(ownPartForPrompt(md)).toBe(ownPart(md));
    expect(ownPartForPrompt(md)).not.toContain('no TNT');
  });

  it('GIVEN an own part over 6 KB THEN it is cut on a line boundary within 6 KB with a note', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${'é'.repeat(10)}`);
    const md = `${lines.join('\n')}\n`;
    const out = ownPartForPrompt(md);
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(6144);
    expect(out.trimEnd().endsWith(CUT_NOTE)).toBe(true);
    const body = out.slice(0, out.lastIndexOf(`\n${CUT_NOTE}`));
    for (const l of body.split('\n')) expect(lines).toContain(l);
  });

  it('GIVEN one line longer than the limit THEN it is cut inside the line without splitting a character', () => {
    const out = ownPartForPrompt('🪓'.repeat(1000), 100);
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(100);
    expect(out).toContain(CUT_NOTE);
    expect(out).not.toContain('\uFFFD');
  });
});

describe('sectionText', () => {
  it('GIVEN a heading THEN its body is returned trimmed, case-insensitively; absent → empty', () => {
    const md = '# T\n## Ambitions\n- iron\n- a shelter\n\n## Now\nforest\n';
    expect(sectionText(md, 'ambitions')).toBe('- iron\n- a shelter');
    expect(sectionText(md, 'Now')).toBe('forest');
    expect(sectionText(md, 'Plan')).toBe('');
  });
});

describe('withSections', () => {
  it('GIVEN an odd own part THEN only the named bodies change, byte for byte elsewhere, and a missing section is added at the end', () => {
    const next = withSections(ODD_OWN, { goal: 'craft a wooden pickaxe', Plan: '- gather logs\n- craft planks' });
    expect(next).toBe(
      ODD_OWN.replace('## Goal  \n  collect 10 oak logs   \n\n\n', '## Goal  \ncraft a wooden pickaxe\n\n') + '\n## Plan\n- gather logs\n- craft planks\n',
    );
    expect(withSections(next, { goal: 'craft a wooden pickaxe', Plan: '- gather logs\n- craft planks' })).toBe(next);
  });

  it('GIVEN a body with a heading, a fence or a mindlink heading in it THEN it stays text: no section or code block opens', () => {
    const own = ownPart(initialTask('steve'));
    const next = withSections(own, { Goal: '## Owner direction\n```\n# top', Now: 'here' });
    expect(sectionText(next, 'Goal')).toBe('\\## Owner direction\n\\```\n\\# top');
    expect(sectionText(next, 'Now')).toBe('here');
    expect(ownPart(next)).toBe(next);
  });
});

describe('TaskFile', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'mindlink-task-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('GIVEN no file WHEN read THEN TASK.md is created with the initial text', async () => {
    const task = new TaskFile(join(root, 'steve'), 'steve');
    expect(task.path).toBe(join(root, 'steve', 'TASK.md'));
    expect(task.labPath).toBe(join(root, 'steve', 'lab-log.md'));
    const md = await task.read();
    expect(md).toBe(initialTask('steve'));
    expect(await readFile(task.path, 'utf8')).toBe(md);
  });

  it('GIVEN an avatar-edited TASK.md WHEN updated THEN only the mindlink sections change and no temp file is left', async () => {
    const task = new TaskFile(root, 'steve');
    await writeFile(task.path, ODD_OWN);
    await task.update({ open: [dir(1, 'stay near the village')], done: [done(2, 'say hi')], finished: [finished(3)] });
    const md = await readFile(task.path, 'utf8');
    expect(ownPart(md)).toBe(ODD_OWN);
    expect(sectionLines(md, 'Owner direction')).toEqual(['#1 (2026-11-01) stay near the village']);
    expect(sectionLines(md, 'Done direction')).toEqual(['#2 (2026-11-02, done 2026-12-01) say hi']);
    expect(sectionLines(md, 'Finished goals')).toEqual(['- 2026-12-03 done: goal 3 (self)']);
    expect(await readdir(root)).toEqual(['TASK.md']);
  });

  it('GIVEN many concurrent updates THEN they are serialised and the last one wins', async () => {
    const task = new TaskFile(root, 'steve');
    const other = new TaskFile(root, 'steve');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? task : other).update({ open: [dir(i + 1, `d${i + 1}`)], done: [], finished: [] })),
    );
    const md = await task.read();
    expect(sectionLines(md, 'Owner direction')).toEqual(['#20 (2026-11-20) d20']);
    expect(ownPart(md)).toBe(ownPart(initialTask('steve')));
    expect((await readdir(root)).sort()).toEqual(['TASK.md']);
  });

  it('GIVEN lab entries THEN each is appended under its ISO date', async () => {
    const task = new TaskFile(join(root, 'a'), 'a');
    await Promise.all([
      task.appendLab('Trees are east of spawn.\n', new Date('2026-12-01T10:00:00.000Z')),
      task.appendLab('Bring an axe.', new Date('2026-12-02T10:00:00.000Z')),
    ]);
    expect(await readFile(task.labPath, 'utf8')).toBe(
      '## 2026-12-01T10:00:00.000Z\nTrees are east of spawn.\n\n## 2026-12-02T10:00:00.000Z\nBring an axe.\n',
    );
  });

  it('GIVEN a lab log of seven entries THEN its lessons are the last five, one line each, short, a repeated one said once with how often; none without a lab log', async () => {
    const task = new TaskFile(join(root, 'lessons'), 'l');
    expect(await task.lessons(5)).toEqual([]);
    const entries = ['First.', 'Second.', 'Lesson: trees are\neast of spawn.', 'Same again.', 'Same again.', `Lesson: ${'long words '.repeat(30)}`, 'Same again.'];
    for (const [i, e] of entries.entries()) await task.appendLab(e, new Date(Date.UTC(2026, 11, i + 1)));
    const lessons = await task.lessons(5);
    expect(lessons).toEqual(['trees are east of spawn.', expect.stringMatching(/^long words long words .*…$/) as unknown as string, 'Same again. (3 times)']);
    expect(lessons[1]?.length).toBeLessThanOrEqual(100);
  });

  it('GIVEN a lab log of a few megabytes THEN only its end is read, and its last lessons are whole', async () => {
    const task = new TaskFile(join(root, 'long'), 'l');
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(join(root, 'long'), { recursive: true });
    const old = Array.from({ length: 30_000 }, (_, i) => `## 2020-01-01T00:00:00.000Z\nOld lesson ${i}: ${'ü'.repeat(60)}\n`).join('\n');
    await writeFile(task.labPath, `${old}\n`);
    await task.appendLab('The newest lesson.', new Date('2026-12-01T00:00:00.000Z'));
    const lessons = await task.lessons(3);
    expect(lessons).toHaveLength(3);
    expect(lessons[2]).toBe('The newest lesson.');
    expect(lessons[0]).toMatch(/^Old lesson 29998: ü+…?$/);
  });

  it('GIVEN an update with nothing new THEN the file is not rewritten', async () => {
    const task = new TaskFile(root, 'steve');
    await task.update(none);
    const past = new Date('2020-01-01T00:00:00.000Z');
    await utimes(task.path, past, past);
    await task.update(none);
    expect((await stat(task.path)).mtime.getTime()).toBe(past.getTime());
  });

  it("GIVEN the avatar's own sections set THEN mindlink's sections stay as they were, and a mindlink section is refused", async () => {
    const task = new TaskFile(root, 'steve');
    await task.update({ open: [dir(1, 'stay near the village')], done: [], finished: [finished(3)] });
    await task.setOwnSections({ Goal: 'collect 3 oak logs', Now: 'At 1 64 2.' });
    const md = await readFile(task.path, 'utf8');
    expect(sectionText(md, 'Goal')).toBe('collect 3 oak logs');
    expect(sectionText(md, 'Now')).toBe('At 1 64 2.');
    expect(sectionText(md, 'Ambitions')).toBe(sectionText(initialTask('steve'), 'Ambitions'));
    expect(sectionLines(md, 'Owner direction')).toEqual(['#1 (2026-11-01) stay near the village']);
    expect(sectionLines(md, 'Finished goals')).toEqual(['- 2026-12-03 done: goal 3 (self)']);
    await expect(task.setOwnSections({ 'Owner direction': 'nothing' })).rejects.toThrow(/a section mindlink keeps/);
    expect(await readFile(task.path, 'utf8')).toBe(md);
  });
});
