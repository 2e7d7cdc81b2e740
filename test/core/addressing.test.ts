import { describe, expect, it } from 'vitest';
import { coresPerTest } from './console-harness.ts';

const start = coresPerTest('addr');

describe('empty messages and addressing slips with one avatar', () => {
  it('GIVEN "demo:" alone, a lone zero-width space and "/" alone THEN each is refused and no direction is stored', async () => {
    const r = await start();
    r.send('demo:');
    await r.line(/^\[demo\] Say something after "demo:", e\.g\. "demo: Goal: collect 10 oak logs"\. Nothing was stored\.$/);
    r.send('\u200b');
    await r.line(/^\[demo\] That message is empty\. Nothing was stored\.$/);
    r.send('/');
    await r.line(/^\[demo\] That has no words in it\. Nothing was stored\.$/);
    r.send('stay close');
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    expect(r.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['stay close']);
  });

  it('GIVEN "nobody: Goal: …" and "demoo: …" THEN they are answered "no avatar called …", and nothing is stored', async () => {
    const r = await start();
    r.send('nobody: Goal: collect 3 dirt');
    await r.line(/^\[mindlink\] There is no avatar called "nobody" here; avatars here: demo\. Nothing was stored\.$/);
    r.send('demoo: stay close');
    await r.line(/^\[mindlink\] There is no avatar called "demoo" here \(did you mean demo\?\)\. Nothing was stored\.$/);
    r.send('note: bring torches');
    await r.line(/^\[demo\] Noted as direction #1\.$/);
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('explore');
    expect(r.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['note: bring torches']);
  });

  it('GIVEN "/goal collect 1 oak log demoo" THEN it is refused and the goal is unchanged; with the right name it is set', async () => {
    const r = await start();
    r.send('/goal collect 1 oak log demoo');
    await r.line(/^\[mindlink\] There is no avatar called "demoo"\. Nothing was changed\. \(If "demoo" belongs to the text, add avatar:<name>\.\)$/);
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('explore');
    r.send('/goal collect 1 oak log demo');
    await r.line(/^\[demo\] New goal from console: collect 1 oak log\.$/);
  });
});

describe('identities typed into /owner', () => {
  it('GIVEN /owner demo telegram:abc or discord:123 THEN each is refused with what a real identity looks like and the owner stays', async () => {
    const r = await start();
    r.send('/owner demo telegram:abc');
    await r.line(/^\[mindlink\] identity: a Telegram identity is telegram: and the user's numeric id, e\.g\. telegram:123456789\. Usage: \/owner /);
    r.send('/owner demo discord:123');
    await r.line(/^\[mindlink\] identity: a Discord identity is discord: and the user's 17–20 digit id/);
    expect(r.core.avatars.get('demo')?.owner).toBe('console');
    r.send('/owner demo telegram:123456789');
    await r.line(/^\[demo\] Owner is now a Telegram user \(telegram:123456789\)\.$/);
  });
});
