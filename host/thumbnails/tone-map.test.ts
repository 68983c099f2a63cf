// The memoised tone-map of half RGBA against the per-pixel reference it stands in for.

import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY, DISPLAY_TRANSFORMS, type DisplayParams } from '../../shaders/display-params.js';
import { toneMapImage } from '../../shaders/tonemap-cpu.js';
import { HALF_TO_FLOAT } from '../../codec/index.js';
import { lcg } from '../../testing/codec/test-layouts.js';
import { fillToneMapMemo, isPerChannel, sharedToneMapMemo, toneMapHalfRgba } from './tone-map.js';

describe('toneMapHalfRgba', () => {
  it('equals the per-pixel reference for every transform, exposures that overflow and underflow, NaN and Inf', () => {
    const next = lcg(42);
    const [widthPx, heightPx] = [37, 11];
    const bits = Uint16Array.from({ length: widthPx * heightPx * 4 }, (_, i) => {
      const r = next();
      // every kind of half: NaN, ±Inf, subnormals, negatives, values far above 1
      return i % 7 === 0 ? [0x7e00, 0x7c00, 0xfc00, 0x0001][Math.floor(r * 4)]! : Math.floor(r * 0x10000);
    });
    const linear = Float32Array.from(bits, (h) => HALF_TO_FLOAT[h]!);
    let memoised = 0;
    for (const transform of DISPLAY_TRANSFORMS) {
      for (const exposureEv of [-8, 0, 5]) {
        for (const nanInf of [false, true]) {
          const p: DisplayParams = { ...DEFAULT_DISPLAY, transform, exposureEv, nanInf };
          if (isPerChannel(p) && !nanInf) memoised++;
          // twice: the second call reads the memo the first one filled
          for (let pass = 0; pass < 2; pass++) {
            expect(toneMapHalfRgba(bits, widthPx, heightPx, p), `${transform} ${exposureEv} EV nanInf ${nanInf}`).toEqual(
              toneMapImage(linear, widthPx, heightPx, p),
            );
          }
        }
      }
    }
    expect(memoised).toBeGreaterThan(6);
  });

  it('gives the same pixels from a memo filled up front (every half value) as the reference, into a given array', () => {
    const bits = Uint16Array.from({ length: 64 * 4 }, (_, i) => (i * 1021) & 0xffff);
    const linear = Float32Array.from(bits, (h) => HALF_TO_FLOAT[h]!);
    for (const transform of ['srgb', 'rec709', 'reinhard'] as const) {
      const p: DisplayParams = { ...DEFAULT_DISPLAY, transform, exposureEv: 1.25, nanInf: false };
      const memo = sharedToneMapMemo();
      fillToneMapMemo(memo, p);
      expect(memo.every((v) => v >= 0 && v <= 255)).toBe(true);
      const into = new Uint8ClampedArray(bits.length);
      expect(toneMapHalfRgba(bits, 64, 1, p, memo, into)).toBe(into);
      expect(into).toEqual(toneMapImage(linear, 64, 1, p));
    }
  });
});
