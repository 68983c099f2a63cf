// The playback ring's size: a 4K half RGBA frame gets four slots (the lead a cold start needs), smaller frames up to
// six, and never fewer than two.
import { describe, expect, it } from 'vitest';
import { slotBytes, slotCountFor } from './slot-budget.js';

const rgbaHalf = (w: number, h: number) =>
  ['R', 'G', 'B', 'A'].map(() => ({ pixelType: 'half' as const, widthSamples: w, heightSamples: h }));

describe('slot budget', () => {
  it("a slot holds the planes and the layer's rgba32float MIP chain", () => {
    // 8x4: levels 8x4, 4x2, 2x1, 1x1 = 32 + 8 + 2 + 1 texels of 16 bytes; planes 4 x 32 x 2 bytes
    expect(slotBytes(8, 4, rgbaHalf(8, 4))).toBe(43 * 16 + 4 * 32 * 2);
  });
  it('four slots of 4K, six of 1080p, two at least', () => {
    expect(slotCountFor(3840, 2160, rgbaHalf(3840, 2160))).toBe(4);
    expect(slotCountFor(1920, 1080, rgbaHalf(1920, 1080))).toBe(6);
    expect(slotCountFor(7680, 4320, rgbaHalf(7680, 4320))).toBe(2);
    expect(slotCountFor(3840, 2160, rgbaHalf(3840, 2160), 1)).toBe(2);
  });
});
