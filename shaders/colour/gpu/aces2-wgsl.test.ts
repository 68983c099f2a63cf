// The ACES 2.0 output transform's WGSL: it is written, not baked, and its per-hue tables land in the 1D LUT texture where
// the call says, its hue buckets find the search's interval; the stage styles are still baked. On the GPU (Dawn, in a
// child: SwiftShader here) it matches applyOps within the issue's 2e-3, its tone scale analytic. (Also e2e/ocio-gpu.spec.ts.)
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedFunctionOp, Op } from '../ops/op.js';
import { primariesOf, stateFor } from '../ops/aces2/apply.js';
import { TABLE_SIZE, lookupHueInterval } from '../ops/aces2/tables.js';
import { aces2GpuTables, bucketInterval, hueBuckets, windowInterval } from './aces2-tables.js';
import { halfLutOf } from '../ops/lut1d-half.js';
import { buildGpuProcessor } from './processor-wgsl.js';
import { bundleDawnChild, dawnSkipReason, runDawnChild } from '../../../testing/dawn-child.js';
import type { Aces2GpuCase } from '../../../testing/colour/aces2-gpu-child.js';

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
    expect(p.wgsl).toContain('fn aces2GamutFwd(');
    expect(p.wgsl).toContain('fn aces2GamutCompressInv(');
    // the forward tone scale is analytic: no table in the texture, the call made from the achromatic response
    expect(p.wgsl).toContain('let tone = aces2ToneFwd(aab.x, p);');
    expect(p.gpuOps.map((op) => op.type)).toEqual(['fixedFunction', 'fixedFunction']);
  });

  it('puts each parameter set’s cusp, reach and bucket tables in the 1D texture, four values an entry', () => {
    const hdr = [1000, ...REC709_100_NITS.slice(1)];
    const p = buildGpuProcessor([outputTransform('forward'), outputTransform('forward', hdr)]);
    const s = stateFor(1000, primariesOf(hdr.slice(1)));
    const tables = aces2GpuTables(s);
    const sdrEntries = aces2GpuTables(stateFor(100, primariesOf(REC709_100_NITS.slice(1)))).values.length / 4;
    expect(p.lut1d.widthPx * p.lut1d.heightPx).toBeGreaterThanOrEqual(sdrEntries + tables.values.length / 4);
    const offsets = [0, tables.reachAt, tables.bucketsAt, tables.bucketCount - 1].map((o, i) => (i === 3 ? o : o + sdrEntries));
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

  it('still bakes the stage styles, and the inverse of a half-domain LUT; its forward is WGSL', () => {
    const stage: Op = { type: 'fixedFunction', style: 'ACES_RGB_TO_JMh_20', direction: 'forward', params: REC709_100_NITS.slice(1) };
    expect(buildGpuProcessor([stage]).bakedOpCount).toBe(1);
    const half = halfLutOf((x) => x * 0.5, 'half of x');
    expect(buildGpuProcessor([half]).bakedOpCount).toBe(0);
    expect(buildGpuProcessor([half]).wgsl).toContain('ocioHalfLut(c.xyz, 0)');
    expect(buildGpuProcessor([{ ...half, direction: 'inverse' }]).bakedOpCount).toBe(1);
  });
});

const why = dawnSkipReason();
if (why) console.warn(`aces2-wgsl.test: GPU part skipped: ${why}`);

describe.skipIf(!!why)('ACES 2.0 WGSL on the GPU against applyOps', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await bundleDawnChild('testing/colour/aces2-gpu-child.ts', 'aces2-gpu-test');
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('matches within 2e-3 forward (analytic tone scale) and inverse, SDR and HDR', () => {
    const out = join(dir, 'out.json');
    const { died, stderr } = runDawnChild(dir, [out]);
    expect(died, `${died}\n${stderr}`).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8')) as { adapter: string; cases: Aces2GpuCase[] };
    // the forward's display-linear output per channel; the inverse's scene-linear output against the pixel's largest channel
    const judged = result.cases.map((c) =>
      c.name.endsWith('inverse') ? { ...c, err: c.pixelErr, at: c.pixelWorst } : { ...c, err: c.maxErr, at: c.worst },
    );
    console.log(`aces2-wgsl.test: on ${result.adapter}: ${judged.map((c) => `${c.name} ${c.err.toExponential(1)}`).join(', ')}`);
    expect(judged).toHaveLength(8);
    expect(judged.filter((c) => !(c.err < 2e-3)).map((c) => `${c.name}: ${c.err}, worst ${c.at}`)).toEqual([]);
  });
});
