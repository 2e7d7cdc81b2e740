/**
 * `npm run chaos`: every promise of mindlink measured as a number, on the real
 * process. Prints one table and exits non-zero when a figure misses its target.
 *
 *   npm run chaos                      # the full run (50 kills, 1,000+ inputs, a minute of chat faults)
 *   npm run chaos -- --small           # the round CI runs (also in `npm test`)
 *   npm run chaos -- --only kill,input # some scenarios
 *   npm run chaos -- --seed 7          # another seeded run
 *   npm run chaos -- --db              # the kill rounds with the store in PostgreSQL (a real server it starts)
 */
import { removeEvidence } from './harness.ts';
import { runChaos, type ChaosOptions, FULL, SMALL } from './run.ts';

function parseArgs(argv: string[]): ChaosOptions {
  const opts: ChaosOptions = { ...FULL };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const next = (): string => {
      const v = argv[i + 1];
      if (v === undefined) throw new Error(`chaos: ${arg} needs a value`);
      i += 1;
      return v;
    };
    if (arg === '--small') Object.assign(opts, SMALL);
    else if (arg === '--only') opts.only = next().split(',');
    else if (arg === '--seed') opts.seed = Number(next());
    else if (arg === '--rounds') opts.killRounds = Number(next());
    else if (arg === '--inputs') opts.inputs = Number(next());
    else if (arg === '--db') opts.db = true;
    else throw new Error(`chaos: unknown option ${arg}`);
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const result = await runChaos({ ...opts, log: (l) => process.stderr.write(`chaos: ${l}\n`) });
process.stdout.write(`${result.table}\n`);
await removeEvidence();
process.exit(result.failed.length > 0 ? 1 : 0);
