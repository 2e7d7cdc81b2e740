/**
 * A profiled process profiles the processes it starts: the embedded world and
 * the avatar hosts get the `--cpu-prof` / `--heap-prof` flags mindlink was
 * started with (each writes its own file into the same folder), so one
 * `node --cpu-prof --cpu-prof-dir=DIR src/main.ts` profiles the whole product
 * (`npm run bench -- scale` with `SCALE_CPU_PROF`, see docs/benchmarks.md).
 */

/** Flags whose value may follow as the next argument. */
const WITH_VALUE = new Set(['--cpu-prof-dir', '--cpu-prof-interval', '--heap-prof-dir', '--heap-prof-interval']);

/**
 * The profiling flags among `execArgv` (a fixed file name, `--cpu-prof-name`, is left out: each child names its own).
 *
 * @example
 * fork(entry, args, { execArgv: [...loaderArgs(), ...profilingArgs()] });
 */
export function profilingArgs(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i] ?? '';
    const name = arg.split('=')[0] ?? '';
    if (!/^--(cpu|heap)-prof/.test(name) || /-name$/.test(name)) continue;
    out.push(arg);
    const next = execArgv[i + 1];
    if (WITH_VALUE.has(arg) && next !== undefined) {
      out.push(next);
      i += 1;
    }
  }
  return out;
}
