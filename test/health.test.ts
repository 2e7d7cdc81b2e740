import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startHealthLog, type HealthReading } from '../src/health.ts';

describe('the health line', () => {
  it('GIVEN a process making garbage THEN its health lines give the time its collections paused it and the longest pause', async () => {
    const readings: HealthReading[] = [];
    let heard: () => void = () => undefined;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) readings.push(JSON.parse(line) as HealthReading);
        heard();
        done();
      },
    });
    const stop = startHealthLog(pino({ level: 'debug' }, sink), 20);
    try {
      // Short-lived arrays until a line has seen a collection: young-generation collections come every few MB.
      let kept: number[][] = [];
      while (!readings.some((r) => r.gcMaxMs > 0)) {
        for (let i = 0; i < 20_000; i += 1) kept.push(new Array(16).fill(i));
        kept = [];
        await new Promise<void>((resolve) => (heard = resolve));
      }
      const withGc = readings.find((r) => r.gcMaxMs > 0)!;
      expect(withGc.gcPct).toBeGreaterThan(0);
      expect(withGc.gcPct).toBeLessThanOrEqual(100);
      for (const r of readings) {
        expect(typeof r.gcPct).toBe('number');
        expect(r.gcMaxMs).toBeGreaterThanOrEqual(0);
      }
    } finally {
      stop();
    }
  });
});
