// The WGSL generator's CPU side: literals that read back as the same f32, cache keys, the LUT atlas placements, and
// the accuracy of the baked fallback (its shaper + 3D LUT run by applyOps, the GPU's CPU twin) on a tone-mapped view.
import { describe, expect, it } from 'vitest';
import { applyOps } from '../processor.js';
import { IDENTITY_MATRIX, type GradingPrimaryOp, type GradingRgbCurveOp, type Lut1DOp, type Lut3DOp, type Op } from '../ops/op.js';
import { BAKE_SIZE, bakeSizeOf, COSTLY_BAKE_SIZE } from './bake.js';
import { CONFIG_DIR, loadBuilder } from '../../../testing/colour/oracle.js';
import { buildGpuProcessor, lit } from './processor-wgsl.js';
import { LUT1D_ROW_TEXELS } from './lut-atlas.js';
import { halfLutOf } from '../ops/lut1d-half.js';
import { DISPLAY_BUILTINS } from '../builtins/displays.js';

/** Positive scene-linear values, log-uniform from 2^-12 to 2^12: the range the baked fallback's shaper is made for. */
function sceneLinear(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const rnd = (): number => ((s = (s * 1664525 + 1013904223) >>> 0), s / 2 ** 32);
  const out = new Float32Array(n * 4);
  for (let i = 0; i < out.length; i++) out[i] = i % 4 === 3 ? 1 : Math.fround(2 ** (rnd() * 24 - 12));
  return out;
}

describe('processor WGSL', () => {
  it('writes float literals that read back as the same f32', () => {
    for (const v of [0, 1, -1, 0.1, 1e-7, -3.5e-20, 65504, 1e30, 1 / 3]) {
      const text = lit(v).replace(/[()]/g, '');
      expect(text).toMatch(/[.e]/);
      expect(Math.fround(Number(text))).toBe(Math.fround(v));
    }
    expect(lit(Infinity)).toBe('3.4028234663852886e+38');
  });

  it('keys processors by their ops, tables included', () => {
    const table = (v: number): Lut1DOp => ({
      type: 'lut1d',
      direction: 'forward',
      length: 2,
      values: Float32Array.of(0, 0, 0, v, v, v),
      interpolation: 'linear',
      source: 't',
    });
    const a = buildGpuProcessor([table(1)]).key;
    expect(buildGpuProcessor([table(1)]).key).toBe(a);
    expect(buildGpuProcessor([table(0.5)]).key).not.toBe(a);
  });

  it('packs 1D tables into wrapped rows and 3D tables along z', () => {
    const long: Lut1DOp = {
      type: 'lut1d',
      direction: 'forward',
      length: LUT1D_ROW_TEXELS + 10,
      values: new Float32Array((LUT1D_ROW_TEXELS + 10) * 3),
      interpolation: 'linear',
      source: 'long',
    };
    const p = buildGpuProcessor([long, { ...long, source: 'again' }]);
    expect(p.lut1d.widthPx).toBe(LUT1D_ROW_TEXELS);
    expect(p.lut1d.heightPx).toBe(3);
    expect(p.wgsl).toContain(`ocioLut1d(c.xyz, ${LUT1D_ROW_TEXELS + 10}, ${LUT1D_ROW_TEXELS + 10}, false)`);
  });

  it('bakes op kinds it does not know into a shaper and a 3D LUT', () => {
    const unknown = { type: 'notYetKnown' } as unknown as Op;
    const p = buildGpuProcessor([unknown]);
    expect(p.bakedOpCount).toBe(1);
    expect(p.gpuOps.map((op) => op.type)).toEqual(['log', 'lut3d']);
  });

  it('bakes an inverse 3D LUT on the unit cube at its own size, and an ACES 2.0 fixed function on a smaller lattice', () => {
    const n = 17;
    const values = new Float32Array(n * n * n * 3);
    for (let k = 0; k < n * n * n; k++)
      values.set([Math.floor(k / (n * n)) / (n - 1), (Math.floor(k / n) % n) / (n - 1), (k % n) / (n - 1)], k * 3);
    const inverse: Op = { type: 'lut3d', direction: 'inverse', size: n, values, interpolation: 'tetrahedral', source: 'identity' };
    const p = buildGpuProcessor([{ type: 'matrix', m: [...IDENTITY_MATRIX], offset: [0.1, 0, 0, 0] }, inverse]);
    expect(p.bakedOpCount).toBe(1);
    expect(p.gpuOps.map((op) => op.type)).toEqual(['matrix', 'lut3d']);
    expect((p.gpuOps[1] as Lut3DOp).size).toBe(n);
    expect(bakeSizeOf([{ type: 'fixedFunction', style: 'ACES_OutputTransform20', direction: 'forward', params: [] }])).toBe(
      COSTLY_BAKE_SIZE,
    );
    expect(bakeSizeOf([{ type: 'fixedFunction', style: 'RGB_TO_HSV', direction: 'forward', params: [] }])).toBe(BAKE_SIZE);
  });

  it('stores a half-domain LUT as pairs (entry, entry one code up in magnitude) for one load, the last finite half alone', () => {
    const half = halfLutOf((x) => x * 0.5 - 1, 'pairs test');
    const p = buildGpuProcessor([half]);
    expect(p.wgsl).toContain('ocioHalfLut(c.xyz, 0)');
    const texel = (k: number): number[] => Array.from(p.lut1d.rgba.subarray(k * 4, k * 4 + 2));
    for (const code of [0, 1, 0x3ff, 0x400, 0x3c00, 0x8000, 0x8001, 0xbc00])
      expect(texel(code)).toEqual([half.values[code], half.values[code + 1]]);
    expect(texel(0x7bff)).toEqual([half.values[0x7bff], half.values[0x7bff]]);
    expect(texel(0xfbff)).toEqual([half.values[0xfbff], half.values[0xfbff]]);
    // a NaN code reads as 0 through the curve, paired with itself
    expect(texel(0x7e00)).toEqual([-1, -1]);
  });

  it("writes the built-in displays' PQ table as OCIO's LIN_TO_PQ curve, with no table in the texture", () => {
    const pq = DISPLAY_BUILTINS['DISPLAY - CIE-XYZ-D65_to_REC.2100-PQ']!().filter((op) => op.type === 'lut1dHalf');
    expect(pq.map((op) => op.source)).toEqual(['builtin:LINEAR_TO_PQ']);
    const p = buildGpuProcessor(pq);
    expect(p.wgsl).toContain('ocioLinearToPq(c.xyz)');
    expect(p.lut1d.rgba.length).toBe(4);
  });

  it('writes a hue-adjusted 1D LUT as WGSL', () => {
    const table: Lut1DOp = {
      type: 'lut1d',
      direction: 'forward',
      length: 2,
      values: Float32Array.of(0, 0, 0, 1, 1, 1),
      interpolation: 'linear',
      source: 'hue',
      hueAdjust: true,
    };
    const p = buildGpuProcessor([table]);
    expect(p.bakedOpCount).toBe(0);
    expect(p.wgsl).toContain('ocioHueAdjust(c.xyz, ocioLut1d(');
  });

  it('writes GradingTone and GradingHueCurve as WGSL in every style and direction, with their helpers', () => {
    const builder = loadBuilder(`${CONFIG_DIR}/grading-tone-hue-test.ocio`);
    const kinds = new Set<string>();
    for (const cs of builder.config.colourSpaces.filter((c) => c.name !== 'ref')) {
      for (const ops of [builder.colourSpace(cs.name, 'ref'), builder.colourSpace('ref', cs.name)]) {
        // (a transform followed by its inverse leaves no op at all)
        if (ops.length === 0) continue;
        const p = buildGpuProcessor(ops);
        expect(p.bakedOpCount, cs.name).toBe(0);
        for (const op of ops)
          if (op.type === 'gradingTone' || op.type === 'gradingHueCurve') kinds.add(`${op.type} ${op.style} ${op.direction}`);
        expect(p.wgsl).toMatch(/ocioGt(Mids|FauxCubic|WhiteBlack|Contrast)\(|ocioRgbToHsy\(|vec3f\(h, s, y\)/);
        expect(p.wgsl).toContain('fn ocioHsyToRgb(');
      }
    }
    for (const type of ['gradingTone', 'gradingHueCurve'])
      for (const style of ['log', 'linear', 'video'])
        for (const dir of ['forward', 'inverse']) expect(kinds).toContain(`${type} ${style} ${dir}`);
  });

  it('writes GradingPrimary and GradingRGBCurve as WGSL in every style and direction, no bake', () => {
    const builder = loadBuilder(`${CONFIG_DIR}/grading-test.ocio`);
    const kinds = new Set<string>();
    for (const cs of builder.config.colourSpaces.filter((c) => c.name !== 'ref')) {
      for (const ops of [builder.colourSpace(cs.name, 'ref'), builder.colourSpace('ref', cs.name)]) {
        const p = buildGpuProcessor(ops);
        expect(p.bakedOpCount, cs.name).toBe(0);
        expect(p.gpuOps).toEqual(ops);
        for (const op of ops) {
          if (op.type !== 'gradingPrimary' && op.type !== 'gradingRgbCurve') continue;
          kinds.add(`${op.type} ${op.style} ${op.direction}`);
          const one = buildGpuProcessor([op]).wgsl;
          // a curve op calls the shared helpers; a primary grade only ocio-luts.wgsl's
          if (op.type === 'gradingRgbCurve') expect(one).toContain('fn ocioQuadInv(');
          if (op.type === 'gradingRgbCurve' && op.style === 'linear')
            expect(one.includes('ocioSseLinToLog(c.xyz)'), cs.name).toBe(!op.bypassLinToLog);
          if (op.type === 'gradingPrimary') expect(one).toMatch(op.saturation === 1 ? /var v = c\.xyz;/ : /dot\(v, OCIO_LUMA\)/);
        }
      }
    }
    for (const type of ['gradingPrimary', 'gradingRgbCurve'])
      for (const style of ['log', 'linear', 'video'])
        for (const dir of ['forward', 'inverse']) expect(kinds).toContain(`${type} ${style} ${dir}`);
  });

  it('leaves out a GradingPrimary or GradingRGBCurve that OCIO bypasses, and keeps a clamp-only grade', () => {
    const primary: GradingPrimaryOp = {
      type: 'gradingPrimary',
      direction: 'forward',
      style: 'log',
      brightness: [0, 0, 0, 0],
      contrast: [1, 1, 1, 1],
      gamma: [1, 1, 1, 1],
      offset: [0, 0, 0, 0],
      exposure: [0, 0, 0, 0],
      lift: [0, 0, 0, 0],
      gain: [1, 1, 1, 1],
      saturation: 1,
      pivot: -0.2,
      pivotBlack: 0,
      pivotWhite: 1,
      clampBlack: -Number.MAX_VALUE,
      clampWhite: Number.MAX_VALUE,
    };
    const unit = { points: [0, 0, 0.5, 0.5, 1, 1] };
    const curve: GradingRgbCurveOp = {
      type: 'gradingRgbCurve',
      direction: 'inverse',
      style: 'linear',
      bypassLinToLog: false,
      red: unit,
      green: unit,
      blue: unit,
      master: unit,
    };
    for (const op of [primary, { ...primary, style: 'linear' as const }, curve]) {
      const p = buildGpuProcessor([op]);
      expect(p.bakedOpCount).toBe(0);
      expect(p.wgsl.startsWith('fn ocio_apply(c0: vec4f) -> vec4f {\n  var c = c0;\n  \n  return vec4f(c.xyz, c0.w);\n}\n')).toBe(true);
    }
    // ocio_apply alone, without the helpers appended after it
    const applyOf = (ops: Op[]): string => buildGpuProcessor(ops).wgsl.split('\n}\n')[0]!;
    const clampOnly = applyOf([{ ...primary, clampBlack: 0.02, clampWhite: 0.9 }]);
    expect(clampOnly).toContain(`v = select(vec3f(${lit(0.02)}), v, v > vec3f(${lit(0.02)}));`);
    expect(clampOnly).toContain(`v = select(vec3f(${lit(0.9)}), v, v < vec3f(${lit(0.9)}));`);
    expect(clampOnly).not.toMatch(/ocioSsePow|OCIO_LUMA|v = v \+|\* vec3f/);
    const redOnly = applyOf([{ ...curve, red: { points: [0, 0, 0.5, 0.6, 1, 1] } }]);
    expect(redOnly).toContain('ocioSseLinToLog(c.xyz)');
    expect(redOnly).toContain('let cy = v.x;');
    expect(redOnly).not.toContain('let cy = v.y;');
  });

  it('the baked fallback reproduces a tone-mapped view within 2e-3 on scene-linear input', () => {
    const builder = loadBuilder(`${CONFIG_DIR}/studio-test.ocio`);
    for (const display of ['sRGB - Display', 'Gamma 2.2 - Display']) {
      const ops = builder.displayView('Linear Rec.709', display, 'Film');
      const baked = buildGpuProcessor(ops, { bakeAll: true });
      expect(baked.bakedOpCount).toBe(ops.length);
      const expected = sceneLinear(4096, 7);
      const actual = expected.slice();
      applyOps(ops, expected);
      applyOps(baked.gpuOps, actual);
      let worst = 0;
      for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(expected[i]! - actual[i]!));
      expect(worst, display).toBeLessThan(2e-3);
    }
  });
});
