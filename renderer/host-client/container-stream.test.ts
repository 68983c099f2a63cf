// Reading a container reply from a stream, however the bytes arrive: byte streams (BYOB) and plain ones, any chunking, pooled buffers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BufferPool } from './buffer-pool.js';
import { readContainer } from './container-stream.js';

/** PROTOCOL.md's layout, written out here: [u32 json length][json][pad 8][buffer][pad 8][buffer]... */
function container(value: unknown, buffers: Uint8Array[]): Uint8Array {
  const align = (n: number) => Math.ceil(n / 8) * 8;
  let json = '';
  let offsets: [number, number][] = [];
  for (let guess = 0; ;) {
    let at = align(4 + guess);
    offsets = buffers.map((b) => {
      const o: [number, number] = [at, b.byteLength];
      at = align(at + b.byteLength);
      return o;
    });
    json = JSON.stringify({ value, buffers: offsets });
    if (align(4 + json.length) === align(4 + guess)) break;
    guess = json.length;
  }
  const last = offsets[offsets.length - 1];
  const out = new Uint8Array(last ? last[0] + last[1] : align(4 + json.length));
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(new TextEncoder().encode(json), 4);
  buffers.forEach((b, i) => out.set(b, offsets[i]![0]));
  return out;
}

function stream(bytes: Uint8Array, cuts: number[], byteStream: boolean): ReadableStream<Uint8Array> {
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    if (cut > at) pieces.push(bytes.slice(at, cut));
    at = Math.max(at, cut);
  }
  let next = 0;
  const pull = (controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) => {
    const piece = pieces[next++];
    if (piece) controller.enqueue(piece);
    else {
      controller.close();
      // a byte stream closed under a pending BYOB read answers it with no bytes (as the streams spec asks of a source)
      if ('byobRequest' in controller) controller.byobRequest?.respond(0);
    }
  };
  return byteStream ? new ReadableStream({ type: 'bytes', pull }) : new ReadableStream({ pull });
}

describe('readContainer', () => {
  it('rebuilds the value with each buffer in place, whatever the chunking, through BYOB and plain readers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 3000 }), { minLength: 0, maxLength: 5 }),
        fc.array(fc.nat(20000), { maxLength: 12 }),
        fc.boolean(),
        async (buffers, cuts, byteStream) => {
          const value = { name: 'x', planes: buffers.map((_, i) => ({ i, data: { $buffer: i } })) };
          const got = (await readContainer(stream(container(value, buffers), cuts, byteStream), null)) as {
            planes: { i: number; data: ArrayBuffer }[];
          };
          expect(got.planes.map((p) => p.i)).toEqual(buffers.map((_, i) => i));
          got.planes.forEach((p, i) => expect(new Uint8Array(p.data)).toEqual(buffers[i]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('writes large buffers into memory from the pool', async () => {
    const pool = new BufferPool(16 << 20);
    const big = new Uint8Array(2 << 20).map((_, i) => i & 0xff);
    const reused = new ArrayBuffer(big.byteLength);
    pool.give([reused]);
    const got = (await readContainer(stream(container({ data: { $buffer: 0 } }, [big]), [100, 70000, 1 << 20], true), pool)) as {
      data: ArrayBuffer;
    };
    expect(Buffer.from(got.data).equals(big)).toBe(true);
    expect(pool.reused).toBe(1);
  });

  it('says so when the reply ends early', async () => {
    const bytes = container({ data: { $buffer: 0 } }, [new Uint8Array(1000)]);
    await expect(readContainer(stream(bytes.subarray(0, bytes.length - 10), [], true), null)).rejects.toThrow(/ended 10 bytes early/);
  });
});
