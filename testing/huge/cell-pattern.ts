// A huge test image whose every level is known in closed form: 1024 px cells, one-pixel marker lines, written block by block.
//
// Red is a ramp across each cell plus a step per cell column (column mod 3), with a one-pixel column of 1.0 at x ≡ 300;
// green is a step per cell row (row mod 5), with a one-pixel row of 1.0 at y ≡ 700; blue is a checker of the cells,
// 0.1 and 0.9. A view placed a pixel off shows at the markers; one placed a power of two off (8192, 4096: the GPU's
// tile and crop grids) shows in the steps, whose periods (3 and 5 cells) divide none of them. Red depends on x alone,
// green on y alone and blue on the parity of the cell, so a MIP level's box filter of them is exact from 1-D sums, and
// blocks with the same columns and rows repeat: each distinct block is made, and compressed, once.
import { floatToHalf, HALF_TO_FLOAT } from '../../codec/index.js';
import type { BlockSource } from '../../codec/index.js';

const CELL_PX = 1024;

const red0 = (x: number): number =>
  x % CELL_PX === 300 ? 1 : 0.1 + 0.25 * (Math.floor(x / CELL_PX) % 3) + 0.15 * ((x % CELL_PX) / CELL_PX);
const green0 = (y: number): number => (y % CELL_PX === 700 ? 1 : 0.1 + 0.15 * (Math.floor(y / CELL_PX) % 5));
const odd = (p: number): number => Math.floor(p / CELL_PX) & 1;

/** One axis of a level: each sample's mean of a level-0 function over the 2^k samples it covers. */
function levelAxis(f: (p: number) => number, size0: number, k: number): Float64Array {
  const footprint = 2 ** k,
    size = Math.max(1, Math.floor(size0 / footprint));
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const from = i * footprint,
      to = Math.min(size0, from + footprint);
    let sum = 0;
    for (let p = from; p < to; p++) sum += f(p);
    out[i] = sum / (to - from);
  }
  return out;
}

interface LevelAxes {
  red: Float64Array;
  green: Float64Array;
  /** Share of the footprint in an odd cell column / row. */
  oddX: Float64Array;
  oddY: Float64Array;
}

export interface CellPattern {
  widthPx: number;
  heightPx: number;
  /** Channel c (0 red, 1 green, 2 blue) of MIP level k at the level's pixel (x, y), as computed (before storage rounding). */
  value(k: number, c: number, x: number, y: number): number;
  /** The value as stored in a file of `pixelType`: rounded to half or to float. */
  stored(pixelType: 'half' | 'float', k: number, c: number, x: number, y: number): number;
  /** Blocks of R, G, B for the streaming writer (level k = the block's lx). */
  blocks(pixelType: 'half' | 'float'): BlockSource;
}

export function cellPattern(widthPx: number, heightPx: number): CellPattern {
  const axes = new Map<number, LevelAxes>();
  const axesOf = (k: number): LevelAxes => {
    let a = axes.get(k);
    if (!a) {
      a = {
        red: levelAxis(red0, widthPx, k),
        green: levelAxis(green0, heightPx, k),
        oddX: levelAxis(odd, widthPx, k),
        oddY: levelAxis(odd, heightPx, k),
      };
      axes.set(k, a);
    }
    return a;
  };
  const value = (k: number, c: number, x: number, y: number): number => {
    const a = axesOf(k);
    if (c === 0) return a.red[x]!;
    if (c === 1) return a.green[y]!;
    const ox = a.oddX[x]!,
      oy = a.oddY[y]!;
    return 0.1 + 0.8 * (ox * (1 - oy) + (1 - ox) * oy);
  };
  const stored = (pixelType: 'half' | 'float', k: number, c: number, x: number, y: number): number =>
    pixelType === 'half' ? HALF_TO_FLOAT[floatToHalf(value(k, c, x, y))]! : Math.fround(value(k, c, x, y));

  // a block is the same as another where its columns and rows are: named by the axes' values over it
  const axisNames = new Map<string, number>();
  const axisIds = new Map<string, number>();
  const axisName = (k: number, axis: 'x' | 'y', from: number, count: number): number => {
    const where = `${k}${axis}${from},${count}`;
    let id = axisIds.get(where);
    if (id === undefined) {
      const a = axesOf(k);
      const [main, parity] = axis === 'x' ? [a.red, a.oddX] : [a.green, a.oddY];
      const values = `${k}${axis}:${main.subarray(from, from + count).join()}|${parity.subarray(from, from + count).join()}`;
      id = axisNames.get(values) ?? axisNames.size;
      axisNames.set(values, id);
      axisIds.set(where, id);
    }
    return id;
  };
  const blocks = (pixelType: 'half' | 'float'): BlockSource => ({
    sameAs: (level, block) =>
      `${level.lx}:${axisName(level.lx, 'x', block.x0, block.widthPx)}:${axisName(level.lx, 'y', block.y0, block.heightPx)}`,
    pixels: (level, block) => {
      const k = level.lx,
        n = block.widthPx * block.heightPx;
      const planes = pixelType === 'half' ? [0, 1, 2].map(() => new Uint16Array(n)) : [0, 1, 2].map(() => new Float32Array(n));
      for (let y = 0; y < block.heightPx; y++)
        for (let x = 0; x < block.widthPx; x++) {
          const i = y * block.widthPx + x;
          for (let c = 0; c < 3; c++) {
            const v = value(k, c, block.x0 + x, block.y0 + y);
            planes[c]![i] = pixelType === 'half' ? floatToHalf(v) : v;
          }
        }
      return planes;
    },
  });
  return { widthPx, heightPx, value, stored, blocks };
}
