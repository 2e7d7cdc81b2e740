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

describe('splitMessage leaves no crumbs', () => {
  it('GIVEN text just over the limit THEN the cut moves back so the last part is not a crumb either', () => {
    const text = `${'x'.repeat(1995)} at @everyone`;
    const parts = splitMessage(text, 2000);
    // No boundary leaves both parts 200 long: a hard cut in the run of x, nothing lost.
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(p.length).toBeGreaterThanOrEqual(200);
  });

  it('GIVEN paragraphs, lines and sentences THEN a cut prefers a paragraph break, then a line, then a sentence end, then a space', () => {
    const sentence = 'This is a sentence of forty characters. ';
    const para = sentence.repeat(20).trim(); // 799 characters
    expect(splitMessage(`${para}

${para}
${para}`, 2000)).toEqual([para, `${para}
${para}`]);
    expect(splitMessage(`${para} ${para} ${para}`, 2000)[0]?.endsWith('characters.')).toBe(true);
    const words = 'word '.repeat(500).trim();
    expect(splitMessage(words, 2000).every((p) => !p.startsWith(' ') && !p.endsWith(' ') && p.split(' ').every((w) => w === 'word'))).toBe(true);
  });

  it('GIVEN 10,650 characters of sentences THEN no part but the last is under 200 characters and every part ends a sentence', () => {
    const text = Array.from({ length: 180 }, (_, i) => `Sentence ${i} is about where I am right now.${i % 7 === 6 ? '\n' : ' '}`).join('').slice(0, 10_650);
    for (const max of [2000, 1992, 4096]) {
      const parts = splitMessage(text, max);
      parts.slice(0, -1).forEach((p) => {
        expect(p.length).toBeGreaterThanOrEqual(200);
        expect(p.length).toBeLessThanOrEqual(max);
        expect(p).toMatch(/now\.$/);
      });
    }
  });

  it('GIVEN an escaped bracket at a hard cut THEN the backslash stays with its bracket', () => {
    const text = `${'y'.repeat(1999)}\\[${'z'.repeat(300)}`;
    const parts = splitMessage(text, 2000);
    expect(parts[1]?.startsWith('\\[')).toBe(true);
    expect(parts.join('')).toBe(text);
  });
});

describe('fitParts', () => {
  it('GIVEN parts that fit the limit with the prefix THEN they are kept as they are', () => {
    expect(fitParts('hello\nworld', ['hello', 'world'], 20, 8, 5)).toEqual(['hello', 'world']);
  });

  it('GIVEN a post split at the limit WHEN the prefix no longer fits THEN the whole text is split again, leaving no crumb', () => {
    const text = `${'w '.repeat(1100)}end`;
    const out = fitParts(text, splitMessage(text, 2000), 2000, '[lia] '.length, 0);
    expect(out.join(' ')).toBe(text);
    for (const p of out) {
      expect(p.length).toBeLessThanOrEqual(2000 - '[lia] '.length);
      expect(p.length).toBeGreaterThanOrEqual(200);
    }
  });

  it('GIVEN a first part with no room left for the prefix and the mention THEN it is split again, later parts only make room for the prefix', () => {
    const first = 'a'.repeat(15);
    const second = 'b'.repeat(12);
    const out = fitParts(`${first}\n${second}`, [first, second], 20, 8, 5);
    expect(out.join('')).toBe(first + second);
    expect(out[0]!.length).toBeLessThanOrEqual(20 - 8 - 5);
    expect(out.every((p, i) => p.length <= 20 - 8 - (i === 0 ? 5 : 0))).toBe(true);
    expect(out.slice(-1)).toEqual([second]);
  });
});
