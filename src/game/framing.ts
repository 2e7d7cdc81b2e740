/**
 * minecraft-protocol's packet splitter, without an exception per read.
 *
 * The splitter cuts the bytes a client reads into packets (a VarInt length,
 * then the packet). After the last whole packet of a read it asks protodef
 * for the next length anyway, which throws a `PartialReadError` — an `Error`
 * with its stack captured — for every read that ends on a packet boundary,
 * that is almost every read: measured, 5 % of an avatar host's CPU. The
 * splitter is replaced (once per process, on the class every client's
 * splitter is made from) by one that cuts the same packets at the same
 * places and waits for more bytes without throwing. A server's splitter that
 * may see the legacy ping keeps the library's own.
 */
import { createRequire } from 'node:module';

interface SplitterLike {
  buffer: Buffer;
  recognizeLegacyPing: boolean;
  push(chunk: Buffer): boolean;
  _transform(chunk: Buffer, encoding: string, callback: () => void): void;
}

/** A VarInt at `offset`: its value and size, or null when the buffer ends first (or it is longer than protodef reads). */
export function varIntAt(buffer: Buffer, offset: number): { value: number; size: number } | null {
  let value = 0;
  let shift = 0;
  for (let cursor = offset; cursor < buffer.length; cursor++) {
    const byte = buffer[cursor]!;
    value |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, size: cursor + 1 - offset };
    shift += 7;
    if (shift > 64) return null;
  }
  return null;
}

let installed = false;

/**
 * Replace the splitter's cutting (once per process, before the first client connects).
 *
 * @example
 * splitPacketsQuietly();
 * const bot = mineflayer.createBot(options);
 */
export function splitPacketsQuietly(): void {
  if (installed) return;
  installed = true;
  const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
  const framing = createRequire(fromMineflayer.resolve('minecraft-protocol'))('./transforms/framing') as { createSplitter(): SplitterLike };
  const proto = Object.getPrototypeOf(framing.createSplitter()) as SplitterLike;
  const original = proto._transform;
  proto._transform = function split(this: SplitterLike, chunk, encoding, callback) {
    if (this.recognizeLegacyPing) return original.call(this, chunk, encoding, callback);
    const buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    for (;;) {
      const length = varIntAt(buffer, offset);
      if (!length || buffer.length < offset + length.size + length.value) break;
      this.push(buffer.subarray(offset + length.size, offset + length.size + length.value));
      offset += length.size + length.value;
    }
    this.buffer = buffer.subarray(offset);
    callback();
  };
}
