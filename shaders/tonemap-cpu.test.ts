// The CPU tone-map (tonemap-cpu.ts) against published values and invariants (the GPU is tested against this in Chromium).
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY } from './display-params.js';
import {
  acesFitted,
  agx,
  falseColourZone,
  halfToFloat,
  histogramBin,
  mipReduce,
  pbrNeutral,
  srgbOetf,
  toneMapPixel,
} from './tonemap-cpu.js';

describe('tonemap cpu', () => {
  it('encodes sRGB and stays in [0, 1] for every transform on wild input', () => {
    expect(srgbOetf(0.18)).toBeCloseTo(0.46135, 4);
    expect(srgbOetf(1)).toBeCloseTo(1, 6);
    for (const v of [-5, 0, 1e-8, 0.18, 1, 16, 1e9]) {
      for (const f of [acesFitted, agx, pbrNeutral]) {
        for (const c of f([v, v * 0.5, v * 0.25])) {
          expect(c).toBeGreaterThanOrEqual(0);
          expect(c).toBeLessThanOrEqual(1);
        }
      }
    }
    expect(pbrNeutral([0.5, 0.5, 0.5])[0]).toBeCloseTo(0.46, 2); // offset 0.04 below the compression start
    expect(acesFitted([100, 100, 100])[0]).toBeGreaterThan(0.95);
  });

  it('highlights NaN and Inf, applies exposure in stops', () => {
    expect(toneMapPixel(NaN, 0, 0, 1, 0, 0, DEFAULT_DISPLAY)).toEqual([1, 0, 1]);
    expect(toneMapPixel(Infinity, 0, 0, 1, 0, 0, DEFAULT_DISPLAY)).toEqual([0, 1, 1]);
    const lin = { ...DEFAULT_DISPLAY, transform: 'linear' as const };
    expect(toneMapPixel(0.125, 0.125, 0.125, 1, 0, 0, { ...lin, exposureEv: 2 })).toEqual([0.5, 0.5, 0.5]);
    expect(falseColourZone(0.18)).toBe(4);
    expect(falseColourZone(-1)).toBe(0);
  });

  it('reduces MIP levels by 2x2 box in f32, histogram bins on log2', () => {
    const src = new Float32Array([1, 1, 1, 1, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7]);
    expect([...mipReduce(src, 2, 2).data]).toEqual([4, 4, 4, 4]);
    expect(histogramBin(1)).toBe(128);
    expect(histogramBin(0)).toBe(0);
    expect(histogramBin(NaN)).toBe(-1);
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0x7c00)).toBe(Infinity);
  });
});
