// The Comparison metrics of a damaged pair: the pixels missing in A or B are left out on either path (reductions over
// the rectangles around them, or the CPU reference), and how many were missing in each is counted.
import { describe, expect, it } from 'vitest';
import { metricsReference, type MetricsTotals, type Region, type RgbaLayer } from '../../shaders/compare-cpu.js';
import { boxesAsRegions } from '../../shaders/stats-regions.js';
import type { Timed } from '../gpu/analysis.js';
import { measureMetrics } from './compare-metrics.js';

// A 8×6 at (0, 0); B 8×6 whose rows 4-5 are missing (a file cut short) and A missing a 2×2 box that overlaps nothing of B's
const W = 8;
const H = 6;
const a: RgbaLayer = { rgba: Float32Array.from({ length: W * H * 4 }, (_, i) => 1 + (i % 5) * 0.5), x0: 0, y0: 0, widthPx: W, heightPx: H };
const b: RgbaLayer = {
  ...a,
  // what B's reader gave: its readable rows near A, the missing ones 0
  rgba: a.rgba.map((v, i) => (Math.floor(i / (W * 4)) >= 4 ? 0 : v + 0.25 * (i % 2))),
};
const region: Region = { x0: 0, y0: 0, widthPx: W, heightPx: H };
const aHoles = boxesAsRegions([[2, 1, 3, 2]]);
const bHoles = boxesAsRegions([[0, 4, W - 1, H - 1]]);
const cpuLayers = () => ({ a, b });

/** Every channel's figures, the sums to 9 places. */
function expectSame(got: MetricsTotals, want: MetricsTotals): void {
  expect(got.pixelsDiffer).toBe(want.pixelsDiffer);
  got.channels.forEach((m, c) => {
    const w = want.channels[c]!;
    expect({ ...m, sum: 0, sumAbs: 0, sumSq: 0 }).toEqual({ ...w, sum: 0, sumAbs: 0, sumSq: 0 });
    for (const k of ['sum', 'sumAbs', 'sumSq'] as const) expect(m[k]).toBeCloseTo(w[k], 9);
  });
}

describe('measureMetrics', () => {
  it('on the CPU (an engine without reductions) leaves out the pixels missing in A or B and counts them', async () => {
    const got = await measureMetrics({ metrics: async () => null }, region, aHoles, bHoles, cpuLayers);
    expect(got.path).toBe('cpu');
    expect([got.missingPxA, got.missingPxB, got.leftOutPx]).toEqual([4, 2 * W, 4 + 2 * W]);
    // of the pairs left, R and B are equal, G and A 0.25 apart; B's missing rows would add differences of up to 3
    expect(got.totals.channels.map((m) => m.n)).toEqual([0, 1, 2, 3].map(() => W * H - 4 - 2 * W));
    expect(got.totals.channels.map((m) => m.maxAbs)).toEqual([0, 0.25, 0, 0.25]);
    expectSame(got.totals, metricsReference(a, b, region, 0, [...aHoles, ...bHoles]));
  });

  it('by reductions over the rectangles around the holes, none of which reads a missing pixel, as the reference', async () => {
    const asked: Region[] = [];
    // the engine's reduction of a rectangle, here the reference over it (e2e/compare-gpu.spec.ts runs the GPU's)
    const engine = {
      metrics: async (r: Region): Promise<Timed<MetricsTotals>> => {
        asked.push(r);
        return { value: metricsReference(a, b, r), gpuMs: 0.5, wallMs: 1 };
      },
    };
    const got = await measureMetrics(engine, region, aHoles, bHoles, () => {
      throw new Error('the CPU layers are not needed on the GPU path');
    });
    expect(got.path).toBe('gpu');
    expect(got.gpuMs).toBe(0.5 * asked.length);
    const inside = (r: Region, x: number, y: number) => x >= r.x0 && x < r.x0 + r.widthPx && y >= r.y0 && y < r.y0 + r.heightPx;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const missing = [...aHoles, ...bHoles].some((h) => inside(h, x, y));
        expect(asked.filter((r) => inside(r, x, y)).length, `${x}, ${y}`).toBe(missing ? 0 : 1);
      }
    expectSame(got.totals, metricsReference(a, b, region, 0, [...aHoles, ...bHoles]));
  });

  it('an undamaged pair is one reduction over the region, as before', async () => {
    const asked: Region[] = [];
    const got = await measureMetrics(
      { metrics: async (r: Region) => (asked.push(r), { value: metricsReference(a, b, r), gpuMs: 0.5, wallMs: 1 }) },
      region,
      [],
      [],
      cpuLayers,
    );
    expect(asked).toEqual([region]);
    expect([got.missingPxA, got.missingPxB, got.leftOutPx]).toEqual([0, 0, 0]);
    expectSame(got.totals, metricsReference(a, b, region));
  });
});
