/**
 * A periodic health line in the log: memory and event-loop delay of the
 * mindlink process, so an operator (and `npm run bench`) can see what a
 * number of avatars costs without attaching a profiler.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { Logger } from 'pino';

/** One reading of the process's health. */
export interface HealthReading {
  rssMb: number;
  heapUsedMb: number;
  /** The V8 heap's committed size (live objects, garbage not yet collected, room kept for new ones). */
  heapTotalMb: number;
  /** Memory outside the V8 heap that JS objects hold (Buffers, typed arrays' contents). */
  externalMb: number;
  /** Event-loop delay over the interval, in ms. */
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** CPU time (user + system) over the interval, in percent of one core. */
  cpuPct: number;
  /** Garbage collection pauses over the interval: their sum in percent of the interval, and the longest, in ms. */
  gcPct: number;
  gcMaxMs: number;
}

/**
 * Log a `health` line (or `message`: an avatar host logs `host health`) at debug level every `intervalMs`, with the
 * readings `extra` adds (the avatars' physics ticks per second), and return a stop function. The timer does not keep
 * the process alive.
 *
 * @example
 * const stop = startHealthLog(log, 10_000);
 * // … on shutdown:
 * stop();
 */
export function startHealthLog(log: Logger, intervalMs: number, message = 'health', extra: () => Record<string, number | undefined> = () => ({})): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let gcMs = 0;
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  let cpu = process.cpuUsage();
  let at = performance.now();
  const timer = setInterval(() => {
    const mem = process.memoryUsage();
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    const reading: HealthReading = {
      rssMb: round(mem.rss / 1048576),
      heapUsedMb: round(mem.heapUsed / 1048576),
      heapTotalMb: round(mem.heapTotal / 1048576),
      externalMb: round(mem.external / 1048576),
      loopDelayP50Ms: round(histogram.percentile(50) / 1e6),
      loopDelayP99Ms: round(histogram.percentile(99) / 1e6),
      loopDelayMaxMs: round(histogram.max / 1e6),
      cpuPct: round((used.user + used.system) / 10 / Math.max(1, now - at)),
      gcPct: round((gcMs * 100) / Math.max(1, now - at)),
      gcMaxMs: round(gcMaxMs),
    };
    gcMs = 0;
    gcMaxMs = 0;
    cpu = process.cpuUsage();
    at = now;
    histogram.reset();
    log.debug({ pid: process.pid, ...reading, ...extra() }, message);
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
    gc.disconnect();
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
