// The GPU cache's bookkeeping: room is made before an allocation by evicting the least recently used, never what is kept.
import { describe, expect, it } from 'vitest';
import { ByteLru } from './lru.js';

const entry = (bytes: number, destroyed: string[], name: string) => ({ bytes, destroy: () => destroyed.push(name) });

describe('ByteLru.makeRoom', () => {
  it('evicts the least recently used until the new bytes fit, never what is kept, and says when they cannot', () => {
    const destroyed: string[] = [];
    const lru = new ByteLru<ReturnType<typeof entry>>(100);
    for (const [k, b] of [
      ['a', 30],
      ['b', 30],
      ['c', 30],
    ] as const)
      lru.set(k, entry(b, destroyed, k));
    lru.get('a'); // b is now the least recently used
    expect(lru.makeRoom(40, new Set())).toBe(true);
    expect(destroyed).toEqual(['b']);
    expect(lru.totalBytes() + 40).toBeLessThanOrEqual(100);
    // c and a kept: 60 held, 50 more cannot fit, and nothing kept is evicted trying
    expect(lru.makeRoom(50, new Set(['a', 'c']))).toBe(false);
    expect(destroyed).toEqual(['b']);
    expect(lru.bytesOf(new Set(['a', 'c', 'gone']))).toBe(60);
    expect(lru.counters().evictions).toBe(1);
    // more than the whole budget: everything not kept goes, and still it does not fit
    expect(lru.makeRoom(101, new Set())).toBe(false);
    expect(lru.totalBytes()).toBe(0);
  });
});
