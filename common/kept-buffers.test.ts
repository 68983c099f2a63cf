// KeptBuffers: buffers kept by size within a budget, the least recently given size dropped first.
import { describe, expect, it } from 'vitest';
import { KeptBuffers } from './kept-buffers.js';

describe('KeptBuffers', () => {
  it('hands back the last buffer given of exactly the size asked, and nothing of another size', () => {
    const kept = new KeptBuffers<ArrayBuffer>(100);
    const [a, b] = [new ArrayBuffer(10), new ArrayBuffer(10)];
    kept.give(a);
    kept.give(b);
    expect(kept.keptBytes).toBe(20);
    expect(kept.take(20)).toBeUndefined();
    expect(kept.take(10)).toBe(b);
    expect(kept.take(10)).toBe(a);
    expect(kept.take(10)).toBeUndefined();
    expect(kept.keptBytes).toBe(0);
  });

  it('drops the oldest buffers of the least recently given size to stay within its budget', () => {
    const kept = new KeptBuffers<ArrayBuffer>(10);
    const four = new ArrayBuffer(4);
    const threes = [new ArrayBuffer(3), new ArrayBuffer(3)];
    kept.give(four);
    kept.give(threes[0]!);
    kept.give(threes[1]!);
    // the 4 goes first (the least recently given size), then the older 3: 3 + 5 fit in 10
    kept.give(new ArrayBuffer(5));
    expect(kept.keptBytes).toBe(8);
    expect([...kept.sizes()]).toEqual([3, 5]);
    expect(kept.take(3)).toBe(threes[1]);
    kept.give(new ArrayBuffer(11));
    expect(kept.keptBytes).toBe(5);
  });

  it('lists sizes least recently given first', () => {
    const kept = new KeptBuffers<ArrayBuffer>(100);
    for (const size of [8, 4, 8]) kept.give(new ArrayBuffer(size));
    expect([...kept.sizes()]).toEqual([4, 8]);
  });
});
