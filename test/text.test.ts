import { describe, expect, it } from 'vitest';
import { registerSecret } from '../src/logger.ts';
import { cutOnWord, cutText, oneLine, plainGoal } from '../src/text.ts';

describe('text shaping', () => {
  it('GIVEN line breaks, tabs, NEL and double spaces THEN oneLine makes one line with single spaces', () => {
    expect(oneLine('  go\r\nto\t\t10\u0085 64\u2028 10  ')).toBe('go to 10 64 10');
  });

  it('GIVEN a long text THEN cutText cuts visibly with … and never splits a character', () => {
    expect(cutText('abcdef', 6)).toBe('abcdef');
    expect(cutText('abcdef', 4)).toBe('abc…');
    expect(cutText('ab😀cd', 4)).toBe('ab…');
    expect(cutText('abc', 0)).toBe('');
  });

  it('GIVEN a word ending in the second half of the room THEN cutOnWord cuts there, else like cutText', () => {
    expect(cutOnWord('collect ten oak logs', 16)).toBe('collect ten oak…');
    expect(cutOnWord('collect ten oak logs', 20)).toBe('collect ten oak logs');
    expect(cutOnWord('collect tenoaklogsnow', 12)).toBe('collect…');
    expect(cutOnWord('go supercalifragilistic', 12)).toBe('go supercal…');
  });

  it('GIVEN markup, a link and a secret THEN plainGoal is plain, scrubbed, one line and cut on a word', () => {
    registerSecret('s3cret-value-xyz');
    const shown = plainGoal('**build** a <b>house</b> near [the river](http://x.y)\nwith s3cret-value-xyz and many many more words', 60);
    expect(shown).toBe('build a house near the river with [redacted] and many many…');
    expect(shown.length).toBeLessThanOrEqual(60);
  });

  it('GIVEN markdown and HTML formatting THEN plainGoal removes every kind of it', () => {
    expect(plainGoal('__collect__ _ten_ ~~old~~ ||secret|| `logs` <i>now</i><br/>')).toBe('collect ten old secret logs now');
    expect(plainGoal('# Heading\n> quoted\n>> twice')).toBe('Heading quoted twice');
  });

  it('GIVEN ids, codes, placeholders, numbers and comparisons THEN plainGoal keeps them as written', () => {
    expect(plainGoal('oak_planks cannot be crafted (bad_params)')).toBe('oak_planks cannot be crafted (bad_params)');
    expect(plainGoal('I can only go to coordinates (or "come to <player>")')).toBe('I can only go to coordinates (or "come to <player>")');
    expect(plainGoal('finish direction #3 if x > 10')).toBe('finish direction #3 if x > 10');
  });
});
