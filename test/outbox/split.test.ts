import { describe, expect, it } from 'vitest';
import { fitParts, splitMessage } from '../../src/outbox/split.ts';

/** A lone surrogate means a code point was cut in half. */
function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

describe('splitMessage', () => {
  it('GIVEN a text within the limit THEN it is one part, unchanged', () => {
    expect(splitMessage('hello\nworld', 4096)).toEqual(['hello\nworld']);
  });

  it('GIVEN a blank text THEN there are no parts at all', () => {
    expect(splitMessage('', 10)).toEqual([]);
    expect(splitMessage(' \n \n', 10)).toEqual([]);
  });

  it('GIVEN lines that together exceed the limit THEN each line is kept whole and parts join back to the text', () => {
    const lines = ['alpha one', 'bravo two', 'charlie three', 'delta four', 'echo five'];
    const text = lines.join('\n');
    const parts = splitMessage(text, 20);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(20);
      for (const line of part.split('\n')) expect(lines).toContain(line);
    }
    expect(parts.join('\n')).toBe(text);
  });

  it('GIVEN a 10 000-char text of short lines and the limit 4096 THEN 3 parts ≤ 4096, split only between lines, nothing lost', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(3, '0')}`); // 8 chars + '\n'
    const text = lines.join('\n').padEnd(10_000, '.').slice(0, 10_000);
    expect(text.length).toBe(10_000);
    const parts = splitMessage(text, 4096);
    expect(parts).toHaveLength(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4096);
      expect(part).not.toBe('');
    }
    expect(parts.join('\n')).toBe(text);
  });

  it('GIVEN one giant line with spaces THEN it is split at spaces and no word is cut', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const text = words.join(' ');
    const parts = splitMessage(text, 4096);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4096);
      expect(part.length).toBeGreaterThan(0);
    }
    expect(parts.join(' ').split(' ')).toEqual(words);
  });

  it('GIVEN one giant line with no space THEN it is split hard into full parts and nothing is lost', () => {
    const text = 'x'.repeat(10_000);
    const parts = splitMessage(text, 4096);
    expect(parts.map((p) => p.length)).toEqual([4096, 4096, 1808]);
    expect(parts.join('')).toBe(text);
  });

  it('GIVEN a long line among short ones THEN the short lines around it stay whole', () => {
    const text = `before\n${'y'.repeat(25)}\nafter`;
    const parts = splitMessage(text, 10);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(10);
    expect(parts[0]).toBe('before');
    expect(parts.at(-1)?.endsWith('after')).toBe(true);
    expect(parts.join('').replace(/\n/g, '')).toBe(`before${'y'.repeat(25)}after`);
  });

  it('GIVEN emoji and combining marks in a line with no space THEN no code point or grapheme is cut', () => {
    const unit = '😀👍🏽e\u0301👨‍👩‍👧'; // surrogate pairs, a skin-tone modifier, a combining accent, a ZWJ family
    const text = unit.repeat(200);
    for (const max of [7, 10, 33, 100]) {
      const parts = splitMessage(text, max);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(max);
        expect(part.length).toBeGreaterThan(0);
        expect(hasLoneSurrogate(part)).toBe(false);
        // A part never starts with a modifier, a combining mark or a joiner left over from a cut.
        expect(part).not.toMatch(/^(?:\u{1F3FD}|\u0301|\u200D)/u);
      }
    }
  });

  it('GIVEN a grapheme longer than the limit THEN it is cut between code points, never inside one', () => {
    const family = '👨‍👩‍👧‍👦'; // 11 UTF-16 units, one grapheme
    const parts = splitMessage(family.repeat(3), 4);
    expect(parts.join('')).toBe(family.repeat(3));
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4);
      expect(hasLoneSurrogate(part)).toBe(false);
    }
  });

  it('GIVEN blank lines at a split point THEN no part is blank or starts with a blank line', () => {
    const text = `${'a'.repeat(10)}\n\n\n\n${'b'.repeat(10)}\n\n`;
    const parts = splitMessage(text, 10);
    expect(parts).toEqual(['a'.repeat(10), 'b'.repeat(10)]);
  });
});

describe('fitParts', () => {
  it('GIVEN parts that fit the limit with the prefix THEN they are kept as they are', () => {
    expect(fitParts(['hello', 'world'], 20, 8, 5)).toEqual(['hello', 'world']);
  });

  it('GIVEN a first part with no room left for the prefix and the mention THEN it is split again, later parts only make room for the prefix', () => {
    const first = 'a'.repeat(15);
    const second = 'b'.repeat(12);
    const out = fitParts([first, second], 20, 8, 5);
    expect(out.join('')).toBe(first + second);
    expect(out[0]!.length).toBeLessThanOrEqual(20 - 8 - 5);
    expect(out.every((p, i) => p.length <= 20 - 8 - (i === 0 ? 5 : 0))).toBe(true);
    expect(out.slice(-1)).toEqual([second]);
  });
});
