// The grid's visible files reach the host at once when quiet, at most once per interval while they keep changing,
// and the last change always.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VisibleBatch } from './visible-batch.js';

describe('VisibleBatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once, merges a scroll into one pass per interval, and sends the last', () => {
    const sent: string[][] = [];
    const batch = new VisibleBatch((ids) => sent.push(ids), 80);
    batch.push(['a']);
    expect(sent).toEqual([['a']]);
    // a fast scroll: a new set every 16 ms frame
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(16);
      batch.push([`f${i}`]);
    }
    // 160 ms of frames: one pass at each interval's end, with the newest set then
    expect(sent).toEqual([['a'], ['f3'], ['f8']]);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([['a'], ['f3'], ['f8'], ['f9']]);
    expect(batch.merged).toBe(7);
    // quiet again: the next change goes at once
    batch.push(['z']);
    expect(sent.at(-1)).toEqual(['z']);
    batch.dispose();
  });
});
