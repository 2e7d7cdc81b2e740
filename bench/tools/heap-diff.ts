/**
 * What grew between two V8 heap snapshots (`.heapsnapshot` files, e.g. from bench/tools/avatar-memory.ts or
 * bench/tools/host-heap.ts): the live objects' own sizes summed by kind (an object's constructor, an array's
 * or a string's kind, code, closures by function name), with the difference and, given how many avatars each
 * snapshot had, the difference per avatar. The largest `HEAP_TOP` (default 40) kinds by growth are printed.
 *
 * Run: `npx tsx bench/tools/heap-diff.ts a.heapsnapshot 10 b.heapsnapshot 30`.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Bytes and counts of a snapshot's nodes by kind. */
function kinds(file: string): Map<string, { bytes: number; count: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const out = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] ?? 0] ?? '?';
    const name = snap.strings[snap.nodes[i + nameAt] ?? 0] ?? '';
    const key = type === 'string' || type === 'concatenated string' || type === 'sliced string' ? `(${type})` : type === 'number' ? '(heap number)' : `${type}: ${name.slice(0, 60)}`;
    const k = out.get(key) ?? { bytes: 0, count: 0 };
    k.bytes += snap.nodes[i + sizeAt] ?? 0;
    k.count += 1;
    out.set(key, k);
  }
  return out;
}

const [fileA, nA, fileB, nB] = process.argv.slice(2);
if (!fileA || !fileB) throw new Error('usage: heap-diff.ts a.heapsnapshot <avatars in a> b.heapsnapshot <avatars in b>');
const avatars = Number(nB) - Number(nA);
const a = kinds(fileA);
const b = kinds(fileB);
const total = (m: Map<string, { bytes: number }>): number => [...m.values()].reduce((s, k) => s + k.bytes, 0);
const kb = (n: number): string => (n / 1024).toFixed(0).padStart(8);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { bytes: 0, count: 0 };
  const y = b.get(key) ?? { bytes: 0, count: 0 };
  return { key, grew: y.bytes - x.bytes, count: y.count - x.count, bytes: y.bytes };
});
rows.sort((p, q) => q.grew - p.grew);
const grew = total(b) - total(a);
process.stdout.write(`live heap ${kb(total(a))} KB → ${kb(total(b))} KB: +${kb(grew)} KB${avatars > 0 ? `, ${kb(grew / avatars)} KB per avatar` : ''}\n`);
process.stdout.write(`${'grew KB'.padStart(8)} ${'/avatar'.padStart(8)} ${'share'.padStart(6)} ${'objects'.padStart(9)}  kind\n`);
for (const r of rows.slice(0, Number(process.env.HEAP_TOP ?? 40))) {
  const per = avatars > 0 ? kb(r.grew / avatars) : '';
  process.stdout.write(`${kb(r.grew)} ${per} ${((100 * r.grew) / grew).toFixed(1).padStart(5)}% ${String(r.count).padStart(9)}  ${r.key}\n`);
}
