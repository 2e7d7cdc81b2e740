/**
 * Summarise V8 CPU profiles (`node --cpu-prof`; `SCALE_CPU_PROF=dir npm run bench -- scale` writes one per
 * process): where a process spent its CPU, by library (self time: the frames of that library's own code;
 * "under": samples with the library anywhere on the stack) and by function (self time), as shares of the
 * samples that were not idle. `--from`/`--to` keep only the samples in a window, in the monotonic
 * microseconds the scale bench prints for each step's measuring window.
 *
 *   npx tsx bench/tools/cpu-profile.ts FILE.cpuprofile [--from US --to US] [--top 10]
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One line of a summary: a name, its share of the busy samples, and its milliseconds. */
export interface Share {
  name: string;
  pct: number;
  ms: number;
}

/** What a profile says, over the samples kept. */
export interface ProfileSummary {
  /** Milliseconds sampled busy (not idle) and in all. */
  busyMs: number;
  totalMs: number;
  /** Self time by library (a package under node_modules, our own file's top folder, node's internals, GC). */
  selfByLibrary: Share[];
  /** Samples with the library anywhere on the stack. */
  underLibrary: Share[];
  /** Self time by function. */
  selfByFunction: Share[];
  /** Samples with the function anywhere on the stack (node's internals left out). */
  underFunction: Share[];
}

/** The library a frame belongs to. */
export function libraryOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node (internals)';
  const ours = /\/(src|skills|commands|bridges|bench)\/(.*)$/.exec(url);
  if (ours) return `mindlink ${ours[1]}/${(ours[2] ?? '').split('/').slice(0, -1).join('/') || '.'}`;
  return url;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const ours = /\/((src|skills|commands|bridges|bench)\/.*)$/.exec(url);
  return ours?.[1] ?? url.replace(/^file:\/\//, '');
}

function nameOf(frame: CallFrame): string {
  return `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
}

function sorted(map: Map<string, number>, busyUs: number, top: number): Share[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, pct: (100 * us) / Math.max(1, busyUs), ms: us / 1000 }));
}

/**
 * Summarise one profile.
 *
 * @example
 * const s = summarise(JSON.parse(readFileSync(file, 'utf8')), { top: 10 });
 */
export function summarise(profile: CpuProfile, opts: { from?: number | undefined; to?: number | undefined; top?: number | undefined } = {}): ProfileSummary {
  const top = opts.top ?? 10;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const selfLib = new Map<string, number>();
  const underLib = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const underFn = new Map<string, number>();
  let busy = 0;
  let total = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (opts.from !== undefined && t < opts.from) continue;
    if (opts.to !== undefined && t > opts.to) continue;
    // Each sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? dt;
    total += us;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += us;
    const lib = libraryOf(node.callFrame);
    selfLib.set(lib, (selfLib.get(lib) ?? 0) + us);
    const fn = nameOf(node.callFrame);
    selfFn.set(fn, (selfFn.get(fn) ?? 0) + us);
    const seen = new Set<string>();
    const seenFn = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      seen.add(libraryOf(frame));
      if (frame.url && !frame.url.startsWith('node:')) seenFn.add(nameOf(frame));
    }
    for (const l of seen) underLib.set(l, (underLib.get(l) ?? 0) + us);
    for (const f of seenFn) underFn.set(f, (underFn.get(f) ?? 0) + us);
  }
  return {
    busyMs: busy / 1000,
    totalMs: total / 1000,
    selfByLibrary: sorted(selfLib, busy, top),
    underLibrary: sorted(underLib, busy, top),
    selfByFunction: sorted(selfFn, busy, top),
    underFunction: sorted(underFn, busy, top),
  };
}

function table(title: string, rows: Share[]): string {
  return [`${title}:`, ...rows.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.pct.toFixed(1).padStart(5)} %  ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}`)].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string): number | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const files = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
  for (const file of files) {
    const s = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, { from: flag('--from'), to: flag('--to'), top: flag('--top') ?? 10 });
    console.log(`== ${file}: ${(s.busyMs / 1000).toFixed(1)} s busy of ${(s.totalMs / 1000).toFixed(1)} s sampled (${((100 * s.busyMs) / Math.max(1, s.totalMs)).toFixed(0)} % of a core)`);
    console.log(table('self time by library', s.selfByLibrary));
    console.log(table('time under library (anywhere on the stack)', s.underLibrary));
    console.log(table('self time by function', s.selfByFunction));
    console.log(table('time under function (anywhere on the stack)', s.underFunction));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
