import { describe, expect, it } from 'vitest';
import { characterCount, isTooLong, MAX_MESSAGE_LENGTH } from '../../src/classify.ts';
import { coresPerTest } from './console-harness.ts';

const start = coresPerTest('rough');

describe('rough edges a careless user finds', () => {
  it('GIVEN commands with missing or wrong arguments THEN the replies are in plain words, never the validation library\'s', async () => {
    const r = await start();
    r.send('/goal');
    await r.line(/^\[mindlink\] text: say what the goal is\. Usage: \/goal <text> \[avatar\]$/);
    r.send('/avatar create bob engine:bogus');
    await r.line(/^\[mindlink\] There is no "bogus" engine here; engines: scripted\.$/);
    r.send('/link demo sideways');
    await r.line(/^\[mindlink\] mode: /);
    for (const l of r.lines) expect(l).not.toMatch(/Invalid input|expected string|received undefined|Invalid option/);
  });

  it('GIVEN "/help extra" or "/help goal" THEN help answers (the list, or the one command), never "Too many words"', async () => {
    const r = await start();
    r.send('/help extra');
    await r.line(/^\[mindlink\] There is no \/extra command you can use here; these are the ones you can\.$/);
    await r.line(/^\[mindlink\] \/goal <text> \[avatar\] — /);
    r.send('/help goal');
    await r.line(/^\[mindlink\] \/goal <text> \[avatar\] — Give an avatar a new goal/);
    expect(r.lines.filter((l) => /Too many words/.test(l))).toEqual([]);
  });

  it('GIVEN 1,999 characters and an emoji THEN the message is 2,000 characters and is taken; one more is refused with the right count', async () => {
    const text = `${'a'.repeat(MAX_MESSAGE_LENGTH - 1)}😀`;
    expect(text.length).toBe(MAX_MESSAGE_LENGTH + 1);
    expect(characterCount(text)).toBe(MAX_MESSAGE_LENGTH);
    expect(isTooLong(text)).toBe(false);
    expect(characterCount('👩‍👩‍👧🇫🇷é')).toBe(3);
    const r = await start();
    r.send(text);
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    r.send(`${text}b`);
    await r.line(/^\[mindlink\] That message is 2001 characters; the limit is 2000\. Nothing was stored/);
  });
});
