// The ACES 2.0 output transform's WGSL on the CPU side: it is written, not baked, and its per-hue tables land in the
// 1D LUT texture where the call says, its hue buckets find the search's interval, its tone table is close to the
// analytic tone scale; the stage styles are still baked. (The GPU against applyOps: e2e/ocio-gpu.spec.ts.)
import { describe, expect, it } from 'vitest';
import type { FixedFunctionOp, Op } from '../ops/op.js';
import { primariesOf, stateFor } from '../ops/aces2/apply.js';
import { TABLE_SIZE, lookupHueInterval } from '../ops/aces2/tables.js';
import { toneScaleAToJ } from '../ops/aces2/transform.js';
import { aces2GpuTables, bucketInterval, hueBuckets, windowInterval, TONE_ENTRIES, TONE_LOG2_HI, TONE_LOG2_LO } from './aces2-tables.js';
import { halfLutOf } from '../ops/lut1d-half.js';
import { buildGpuProcessor } from './processor-wgsl.js';

const REC709_100_NITS = [100, 0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329];
const outputTransform = (direction: 'forward' | 'inverse', params = REC709_100_NITS): FixedFunctionOp => ({
  type: 'fixedFunction',
  style: 'ACES_OutputTransform20',
  direction,
  params,
});

describe('ACES 2.0 WGSL', () => {
  it('writes the output transform, forward and inverse, as calls with no op baked', () => {
    const p = buildGpuProcessor([outputTransform('forward'), outputTransform('inverse')]);
    expect(p.bakedOpCount).toBe(0);
    expect(p.wgsl).toContain('aces2OutputForward(c.xyz, Aces2Params(');
    expect(p.wgsl).toContain('aces2OutputInverse(c.xyz, Aces2Params(');
    expect(p.wgsl).toContain('fn aces2GamutCompress(');
    expect(p.gpuOps.map((op) => op.type)).toEqual(['fixedFunction', 'fixedFunction']);
  });

  it('puts each parameter set’s cusp, reach, bucket and tone tables in the 1D texture, four values an entry', () => {
    const hdr = [1000, ...REC709_100_NITS.slice(1)];
    const p = buildGpuProcessor([outputTransform('forward'), outputTransform('forward', hdr)]);
    const s = stateFor(1000, primariesOf(hdr.slice(1)));
    const tables = aces2GpuTables(s);
    const sdrEntries = aces2GpuTables(stateFor(100, primariesOf(REC709_100_NITS.slice(1)))).values.length / 4;
    expect(p.lut1d.widthPx * p.lut1d.heightPx).toBeGreaterThanOrEqual(sdrEntries + tables.values.length / 4);
    const offsets = [0, tables.reachAt, tables.bucketsAt, tables.bucketCount - 1, tables.toneAt].map((o, i) =>
      i === 3 ? o : o + sdrEntries,
    );
    expect(p.wgsl).toContain(`, ${[...offsets, ...s.gamut!.searchRange].join(', ')}))`);
    const texel = (k: number): number[] => Array.from(p.lut1d.rgba.slice(k * 4, k * 4 + 4));
    for (const i of [0, 1, 180, TABLE_SIZE - 1]) {
      const cusp = [0, 1, 2].map((c) => s.gamut!.cusp[i * 3 + c]!);
      expect(texel(sdrEntries + i)).toEqual([...cusp, s.gamut!.hues[i]!].map(Math.fround));
      expect(texel(sdrEntries + tables.reachAt + i)[0]).toBe(Math.fround(s.shared.reachM[i]!));
    }
  });

  it('finds each hue’s interval through the buckets and the window as lookupHueInterval’s search does', () => {
    for (const [peak, primaries] of [
      [100, REC709_100_NITS.slice(1)],
      [1000, [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329]],
      [4000, [0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, 0.33767]],
    ] as const) {
      const g = stateFor(peak, primariesOf(primaries)).gamut!;
      const { texels, perDegree } = hueBuckets(g.hues);
      const hues = [...Array.from({ length: 7200 }, (_, i) => Math.fround(i / 20 + 0.013)), ...Array.from({ length: 361 }, (_, i) => i)];
      for (let i = 1; i < TABLE_SIZE - 1; i++) {
        const hue = Math.fround(g.hues[i]!);
        if (hue >= 0 && hue <= 360) hues.push(hue, Math.fround(hue * (1 + 2 ** -23)), Math.fround(hue * (1 - 2 ** -23)));
      }
      const f32Hues = g.hues.map(Math.fround);
      for (const h of hues) {
        const search = lookupHueInterval(h, f32Hues, g.searchRange);
        expect(bucketInterval(h, texels, perDegree, g.searchRange), `hue ${h}`).toBe(search);
        if (g.searchRange[0] >= -1 && g.searchRange[1] <= 2) expect(windowInterval(h, g.hues, g.searchRange), `hue ${h}`).toBe(search);
      }
    }
  });

  it('tabulates the forward tone scale within 2e-5 of the analytic value between its entries', () => {
    const s = stateFor(100, primariesOf(REC709_100_NITS.slice(1)));
    const tone = aces2GpuTables(s).values.subarray(aces2GpuTables(s).toneAt * 4);
    const perStop = (TONE_ENTRIES - 1) / (TONE_LOG2_HI - TONE_LOG2_LO);
    let worst = 0;
    for (let k = 0; k < 5000; k++) {
      const log2A = TONE_LOG2_LO + 4 + ((TONE_LOG2_HI - TONE_LOG2_LO - 4) * (k + 0.37)) / 5000;
      const u = (log2A - TONE_LOG2_LO) * perStop;
      const i = Math.floor(u);
      const table = tone[i * 4]! + (tone[(i + 1) * 4]! - tone[i * 4]!) * (u - i);
      const exact = toneScaleAToJ(2 ** log2A, s.input, s.tone);
      worst = Math.max(worst, Math.abs(table - exact) / Math.max(1, exact));
    }
    expect(worst).toBeLessThan(2e-5);
  });

  it('still bakes the stage styles, and the inverse of a half-domain LUT; its forward is WGSL', () => {
    const stage: Op = { type: 'fixedFunction', style: 'ACES_RGB_TO_JMh_20', direction: 'forward', params: REC709_100_NITS.slice(1) };
    expect(buildGpuProcessor([stage]).bakedOpCount).toBe(1);
    const half = halfLutOf((x) => x * 0.5, 'half of x');
    expect(buildGpuProcessor([half]).bakedOpCount).toBe(0);
    expect(buildGpuProcessor([half]).wgsl).toContain('ocioHalfLut(c.xyz, 0)');
    expect(buildGpuProcessor([{ ...half, direction: 'inverse' }]).bakedOpCount).toBe(1);
  });
});
