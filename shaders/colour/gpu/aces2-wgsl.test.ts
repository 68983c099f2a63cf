// The ACES 2.0 output transform's WGSL on the CPU side: it is written, not baked, and its per-hue tables land in the
// 1D LUT texture where the call says; the stage styles are still baked. (The GPU against applyOps: e2e/ocio-gpu.spec.ts.)
import { describe, expect, it } from 'vitest';
import type { FixedFunctionOp, Op } from '../ops/op.js';
import { primariesOf, stateFor } from '../ops/aces2/apply.js';
import { TABLE_SIZE } from '../ops/aces2/tables.js';
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

  it('puts each parameter set’s cusp, hue and reach tables in the 1D texture', () => {
    const hdr = [1000, ...REC709_100_NITS.slice(1)];
    const p = buildGpuProcessor([outputTransform('forward'), outputTransform('forward', hdr)]);
    expect(p.lut1d.widthPx).toBe(TABLE_SIZE * 4);
    expect(p.wgsl).toMatch(new RegExp(`, ${TABLE_SIZE * 2}, -?\\d+, -?\\d+\\)\\)`));
    const s = stateFor(1000, primariesOf(hdr.slice(1)));
    const texel = (k: number): number[] => Array.from(p.lut1d.rgba.slice(k * 4, k * 4 + 3));
    const at = TABLE_SIZE * 2;
    for (const i of [0, 1, 180, TABLE_SIZE - 1]) {
      expect(texel(at + i)).toEqual([0, 1, 2].map((c) => Math.fround(s.gamut!.cusp[i * 3 + c]!)));
      expect(texel(at + TABLE_SIZE + i)).toEqual([Math.fround(s.gamut!.hues[i]!), Math.fround(s.shared.reachM[i]!), 0]);
    }
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
