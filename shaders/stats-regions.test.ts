// Statistics around missing pixels: the rectangles cover exactly the region less the holes, and their combined figures
// equal one reduction over those pixels (the CPU reference, pixel by pixel).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accumulateStat,
  emptyChannelStats,
  pairHistogramReference,
  sourceValue,
  statsReference,
  unionRegion,
  valueAt,
  type Region,
  type RgbaLayer,
} from './compare-cpu.js';
import type { StatsSource } from './compare-params.js';
import { countHistogramPixel } from './tonemap-cpu.js';
import { boxesAsRegions, combineChannels, measuredHoles, regionArea, regionsWithout } from './stats-regions.js';

const inside = (r: Region, x: number, y: number) => x >= r.x0 && x < r.x0 + r.widthPx && y >= r.y0 && y < r.y0 + r.heightPx;
const arbRegion = fc.record({
  x0: fc.integer({ min: -3, max: 12 }),
  y0: fc.integer({ min: -3, max: 12 }),
  widthPx: fc.integer({ min: 0, max: 14 }),
  heightPx: fc.integer({ min: 0, max: 14 }),
});

describe('regionsWithout', () => {
  it('covers every pixel of the region outside the holes exactly once, and no other (property)', () => {
    fc.assert(
      fc.property(arbRegion, fc.array(arbRegion, { maxLength: 5 }), (region, holes) => {
        const pieces = regionsWithout(region, holes);
        for (let y = -4; y < 28; y++)
          for (let x = -4; x < 28; x++) {
            const want = inside(region, x, y) && !holes.some((h) => inside(h, x, y)) ? 1 : 0;
            expect(pieces.filter((p) => inside(p, x, y)).length).toBe(want);
          }
      }),
    );
  });

  it('a file cut short: one band above the missing rows', () => {
    const pieces = regionsWithout({ x0: 0, y0: 0, widthPx: 64, heightPx: 200 }, [{ x0: 0, y0: 96, widthPx: 64, heightPx: 104 }]);
    expect(pieces).toEqual([{ x0: 0, y0: 0, widthPx: 64, heightPx: 96 }]);
    expect(regionArea(pieces)).toBe(64 * 96);
  });
});

describe('statistics combined over rectangles', () => {
  it('equal the figures of the pixels outside the holes, accumulated one by one', () => {
    const region = { x0: 2, y0: 1, widthPx: 11, heightPx: 9 };
    const rgba = Float32Array.from({ length: 11 * 9 * 4 }, (_, i) => (i % 7 === 0 ? NaN : Math.sin(i) * 100 + (i % 13)));
    const layer: RgbaLayer = { rgba, ...region };
    const holes = [
      { x0: 4, y0: 3, widthPx: 3, heightPx: 4 },
      { x0: 0, y0: 8, widthPx: 20, heightPx: 5 },
    ];
    const pieces = regionsWithout(region, holes);
    const got = combineChannels(
      pieces.map((p) => statsReference(layer, null, { kind: 'a' }, p)),
      () => [0, 1, 2, 3].map(emptyChannelStats),
    );
    const want = [0, 1, 2, 3].map(emptyChannelStats);
    for (let y = 0; y < 9; y++)
      for (let x = 0; x < 11; x++) {
        if (holes.some((h) => inside(h, x + 2, y + 1))) continue;
        for (let c = 0; c < 4; c++) accumulateStat(want[c]!, rgba[(y * 11 + x) * 4 + c]!);
      }
    for (let c = 0; c < 4; c++) {
      expect(got[c]!.n).toBe(want[c]!.n);
      expect([got[c]!.nan, got[c]!.inf, got[c]!.min, got[c]!.max]).toEqual([want[c]!.nan, want[c]!.inf, want[c]!.min, want[c]!.max]);
      expect(got[c]!.mean).toBeCloseTo(want[c]!.mean, 9);
      expect(got[c]!.m2).toBeCloseTo(want[c]!.m2, 6);
    }
  });
});

describe('a damaged B: its missing pixels aligned into A and left out of what reads B', () => {
  // A 12×10 at (0, 0) missing a box; B 9×8 with its own data window at (100, 50) and a display window that puts its
  // data window's corner at A's (3, 2), missing its bottom rows and a box (B's own coordinates)
  const aLayer: RgbaLayer = {
    rgba: Float32Array.from({ length: 12 * 10 * 4 }, (_, i) => 1 + Math.cos(i) * 0.5),
    x0: 0,
    y0: 0,
    widthPx: 12,
    heightPx: 10,
  };
  const bShift: [number, number] = [3 - 100, 2 - 50];
  const bLayer: RgbaLayer = {
    rgba: Float32Array.from({ length: 9 * 8 * 4 }, (_, i) => 2 + Math.sin(i)),
    x0: 3,
    y0: 2,
    widthPx: 9,
    heightPx: 8,
  };
  const aMissing: [number, number, number, number][] = [[1, 1, 4, 3]];
  const bMissing: [number, number, number, number][] = [
    [100, 55, 108, 57],
    [102, 50, 103, 51],
  ];
  const inBox = (boxes: number[][], x: number, y: number) => boxes.some(([x0, y0, x1, y1]) => x >= x0! && x <= x1! && y >= y0! && y <= y1!);
  /** Brute force: missing in A at (x, y), or in B at B's own pixel (x, y) less the shift. */
  const missing = (kind: 'a' | 'b' | 'difference', x: number, y: number) =>
    (kind !== 'b' && inBox(aMissing, x, y)) || (kind !== 'a' && inBox(bMissing, x - bShift[0], y - bShift[1]));
  const sources: StatsSource[] = [{ kind: 'a' }, { kind: 'b' }, { kind: 'difference', mode: 'absolute-error' }];
  const over = unionRegion(aLayer, bLayer);

  it('the statistics of A, B and their difference leave out exactly the pixels missing from an image they read', () => {
    for (const source of sources) {
      const holes = measuredHoles(source.kind, aMissing, bMissing, bShift);
      const region = source.kind === 'a' ? aLayer : source.kind === 'b' ? bLayer : over;
      const got = combineChannels(
        regionsWithout(region, holes).map((p) => statsReference(aLayer, bLayer, source, p)),
        () => [0, 1, 2, 3].map(emptyChannelStats),
      );
      const want = [0, 1, 2, 3].map(emptyChannelStats);
      let kept = 0;
      for (let y = region.y0; y < region.y0 + region.heightPx; y++)
        for (let x = region.x0; x < region.x0 + region.widthPx; x++) {
          if (missing(source.kind, x, y)) continue;
          kept++;
          for (let c = 0; c < 4; c++) accumulateStat(want[c]!, sourceValue(source, valueAt(aLayer, x, y, c), valueAt(bLayer, x, y, c)));
        }
      expect(kept).toBeLessThan(region.widthPx * region.heightPx);
      for (let c = 0; c < 4; c++) {
        expect(got[c]!.n, `${source.kind} ${c}`).toBe(kept);
        expect(got[c]!.mean).toBeCloseTo(want[c]!.mean, 9);
        expect([got[c]!.min, got[c]!.max]).toEqual([want[c]!.min, want[c]!.max]);
      }
    }
  });

  it('the histogram of what a mode shows leaves out the same samples (CPU reference, every pixel and a stride)', () => {
    for (const source of sources)
      for (const step of [1, 2, 3]) {
        const holes = measuredHoles(source.kind, aMissing, bMissing, bShift);
        const got = pairHistogramReference(aLayer, bLayer, source, over, step, 1, holes);
        const want = new Uint32Array(got.length);
        for (let y = over.y0; y < over.y0 + over.heightPx; y += step)
          for (let x = over.x0; x < over.x0 + over.widthPx; x += step) {
            if (missing(source.kind, x, y)) continue;
            const v = [0, 1, 2].map((c) => {
              const d = Math.fround(sourceValue(source, valueAt(aLayer, x, y, c), valueAt(bLayer, x, y, c)));
              return source.kind === 'difference' ? Math.abs(d) : d;
            });
            countHistogramPixel(want, v[0]!, v[1]!, v[2]!);
          }
        expect([...got]).toEqual([...want]);
      }
  });

  it('boxes are inclusive: a one-pixel box is one pixel', () => {
    expect(boxesAsRegions([[5, 6, 5, 6]], 1, -2)).toEqual([{ x0: 6, y0: 4, widthPx: 1, heightPx: 1 }]);
  });
});
