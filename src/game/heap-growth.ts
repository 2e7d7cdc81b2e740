/**
 * How far the V8 heap of a process that plays avatars may grow past what it
 * kept at its last full collection before it collects again.
 *
 * Left to itself, V8 lets a busy heap grow up to four times what survived
 * (its growing factor follows how fast the process allocates against how
 * fast it collects, and avatars that walk and search paths allocate fast):
 * measured on an avatar host with 15 working avatars, 390 MB of heap
 * committed for about 125 MB of live objects, two thirds of what each more
 * avatar cost in memory. With the factor held at 1.5 the same host committed
 * less than half as much, for about a tenth more time in garbage collection
 * (docs/benchmarks.md). An operator's own `--heap-growing-percent` stands.
 */
import { setFlagsFromString } from 'node:v8';

/** The heap may grow by this much (percent) past what survived its last full collection. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Hold the heap's growth at {@link HEAP_GROWING_PERCENT} (not when the process was started with its own
 * `--heap-growing-percent`; setting it again changes nothing). Returns whether it set the flag.
 *
 * @example
 * limitHeapGrowth(); // before the first bot
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return false;
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
