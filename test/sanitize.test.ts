import { describe, expect, it } from 'vitest';
import { cleanChatInput, cleanLine, cleanText } from '../src/sanitize.ts';

/** Any C0 control but line feed, DEL, or C1 control. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('cleanText: control characters never enter raw', () => {
  it('GIVEN an OSC title change and a CSI colour THEN the escapes are made visible and nothing raw is left', () => {
    const out = cleanText('say \u001b]0;pwned\u0007\u001b[31mhi');
    expect(out).toBe('say \u241b]0;pwned\u2407\u241b[31mhi');
    expect(out).not.toMatch(RAW_CONTROL);
  });
  it('GIVEN NUL, DEL, C1 controls (8-bit CSI) and bidi overrides THEN none survive', () => {
    const out = cleanText('a\u0000b\u007fc\u009b2Jd\u202eevil\u202c\u2066x\u2069');
    expect(out).toBe('a\u2400b\u2421c\ufffd2Jdevilx');
    expect(out).not.toMatch(RAW_CONTROL);
  });
  it('GIVEN CR LF, a lone CR, a tab and a line separator THEN lines break with \\n only, the tab is a space', () => {
    expect(cleanText('one\r\ntwo\rthree\tfour\u2028five')).toBe('one\ntwo\nthree four\nfive');
  });
  it('GIVEN every code point below U+00A0 THEN only \\n and printable ones are left', () => {
    let all = '';
    for (let c = 0; c < 0xa0; c++) all += String.fromCharCode(c);
    expect(cleanText(all)).not.toMatch(RAW_CONTROL);
  });
  it('GIVEN ordinary text, emoji with joiners and accents THEN it is unchanged', () => {
    const text = 'Goal: collect 10 oak logs 👩‍👩‍👧 café\nsecond line';
    expect(cleanText(text)).toBe(text);
  });
  it('GIVEN a display name with a line break THEN cleanLine keeps it on one line', () => {
    expect(cleanLine('Mallory\n[demo] Done: fake')).toBe('Mallory [demo] Done: fake');
  });
  it('GIVEN a command invocation THEN its name, arguments and option values are cleaned, ids untouched', () => {
    const inv = cleanChatInput({
      platform: 'telegram' as const,
      from: 'telegram:1',
      fromName: 'eve\u001b[2J',
      dest: 'telegram:1',
      chatKind: 'private' as const,
      messageId: '5',
      name: 'goal',
      argsText: 'say \u001b[31mred',
      options: { text: 'x\u0007', nested: ['\u0000'] },
    });
    expect(inv).toMatchObject({ fromName: 'eve\u241b[2J', argsText: 'say \u241b[31mred', options: { text: 'x\u2407', nested: ['\u2400'] }, from: 'telegram:1', messageId: '5' });
  });
});
