import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../src/logger.ts';
import { TypingIndicator } from '../src/typing.ts';

describe('the typing indicator', () => {
  let sends: string[];
  let fail: boolean;
  let hold: Promise<void> | null;

  const indicator = (maxMs?: number): TypingIndicator =>
    new TypingIndicator({
      send: async (dest) => {
        sends.push(dest);
        if (hold) await hold;
        if (fail) throw new Error('network down');
      },
      everyMs: 4000,
      ...(maxMs !== undefined ? { maxMs } : {}),
      log: silentLogger(),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    sends = [];
    fail = false;
    hold = null;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GIVEN a wait THEN typing is sent at once and every 4 s until it ends, and never after', async () => {
    const typing = indicator();
    const done = typing.start('telegram:1');
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toEqual(['telegram:1']);
    await vi.advanceTimersByTimeAsync(8000);
    expect(sends).toHaveLength(3);
    done();
    done();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sends).toHaveLength(3);
    expect(typing.active('telegram:1')).toBe(false);
  });

  it('GIVEN two waits in one chat THEN one spell, which lasts until both end', async () => {
    const typing = indicator();
    const first = typing.start('discord:7');
    const second = typing.start('discord:7');
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toEqual(['discord:7']);
    first();
    expect(typing.active('discord:7')).toBe(true);
    second();
    expect(typing.active('discord:7')).toBe(false);
  });

  it('GIVEN a message delivered THEN typing is sent again while still wanted, and not once the spell ended', async () => {
    const typing = indicator();
    const done = typing.start('telegram:1');
    await vi.advanceTimersByTimeAsync(0);
    typing.delivered('telegram:1');
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toHaveLength(2);
    done();
    typing.delivered('telegram:1');
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toHaveLength(2);
  });

  it('GIVEN a send in flight THEN settled waits for it, so a message never goes before it', async () => {
    const typing = indicator();
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    typing.start('telegram:1');
    let settled = false;
    void typing.settled('telegram:1').then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('GIVEN a wait nobody ends THEN the spell ends by itself at its cap; a failing send only logs', async () => {
    fail = true;
    const typing = indicator(10_000);
    typing.start('telegram:1');
    await vi.advanceTimersByTimeAsync(9000);
    expect(sends).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(typing.active('telegram:1')).toBe(false);
    expect(sends).toHaveLength(3);
  });
});
