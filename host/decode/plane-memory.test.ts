// PlaneMemory: buffers handed back are reused by size class within a budget; only new large buffers are advised.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlaneMemory, sizeClassBytes } from './plane-memory.js';

const MB = 1 << 20;

describe('PlaneMemory', () => {
  it('reuses a buffer of the same size and advises only new large ones', () => {
    const advised: number[] = [];
    const memory = new PlaneMemory({ keepBytes: 64 * MB, advise: (b) => advised.push(b.byteLength) });
    const a = memory.take(4 * MB);
    const small = memory.take(1024);
    expect(advised).toEqual([4 * MB]);
    memory.give(a);
    memory.give(small);
    expect(memory.keptBytes).toBe(4 * MB);
    expect(memory.take(4 * MB)).toBe(a);
    expect(memory.take(8 * MB)).not.toBe(a);
    expect({ reused: memory.reused, allocated: memory.allocated }).toEqual({ reused: 1, allocated: 3 });
    expect(advised).toEqual([4 * MB, 8 * MB]);
  });

  it('keeps at most its budget, dropping the least recently given size first', () => {
    const memory = new PlaneMemory({ keepBytes: 10 * MB });
    const four = memory.take(4 * MB);
    const three = [memory.take(3 * MB), memory.take(3 * MB)];
    memory.give(four);
    memory.give(three[0]!);
    memory.give(three[1]!);
    expect(memory.keptBytes).toBe(10 * MB);
    memory.give(new SharedArrayBuffer(5 * MB));
    // the 4 MB buffer went first, then one 3 MB buffer: 3 + 5 fit in 10
    expect(memory.keptBytes).toBe(8 * MB);
    expect(memory.take(3 * MB)).toBe(three[1]);
    memory.give(new SharedArrayBuffer(11 * MB));
    expect(memory.keptBytes).toBe(5 * MB);
  });

  it('makes buffers in size classes, so that planes a few columns apart share them', () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    // 3840 x 2160 and 3841 x 2160 half planes
    const a = memory.take(3840 * 2160 * 2);
    expect(a.byteLength).toBe(16 * MB);
    memory.give(a);
    expect(memory.take(3841 * 2160 * 2)).toBe(a);
    memory.give(a);
    expect(memory.take(3840 * 2160 * 2)).toBe(a);
    expect({ reused: memory.reused, allocated: memory.allocated }).toEqual({ reused: 2, allocated: 1 });
  });

  it('gives the smallest kept buffer that fits, and none over 8 times the request', () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    const big = memory.take(32 * MB);
    const mid = memory.take(20 * MB);
    memory.give(big);
    memory.give(mid);
    expect(memory.take(2 * MB)).not.toBe(mid);
    expect(memory.take(18 * MB)).toBe(mid);
    // a 4K plane's buffer serves a cropped or 2K image's plane rather than idle while new memory is made
    expect(memory.take(4 * MB + 12345)).toBe(big);
  });

  it('size classes hold the request and are at most a 16th over it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 1, max: 1 << 22 }), fc.integer({ min: 1, max: 2 ** 31 })), (bytes) => {
        const size = sizeClassBytes(bytes);
        expect(size).toBeGreaterThanOrEqual(bytes);
        expect(size - bytes).toBeLessThanOrEqual(bytes / 16);
        // a class is its own class: buffers made for it are taken for it
        expect(sizeClassBytes(size)).toBe(size);
      }),
    );
  });

  it('keeps small buffers too when asked (minBytes), still advising only large ones', () => {
    const advised: number[] = [];
    const memory = new PlaneMemory({ keepBytes: 4 * MB, minBytes: 0, advise: (b) => advised.push(b.byteLength) });
    const small = memory.take(600 * 1024);
    memory.give(small);
    expect(memory.take(600 * 1024)).toBe(small);
    expect(advised).toEqual([]);
  });
});

describe('PlaneMemory.lacking', () => {
  it('names the requests no kept buffer would serve, each kept buffer serving one as take() would', () => {
    const memory = new PlaneMemory({ keepBytes: 64 * MB });
    expect(memory.lacking([4 * MB, 4 * MB, 1024])).toEqual([4 * MB, 4 * MB]);
    memory.give(memory.fresh(4 * MB));
    expect(memory.lacking([4 * MB, 4 * MB])).toEqual([4 * MB]);
    // a kept 8 MB buffer serves a 4 MB plane (at most 8 times over), not a 16 MB one, nor one under a MB
    memory.give(memory.fresh(8 * MB));
    expect(memory.lacking([4 * MB, 4 * MB])).toEqual([]);
    expect(memory.lacking([16 * MB, 4 * MB, 4 * MB, 3 * MB])).toEqual([16 * MB, 3 * MB]);
    expect(memory.lacking([MB / 2 + 4 * MB])).toEqual([]);
    // what lacking says is what take() then allocates
    const allocated = memory.allocated;
    const lacking = memory.lacking([16 * MB, 4 * MB, 4 * MB, 3 * MB]).length;
    for (const b of [16 * MB, 4 * MB, 4 * MB, 3 * MB]) memory.take(b);
    expect(memory.allocated - allocated).toBe(lacking);
  });

  it('fresh buffers are made in the size class, advised when large, and not counted as kept until given', () => {
    const advised: number[] = [];
    const memory = new PlaneMemory({ keepBytes: 64 * MB, advise: (b) => advised.push(b.byteLength) });
    const buffer = memory.fresh(3 * MB + 1);
    expect(buffer.byteLength).toBe(sizeClassBytes(3 * MB + 1));
    expect(advised).toEqual([buffer.byteLength]);
    expect(memory.keptBytes).toBe(0);
    memory.give(buffer);
    expect(memory.take(3 * MB)).toBe(buffer);
  });
});
