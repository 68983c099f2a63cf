// The held finer level: taken once, by the same file version, part, channels and factor; one at a time; let go of
// after a while, or when its pass fails.
import { describe, expect, it, vi } from 'vitest';
import type { DecodedImage } from '../../contract/host-api.js';
import { ReducedHold } from './reduced-hold.js';

const image = (widthPx: number) => Promise.resolve({ widthPx } as DecodedImage);

describe('the held finer level', () => {
  it('is taken once, by its key and factor only', async () => {
    const hold = new ReducedHold();
    hold.put('a', 4, image(8192));
    expect(hold.take('a', 2)).toBeNull();
    expect(hold.take('b', 4)).toBeNull();
    expect((await hold.take('a', 4))?.widthPx).toBe(8192);
    expect(hold.take('a', 4)).toBeNull();
  });

  it('holds one level at a time, and lets go of it after a while or when its pass failed', async () => {
    vi.useFakeTimers();
    try {
      const hold = new ReducedHold(1000);
      hold.put('a', 4, image(1));
      hold.put('b', 4, image(2));
      expect(hold.take('a', 4)).toBeNull();
      vi.advanceTimersByTime(1001);
      expect(hold.take('b', 4)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    const hold = new ReducedHold();
    hold.put('c', 4, Promise.reject(new Error('cancelled')));
    await Promise.resolve();
    await Promise.resolve();
    expect(hold.take('c', 4)).toBeNull();
  });
});
