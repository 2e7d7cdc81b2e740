/**
 * `npm run bench -- scale --hosts nats`: the scale bench's run (`scale.ts`)
 * with its avatars on avatar hosts over NATS (docs/many-machines.md) instead
 * of child processes, beside a run with `AVATAR_HOSTS` children on the same
 * machine, and the two compared: the core's event-loop p99 and `/status`
 * round trip at each step, NATS over IPC (the target: within 1.5×).
 *
 * A real nats-server (Debian's) on a free port, and `SCALE_NATS_HOSTS` hosts
 * (default 2) started as `npm run host` starts them, each with its own
 * DATA_DIR; their log lines join the core's, so the run reads their spawns and
 * health as it reads a child host's. Not a default export: `scale.ts` runs it.
 */
import { once } from 'node:events';
import { startHost } from '../test/e2e/process.ts';
import { startNats } from '../test/nats-server.ts';
import { tempDir, type Proc } from '../chaos/harness.ts';

/** The figures of one step, as `scale.ts` measures them (the part compared here). */
export interface ComparedStep {
  avatars: number;
  spawned: number;
  coreP99: number;
  statusP50: number;
  statusP99: number;
}

/** One run's figures, as `scale.ts` returns them. */
export interface ComparedRun {
  idleStatusP50: number;
  steps: ComparedStep[];
}

/** How the scale run puts its core on NATS hosts: the tag of its lines, and where the hosts' log lines go. */
export interface OverNats {
  tag: string;
  /** Called with the core's process as it starts: the hosts' log lines are added to its own from then on. */
  attach(proc: Proc): void;
}

/** Whether the bench was asked for `--hosts nats`. */
export function natsAsked(argv: readonly string[] = process.argv): boolean {
  const i = argv.indexOf('--hosts');
  return i >= 0 && argv[i + 1] === 'nats';
}

/**
 * Run `run` with its core on NATS hosts: nats-server and the hosts start first, the core finds them (`HOSTS`
 * in its environment, which the scale run's process inherits), and everything stops after.
 */
export async function overNats<T>(count: number, say: (line: string) => void, run: (over: OverNats) => Promise<T>): Promise<T> {
  const nats = await startNats();
  const hosts: ReturnType<typeof startHost>[] = [];
  const saved = { HOSTS: process.env.HOSTS, NATS_CLUSTER: process.env.NATS_CLUSTER };
  try {
    for (let i = 0; i < count; i += 1) {
      const dir = await tempDir(`scale-host-${i}`);
      hosts.push(startHost(['--nats', nats.url, '--id', `bench${i}`, '--cluster', 'bench'], { DATA_DIR: dir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: '1000', NODE_ENV: 'production' }));
    }
    await Promise.all(hosts.map((h) => h.logLine(/avatar host ready; waiting for a core/, 120_000)));
    say(`[nats×${count}] nats-server at ${nats.url}, ${count} hosts ready`);
    process.env.HOSTS = nats.url;
    process.env.NATS_CLUSTER = 'bench';
    return await run({
      tag: `[nats×${count}]`,
      attach(proc) {
        for (const h of hosts) {
          let seen = h.stderr.length;
          h.child.stderr?.on('data', () => {
            for (; seen < h.stderr.length; seen += 1) proc.stderr.push(h.stderr[seen] ?? '');
          });
        }
      },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    for (const h of hosts) {
      if (h.child.exitCode === null) {
        h.child.kill('SIGTERM');
        await once(h.child, 'exit');
      }
    }
    await nats.close();
  }
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/** The comparison, one row per step: the core's loop p99 and `/status` over NATS against IPC, and the ratio. */
export function comparison(ipc: ComparedRun, ipcLabel: string, nats: ComparedRun, natsLabel: string): string {
  const rows = [
    `| working avatars | spawned (${ipcLabel} / ${natsLabel}) | core event-loop p99 | ratio | /status p50 (p99) | ratio (p50) |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const a of ipc.steps) {
    const b = nats.steps.find((s) => s.avatars === a.avatars);
    if (!b) continue;
    rows.push(
      `| ${a.avatars} | ${a.spawned} / ${b.spawned} | ${fmt(a.coreP99)} / ${fmt(b.coreP99)} ms | ${fmt(b.coreP99 / a.coreP99, 2)}× | ` +
        `${fmt(a.statusP50, 1)} (${fmt(a.statusP99, 1)}) / ${fmt(b.statusP50, 1)} (${fmt(b.statusP99, 1)}) ms | ${fmt(b.statusP50 / a.statusP50, 2)}× |`,
    );
  }
  rows.push('', `Idle /status p50: ${fmt(ipc.idleStatusP50, 1)} / ${fmt(nats.idleStatusP50, 1)} ms. Target: NATS within 1.5× of IPC on both.`);
  return rows.join('\n');
}
