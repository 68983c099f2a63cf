// Comparison metrics around missing pixels: the rectangles' figures combined equal one reduction over the pixels outside
// the holes (the CPU reference, which skips them pixel by pixel), the largest error's place included; and a pair worked
// out by hand.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricsReference, summariseChannel, type ChannelMetrics, type Region, type RgbaLayer } from './compare-cpu.js';
import { combineMetrics, pixelsInHoles } from './metrics-regions.js';
import { regionsWithout } from './stats-regions.js';

const COUNTS: (keyof ChannelMetrics)[] = ['n', 'differ', 'nanA', 'infA', 'nanB', 'infB', 'maxAt', 'maxAbs', 'peak'];

const arbValue = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -40, max: 40 }).map((v) => v / 4) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
);
const arbLayer = (x0: number, y0: number, widthPx: number, heightPx: number) =>
  fc
    .array(arbValue, { minLength: widthPx * heightPx * 4, maxLength: widthPx * heightPx * 4 })
    .map((v): RgbaLayer => ({ rgba: Float32Array.from(v), x0, y0, widthPx, heightPx }));
const arbHole = fc.record({
  x0: fc.integer({ min: -2, max: 10 }),
  y0: fc.integer({ min: -2, max: 10 }),
  widthPx: fc.integer({ min: 0, max: 6 }),
  heightPx: fc.integer({ min: 0, max: 6 }),
});

describe('metrics combined over the rectangles around holes', () => {
  it('equal the reference that skips the holes pixel by pixel: counts, largest error and where, exactly (property)', () => {
    fc.assert(
      fc.property(
        arbLayer(0, 0, 7, 6),
        arbLayer(2, -1, 6, 8),
        fc.array(arbHole, { maxLength: 4 }),
        fc.constantFrom(0, 0.5),
        (a, b, holes, threshold) => {
          const region: Region = { x0: 0, y0: -1, widthPx: 8, heightPx: 8 };
          const pieces = regionsWithout(region, holes).map((p) => metricsReference(a, b, p, threshold));
          const got = combineMetrics(pieces, region);
          const want = metricsReference(a, b, region, threshold, holes);
          expect(got.pixelsDiffer).toBe(want.pixelsDiffer);
          expect(got.region).toEqual(region);
          for (let c = 0; c < 4; c++) {
            for (const k of COUNTS) expect(got.channels[c]![k], `channel ${c} ${k}`).toBe(want.channels[c]![k]);
            for (const k of ['sum', 'sumAbs', 'sumSq'] as const) expect(got.channels[c]![k]).toBeCloseTo(want.channels[c]![k], 9);
          }
        },
      ),
    );
  });

  it('without holes the reference is unchanged, and the holes leave out exactly their pixels', () => {
    const a: RgbaLayer = {
      rgba: Float32Array.from({ length: 5 * 4 * 4 }, (_, i) => Math.sin(i) * 3),
      x0: 0,
      y0: 0,
      widthPx: 5,
      heightPx: 4,
    };
    const b: RgbaLayer = { ...a, rgba: a.rgba.map((v, i) => v + (i % 3) * 0.25) };
    const region: Region = { x0: 0, y0: 0, widthPx: 5, heightPx: 4 };
    expect(metricsReference(a, b, region, 0, [])).toEqual(metricsReference(a, b, region, 0));
    const holes = [
      { x0: 1, y0: 1, widthPx: 2, heightPx: 2 },
      { x0: 2, y0: 2, widthPx: 9, heightPx: 1 },
    ];
    expect(pixelsInHoles(region, holes)).toBe(4 + 2);
    expect(metricsReference(a, b, region, 0, holes).channels[0]!.n).toBe(20 - 6);
  });
});

describe('a pair worked out by hand', () => {
  // R of A: 1 2 3 / 4 5 6; R of B: 1 1 1 / 0 0 0 with B's second row missing (read as 0) and A's first pixel missing.
  // G, B and A the same in both.
  const rOf = (rows: number[][]) => Float32Array.from(rows.flat().flatMap((r) => [r, 0.5, 0.25, 1]));
  const a: RgbaLayer = {
    rgba: rOf([
      [1, 2, 3],
      [4, 5, 6],
    ]),
    x0: 0,
    y0: 0,
    widthPx: 3,
    heightPx: 2,
  };
  const b: RgbaLayer = {
    rgba: rOf([
      [1, 1, 1],
      [0, 0, 0],
    ]),
    x0: 0,
    y0: 0,
    widthPx: 3,
    heightPx: 2,
  };
  const region: Region = { x0: 0, y0: 0, widthPx: 3, heightPx: 2 };
  const holes = [
    { x0: 0, y0: 0, widthPx: 1, heightPx: 1 },
    { x0: 0, y0: 1, widthPx: 3, heightPx: 1 },
  ];

  it('counting the missing pixels would give R: mean error 3, largest error 6 at (2, 1)', () => {
    const r = summariseChannel(metricsReference(a, b, region).channels[0]!, region);
    expect([r.n, r.meanError, r.maxAbsError, r.maxAt]).toEqual([6, 3, 6, [2, 1]]);
  });

  it('leaving them out: R compares (1, 0) and (2, 0) only, through the rectangles as through the reference', () => {
    const pieces = regionsWithout(region, holes).map((p) => metricsReference(a, b, p));
    for (const totals of [combineMetrics(pieces, region), metricsReference(a, b, region, 0, holes)]) {
      // |A − B|: 1 and 2; squared 1 and 4; the largest value of either is 3
      const r = summariseChannel(totals.channels[0]!, region);
      expect(r.n).toBe(2);
      expect(r.meanError).toBe(1.5);
      expect(r.meanAbsError).toBe(1.5);
      expect(r.rmse).toBeCloseTo(Math.sqrt(2.5), 12);
      expect(r.psnr).toBeCloseTo(20 * Math.log10(3 / Math.sqrt(2.5)), 12);
      expect(r.maxAbsError).toBe(2);
      expect(r.maxAt).toEqual([2, 0]);
      expect(r.differ).toBe(2);
      const g = summariseChannel(totals.channels[1]!, region);
      expect([g.n, g.rmse, g.psnr, g.differ]).toEqual([2, 0, Infinity, 0]);
      expect(totals.pixelsDiffer).toBe(2);
    }
  });
});
