// Reads a container reply (PROTOCOL.md) from a fetch body straight into its buffers: the head first, then each buffer
// into memory of its own (from the pool when it is large), with a BYOB reader where the browser has one.
//
// Reading the whole body and slicing it would write every pixel twice into fresh memory; here each byte is written
// once, into a buffer the pool has usually touched before.

import type { BufferPool } from './buffer-pool.js';

const ALIGN_BYTES = 8;

/** Bytes pulled from a body: into a given view (BYOB, no copy in between), or copied out of the chunks a default reader hands out. */
interface ByteReader {
  /** Fills `view` completely and returns the filled view (possibly on a new ArrayBuffer object over the same memory); throws if the body ends first. */
  fill(view: Uint8Array): Promise<Uint8Array>;
  cancel(): Promise<void>;
}

function byteReader(body: ReadableStream<Uint8Array>): ByteReader {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // not a byte stream here: copy out of the default reader's chunks
  }
  if (byob) {
    const reader = byob;
    return {
      async fill(view) {
        // the read detaches the view's buffer (its length then reads 0): keep what is needed of it first
        let buffer = view.buffer as ArrayBuffer;
        const start = view.byteOffset;
        const length = view.byteLength;
        const end = start + length;
        let at = start;
        while (at < end) {
          const { done, value } = await reader.read(new Uint8Array(buffer, at, end - at));
          if (done || !value) throw new Error(`the reply ended ${end - at} bytes early`);
          buffer = value.buffer as ArrayBuffer;
          at += value.byteLength;
        }
        return new Uint8Array(buffer, start, length);
      },
      cancel: () => reader.cancel(),
    };
  }
  const reader = body.getReader();
  let pending: Uint8Array | null = null;
  return {
    async fill(view) {
      let at = 0;
      while (at < view.byteLength) {
        if (!pending || pending.byteLength === 0) {
          const { done, value } = await reader.read();
          if (done || !value) throw new Error(`the reply ended ${view.byteLength - at} bytes early`);
          pending = value;
        }
        const n = Math.min(pending.byteLength, view.byteLength - at);
        view.set(pending.subarray(0, n), at);
        pending = pending.subarray(n);
        at += n;
      }
      return view;
    },
    cancel: () => reader.cancel(),
  };
}

/** The container's value with each `{"$buffer": i}` replaced by an ArrayBuffer of exactly that buffer's bytes. */
export async function readContainer(body: ReadableStream<Uint8Array>, pool: BufferPool | null): Promise<unknown> {
  const reader = byteReader(body);
  try {
    let at = 0;
    const lengthBytes = await reader.fill(new Uint8Array(4));
    at += 4;
    const jsonLength = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 4).getUint32(0, true);
    const json = await reader.fill(new Uint8Array(jsonLength));
    at += jsonLength;
    const head = JSON.parse(new TextDecoder().decode(json)) as { value: unknown; buffers: [number, number][] };
    const buffers: ArrayBuffer[] = [];
    for (const [offset, length] of head.buffers) {
      if (offset < at || offset - at >= ALIGN_BYTES * 2)
        throw new Error(`the reply's buffer ${buffers.length} starts at ${offset}, after byte ${at}`);
      if (offset > at) await reader.fill(new Uint8Array(offset - at));
      const target = new Uint8Array(pool ? pool.take(length) : new ArrayBuffer(length));
      buffers.push((await reader.fill(target)).buffer as ArrayBuffer);
      at = offset + length;
    }
    return revive(head.value, buffers);
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
}

function revive(value: unknown, buffers: ArrayBuffer[]): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, buffers));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$buffer === 'number' && Object.keys(o).length === 1) {
      const buffer = buffers[o.$buffer];
      if (!buffer) throw new Error(`the reply names buffer ${o.$buffer}, which it does not hold`);
      return buffer;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = revive(x, buffers);
    return out;
  }
  return value;
}
