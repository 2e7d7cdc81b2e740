/**
 * The packet splitter that replaces minecraft-protocol's (src/game/framing.ts): it must cut the same
 * packets out of any split of the bytes, and wait for the rest of one that is not all there.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { splitPacketsQuietly, varIntAt } from '../../src/game/framing.ts';

const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
const framing = createRequire(fromMineflayer.resolve('minecraft-protocol'))('./transforms/framing') as {
  createSplitter(): NodeJS.ReadWriteStream & { recognizeLegacyPing: boolean };
};

function varInt(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (n !== 0);
  return Buffer.from(bytes);
}

/** Seeded bytes (mulberry32), so a failure shows the same split again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function split(chunks: Buffer[]): Promise<Buffer[]> {
  const splitter = framing.createSplitter();
  const out: Buffer[] = [];
  splitter.on('data', (b: Buffer) => out.push(Buffer.from(b)));
  for (const c of chunks) splitter.write(c);
  await new Promise((r) => setImmediate(r));
  return out;
}

describe('packet splitter', () => {
  it('GIVEN VarInts THEN each is read with its size, and one cut short is not read', () => {
    expect(varIntAt(varInt(300), 0)).toEqual({ value: 300, size: 2 });
    expect(varIntAt(Buffer.concat([Buffer.from([9]), varInt(2 ** 20)]), 1)).toEqual({ value: 2 ** 20, size: 3 });
    expect(varIntAt(varInt(300).subarray(0, 1), 0)).toBeNull();
    expect(varIntAt(Buffer.alloc(0), 0)).toBeNull();
  });

  it('GIVEN packets of every size split anywhere WHEN the splitter reads them THEN it gives every packet whole, in order, and keeps a cut one until the rest comes', async () => {
    splitPacketsQuietly();
    const rnd = random(7);
    const packets = Array.from({ length: 300 }, (_, i) => Buffer.from(Array.from({ length: i % 7 === 0 ? 200 + Math.floor(rnd() * 3000) : Math.floor(rnd() * 40) + 1 }, () => Math.floor(rnd() * 256))));
    const bytes = Buffer.concat(packets.flatMap((p) => [varInt(p.length), p]));
    for (const maxChunk of [1, 3, 64, 1500, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const n = Math.max(1, Math.floor(rnd() * maxChunk));
        chunks.push(bytes.subarray(at, at + n));
        at += n;
      }
      const got = await split(chunks);
      expect(got.length, `chunks of up to ${maxChunk} bytes`).toBe(packets.length);
      got.forEach((p, i) => expect(p.equals(packets[i]!), `packet ${i}, chunks of up to ${maxChunk} bytes`).toBe(true));
    }
    const cut = await split([bytes.subarray(0, 10)]);
    expect(cut.every((p, i) => p.equals(packets[i]!))).toBe(true);
  });
});
