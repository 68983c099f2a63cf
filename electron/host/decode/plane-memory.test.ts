// PlaneMemory: buffers handed back are reused by size within a budget; only new large buffers are advised.
import { describe, expect, it } from 'vitest';
import { PlaneMemory } from './plane-memory.js';

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
    memory.give(memory.take(5 * MB));
    // the 4 MB buffer went first, then one 3 MB buffer: 3 + 5 fit in 10
    expect(memory.keptBytes).toBe(8 * MB);
    expect(memory.take(4 * MB)).not.toBe(four);
    expect(memory.reused).toBe(0);
    memory.give(new SharedArrayBuffer(11 * MB));
    expect(memory.keptBytes).toBe(8 * MB);
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
