// The cells a histogram leaves out, against brute force: a MIP level's texels whose reduction reads a missing pixel
// (marked NaN and reduced as the GPU reduces), a stride's samples that fall in a hole, the mask equal to the boxes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Region } from './compare-cpu.js';
import { HIST_BINS } from './display-params.js';
import { cellSkipped, histogramSkipping, levelSkipCells, MAX_SKIP_BOXES, packSkipCells, strideSkipCells } from './histogram-skip.js';
import { histogram, mipReduce } from './tonemap-cpu.js';

const inHole = (holes: readonly Region[], x: number, y: number): boolean =>
  holes.some((h) => x >= h.x0 && x < h.x0 + h.widthPx && y >= h.y0 && y < h.y0 + h.heightPx);

/** Level `level` of a layer whose missing pixels are NaN: a texel is NaN exactly when its footprint meets a hole. */
function reducedMarks(widthPx: number, heightPx: number, holes: readonly Region[], level: number) {
  let l: { data: Float32Array; widthPx: number; heightPx: number } = { data: new Float32Array(widthPx * heightPx * 4), widthPx, heightPx };
  for (let y = 0; y < heightPx; y++) for (let x = 0; x < widthPx; x++) if (inHole(holes, x, y)) l.data[(y * widthPx + x) * 4] = NaN;
  for (let i = 0; i < level; i++) l = mipReduce(l.data, l.widthPx, l.heightPx);
  return l;
}

const arbHole = fc.record({
  x0: fc.integer({ min: -4, max: 40 }),
  y0: fc.integer({ min: -4, max: 40 }),
  widthPx: fc.integer({ min: 0, max: 20 }),
  heightPx: fc.integer({ min: 0, max: 20 }),
});

describe('levelSkipCells', () => {
  it('leaves out exactly the texels whose reduction reads a missing pixel (property, odd sizes and levels of size 1)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 37 }),
        fc.integer({ min: 1, max: 37 }),
        fc.array(arbHole, { maxLength: 4 }),
        fc.integer({ min: 0, max: 6 }),
        (widthPx, heightPx, holes, level) => {
          const marks = reducedMarks(widthPx, heightPx, holes, level);
          const cells = levelSkipCells(holes, widthPx, heightPx, level);
          for (let y = 0; y < marks.heightPx; y++)
            for (let x = 0; x < marks.widthPx; x++)
              expect(cellSkipped(cells, x, y), `texel ${x},${y}`).toBe(Number.isNaN(marks.data[(y * marks.widthPx + x) * 4]));
        },
      ),
    );
  });

  it('a file cut short: at level 2 the texels over the missing rows, and the one row that averages both', () => {
    // rows 0-95 read, 96-207 missing: level 2 texel rows 0-23 read; 24 onwards averages missing rows
    expect(levelSkipCells([{ x0: 0, y0: 96, widthPx: 64, heightPx: 112 }], 64, 208, 2)).toEqual([{ x0: 0, y0: 24, x1: 15, y1: 51 }]);
    expect(levelSkipCells([{ x0: 0, y0: 95, widthPx: 64, heightPx: 113 }], 64, 208, 2)).toEqual([{ x0: 0, y0: 23, x1: 15, y1: 51 }]);
  });

  it('no holes, no cells: the histogram is the plain one', () => {
    const rgba = Float32Array.from({ length: 9 * 7 * 4 }, (_, i) => Math.sin(i) * 10);
    expect(levelSkipCells([], 9, 7, 0)).toEqual([]);
    expect([...histogramSkipping(rgba, 9, 7, [])]).toEqual([...histogram(rgba, 9 * 7)]);
  });
});

describe('histogramSkipping', () => {
  it('equals the histogram of the texels whose reduction reads no missing pixel, counted one by one', () => {
    const widthPx = 45,
      heightPx = 31,
      level = 2;
    const holes = [
      { x0: 5, y0: 3, widthPx: 7, heightPx: 2 },
      { x0: 30, y0: 20, widthPx: 40, heightPx: 40 },
    ];
    const marks = reducedMarks(widthPx, heightPx, holes, level);
    const values = Float32Array.from({ length: marks.widthPx * marks.heightPx * 4 }, (_, i) => (i % 11 === 0 ? 0 : 2 ** ((i % 37) - 18)));
    const kept: number[] = [];
    for (let t = 0; t < marks.widthPx * marks.heightPx; t++)
      if (!Number.isNaN(marks.data[t * 4])) kept.push(...values.subarray(t * 4, t * 4 + 4));
    const got = histogramSkipping(values, marks.widthPx, marks.heightPx, levelSkipCells(holes, widthPx, heightPx, level));
    expect([...got]).toEqual([...histogram(kept, kept.length / 4)]);
    expect(got.subarray(0, HIST_BINS).reduce((s, v) => s + v, 0)).toBe(kept.length / 4);
  });
});

describe('strideSkipCells', () => {
  it('leaves out exactly the sampled pixels that lie in a hole (property)', () => {
    fc.assert(
      fc.property(
        fc.record({ x0: fc.integer({ min: -5, max: 5 }), y0: fc.integer({ min: -5, max: 5 }), widthPx: fc.integer({ min: 1, max: 40 }) }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(arbHole, { maxLength: 4 }),
        ({ x0, y0, widthPx }, heightPx, step, holes) => {
          const region = { x0, y0, widthPx, heightPx };
          const cells = strideSkipCells(holes, region, step);
          for (let j = 0; j < Math.ceil(heightPx / step); j++)
            for (let i = 0; i < Math.ceil(widthPx / step); i++)
              expect(cellSkipped(cells, i, j)).toBe(inHole(holes, x0 + i * step, y0 + j * step));
        },
      ),
    );
  });
});

describe('packSkipCells', () => {
  it('boxes up to the cap; beyond it a mask that marks the same cells', () => {
    const few = [{ x0: 1, y0: 2, x1: 3, y1: 4 }];
    const small = packSkipCells(few, 10, 10);
    expect(small.mask).toBeNull();
    expect([...small.header.subarray(0, 8)]).toEqual([1, 0, 0, 0, 1, 2, 3, 4]);
    const many = Array.from({ length: MAX_SKIP_BOXES + 1 }, (_, i) => ({ x0: i % 13, y0: i % 7, x1: (i % 13) + 2, y1: (i % 7) + 1 }));
    const big = packSkipCells(many, 16, 9);
    expect(big.header[1]).toBe(1);
    for (let y = 0; y < 9; y++) for (let x = 0; x < 16; x++) expect(big.mask!.data[y * 16 + x]).toBe(cellSkipped(many, x, y) ? 1 : 0);
  });
});
