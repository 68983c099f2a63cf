// The small first level: asked for only where the page must be sent a reduced level anyway, never larger than the
// page's own limits, and never for a deep part (composited whole).
import { describe, expect, it } from 'vitest';
import type { PartSummary } from '../host-client/api-types.js';
import { FIRST_LEVEL_SIDE_PX, firstLevelWithin } from './first-level.js';

const part = (w: number, h: number, type = 'scanlineimage'): PartSummary =>
  ({ type, dataWindow: [0, 0, w - 1, h - 1] }) as unknown as PartSummary;
const fit = { maxSidePx: 8192, maxPixels: 40_000_000 };

describe('the first level of an image too large for the page', () => {
  it('is asked for within 2048 px where level 0 is over the side or pixel limit', () => {
    const small = { maxSidePx: FIRST_LEVEL_SIDE_PX, maxPixels: FIRST_LEVEL_SIDE_PX ** 2 };
    expect(firstLevelWithin(part(32768, 16384), fit)).toEqual(small);
    expect(firstLevelWithin(part(8000, 8000), fit)).toEqual(small);
    // within a tighter page than that
    expect(firstLevelWithin(part(4096, 4096), { maxSidePx: 1024, maxPixels: 1 << 20 })).toEqual({ maxSidePx: 1024, maxPixels: 1 << 20 });
  });

  it('is not asked for where level 0 fits, for a deep part, or without a limit', () => {
    expect(firstLevelWithin(part(8192, 4096), fit)).toBeNull();
    expect(firstLevelWithin(part(32768, 16384, 'deepscanline'), fit)).toBeNull();
    expect(firstLevelWithin(part(32768, 16384), undefined)).toBeNull();
    expect(firstLevelWithin(undefined, fit)).toBeNull();
  });
});
