// The worker warm-up decodes every compression the writer makes without throwing (its speed-up is a benchmark figure).
import { describe, expect, it } from 'vitest';
import { warmUpDecoder } from './warm-up.js';

describe('warmUpDecoder', () => {
  it('decodes its images without throwing and says how long it took', () => {
    const ms = warmUpDecoder();
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(warmUpDecoder())).toBe(true);
  });
});
