// Playback's frame size agrees with the host's reduction for every size and limit: the slots are made for what arrives.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reductionFor } from '../../host/images/reduced-level.js';
import { fittedFrame } from './frame-fit.js';

describe('fittedFrame', () => {
  it('is level 0 when it fits, else the reduction the host answers a fitWithin request with', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70_000 }),
        fc.integer({ min: 1, max: 70_000 }),
        fc.integer({ min: 256, max: 16_384 }),
        fc.integer({ min: 65_536, max: 2 ** 28 }),
        (w, h, maxSidePx, maxPixels) => {
          const fit = { maxSidePx, maxPixels };
          const r = reductionFor(w, h, fit);
          const got = fittedFrame(w, h, fit);
          expect(got.factor).toBe(r?.factor ?? 1);
          expect([got.widthPx, got.heightPx]).toEqual([Math.ceil(w / got.factor), Math.ceil(h / got.factor)]);
          expect(got.widthPx).toBeLessThanOrEqual(maxSidePx);
          expect(got.widthPx * got.heightPx).toBeLessThanOrEqual(maxPixels);
        },
      ),
    );
  });

  it('a 16384×8192 frame arrives as its half level on an 8192 px device; a 1920×1080 one whole', () => {
    const fit = { maxSidePx: 8192, maxPixels: 43_000_000 };
    const frame = fittedFrame(16_384, 8192, fit);
    expect(frame).toEqual({ widthPx: 8192, heightPx: 4096, factor: 2 });
    expect(fittedFrame(1920, 1080, fit)).toEqual({ widthPx: 1920, heightPx: 1080, factor: 1 });
  });
});
