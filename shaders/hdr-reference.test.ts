// The HDR path of the CPU reference: paper white scaling, no clamp, the roll-off's bounds, and the uniform it packs into.
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY, SDR_WHITE_NITS, hdrScale } from './display-params.js';
import { DISPLAY_WORDS, HDR_ON, HDR_ROLL_OFF, UniformBlock, packDisplay } from './layouts.js';
import { rollOff, srgbOetf, srgbOetfExtended, toneMapPixel } from './tonemap-cpu.js';

describe('HDR output reference', () => {
  it('shows exposed 1.0 at paper white and keeps values above it', () => {
    const hdr = { paperWhiteNits: SDR_WHITE_NITS, peakNits: 1000, rollOff: false };
    expect(toneMapPixel(1, 1, 1, 1, 0, 0, { ...DEFAULT_DISPLAY, hdr })[0]).toBeCloseTo(1, 6);
    expect(toneMapPixel(4, 4, 4, 1, 0, 0, { ...DEFAULT_DISPLAY, hdr })[0]).toBeCloseTo(srgbOetfExtended(4), 6);
    expect(srgbOetfExtended(4)).toBeGreaterThan(1.7);
    // below 1 it is the SDR curve
    expect(srgbOetfExtended(0.18)).toBeCloseTo(srgbOetf(0.18), 9);
    const brighter = toneMapPixel(1, 1, 1, 1, 0, 0, { ...DEFAULT_DISPLAY, hdr: { ...hdr, paperWhiteNits: 406 } });
    expect(brighter[0]).toBeCloseTo(srgbOetfExtended(2), 6);
  });

  it('rolls highlights off below the headroom, leaving the range under the knee alone', () => {
    const headroom = hdrScale({ paperWhiteNits: 203, peakNits: 1000, rollOff: true }).headroom;
    expect(headroom).toBeCloseTo(1000 / 203, 9);
    expect(rollOff(1, headroom)).toBe(1);
    let prev = 0;
    for (const x of [2, 3.7, 5, 10, 30]) {
      const y = rollOff(x, headroom);
      expect(y).toBeLessThan(headroom);
      expect(y).toBeGreaterThan(prev); // monotonic
      prev = y;
    }
    expect(rollOff(1e6, headroom)).toBeLessThanOrEqual(headroom); // reaches it only where exp() underflows
    expect(rollOff(1e6, headroom)).toBeCloseTo(headroom, 6);
  });

  it('packs the HDR word and scales into the Display uniform', () => {
    const block = new UniformBlock(DISPLAY_WORDS * 4);
    packDisplay(block, 0, { ...DEFAULT_DISPLAY, hdr: { paperWhiteNits: 406, peakNits: 1015, rollOff: true } });
    expect(block.u32[7]).toBe(HDR_ON | HDR_ROLL_OFF);
    expect(block.f32[8]).toBeCloseTo(2, 6);
    expect(block.f32[9]).toBeCloseTo(5, 6);
    packDisplay(block, 0, DEFAULT_DISPLAY);
    expect(block.u32[7]).toBe(0);
  });
});
