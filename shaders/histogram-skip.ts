// Which samples a histogram leaves out (a damaged image's missing pixels): the holes mapped onto the grid a histogram
// pass samples (a MIP level's texels, or every step-th pixel of a region), as inclusive boxes of cells; packed for the
// GPU (histogram-bins.wgsl's `skipped`), and the CPU reference that counts the same cells.
import type { Region } from './compare-cpu.js';
import { HIST_BINS } from './display-params.js';
import { countHistogramPixel, nextLevelSize } from './tonemap-cpu.js';

/** Cells of a sampled grid, inclusive on both ends. */
export interface CellBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Boxes the GPU tests one by one (SkipCells' array length in histogram-bins.wgsl); beyond this many a mask of the grid is bound. */
export const MAX_SKIP_BOXES = 64;
/** histogram-bins.wgsl's SkipCells: count, useMask, two words of padding, then MAX_SKIP_BOXES vec4u. */
export const SKIP_CELLS_BYTES = 16 + MAX_SKIP_BOXES * 16;

/**
 * The texels of level `level` along one axis of `sizePx` pixels whose footprint meets pixels lo..hi (inclusive), or
 * null. Texel t of level L averages texels min(2t, w-1) and min(2t+1, w-1) of level L-1 (mip.wgsl); with floor halving
 * its footprint is pixels t·2^L..(t+1)·2^L-1, except the last texel's, which can end early (a level of size 1 reads
 * texel 0 twice) and pixels past it are read by no texel (an odd size drops its last row).
 */
function levelSpan(lo: number, hi: number, sizePx: number, level: number): [number, number] | null {
  let w = sizePx;
  // the last pixel the last texel of each level reaches
  let lastPx = sizePx - 1;
  for (let l = 1; l <= level; l++) {
    const next = nextLevelSize(w);
    const child = Math.min(2 * (next - 1) + 1, w - 1);
    // the last texel's footprint ends where that of its last child does (children end at (child+1)·2^(l-1)-1 unless last)
    lastPx = child === w - 1 ? lastPx : (child + 1) * 2 ** (l - 1) - 1;
    w = next;
  }
  const t0 = Math.max(0, Math.floor(lo / 2 ** level));
  const t1 = Math.min(w - 1, Math.floor(hi / 2 ** level));
  if (t0 > t1 || hi < 0) return null;
  // only the last texel's footprint can end before lo
  if (t0 === w - 1 && lastPx < lo) return null;
  return [t0, t1];
}

/**
 * The texels of MIP level `level` of a `widthPx`×`heightPx` layer to leave out: every texel whose footprint (the
 * 2^L×2^L pixels it averages) meets a hole, since a missing pixel (read as 0) is averaged into it. Holes in the
 * layer's pixels (0, 0 its first).
 */
export function levelSkipCells(holes: readonly Region[], widthPx: number, heightPx: number, level: number): CellBox[] {
  const out: CellBox[] = [];
  for (const h of holes) {
    if (h.widthPx <= 0 || h.heightPx <= 0) continue;
    const xs = levelSpan(h.x0, h.x0 + h.widthPx - 1, widthPx, level);
    const ys = levelSpan(h.y0, h.y0 + h.heightPx - 1, heightPx, level);
    if (xs && ys) out.push({ x0: xs[0], y0: ys[0], x1: xs[1], y1: ys[1] });
  }
  return out;
}

/** The sample cells of a region sampled every `step`-th pixel each way (cell i: pixel region.x0 + i·step) that lie in a hole. */
export function strideSkipCells(holes: readonly Region[], region: Region, step: number): CellBox[] {
  const cellsX = Math.ceil(region.widthPx / step);
  const cellsY = Math.ceil(region.heightPx / step);
  const span = (lo: number, hi: number, origin: number, cells: number): [number, number] | null => {
    const i0 = Math.max(0, Math.ceil((lo - origin) / step));
    const i1 = Math.min(cells - 1, Math.floor((hi - origin) / step));
    return i0 <= i1 ? [i0, i1] : null;
  };
  const out: CellBox[] = [];
  for (const h of holes) {
    if (h.widthPx <= 0 || h.heightPx <= 0) continue;
    const xs = span(h.x0, h.x0 + h.widthPx - 1, region.x0, cellsX);
    const ys = span(h.y0, h.y0 + h.heightPx - 1, region.y0, cellsY);
    if (xs && ys) out.push({ x0: xs[0], y0: ys[0], x1: xs[1], y1: ys[1] });
  }
  return out;
}

export const cellSkipped = (cells: readonly CellBox[], x: number, y: number): boolean =>
  cells.some((c) => x >= c.x0 && x <= c.x1 && y >= c.y0 && y <= c.y1);

/** What the GPU binds: the boxes (count ≤ MAX_SKIP_BOXES), or a mask of the grid (1: left out) when there are more. */
export interface PackedSkip {
  /** SKIP_CELLS_BYTES: the count, whether the mask is used, then the boxes as vec4u. */
  header: Uint32Array<ArrayBuffer>;
  mask: { data: Uint8Array<ArrayBuffer>; widthPx: number; heightPx: number } | null;
}

export function packSkipCells(cells: readonly CellBox[], gridWidthPx: number, gridHeightPx: number): PackedSkip {
  const header = new Uint32Array(SKIP_CELLS_BYTES / 4);
  if (cells.length <= MAX_SKIP_BOXES) {
    header[0] = cells.length;
    cells.forEach((c, i) => header.set([c.x0, c.y0, c.x1, c.y1], 4 + i * 4));
    return { header, mask: null };
  }
  header[1] = 1;
  const data = new Uint8Array(gridWidthPx * gridHeightPx);
  for (const c of cells)
    for (let y = c.y0; y <= Math.min(c.y1, gridHeightPx - 1); y++)
      data.fill(1, y * gridWidthPx + c.x0, y * gridWidthPx + Math.min(c.x1, gridWidthPx - 1) + 1);
  return { header, mask: { data, widthPx: gridWidthPx, heightPx: gridHeightPx } };
}

/** The CPU reference of histogram.wgsl's mainSkipping: interleaved RGBA of one level, less the `cells` left out. */
export function histogramSkipping(rgba: ArrayLike<number>, widthPx: number, heightPx: number, cells: readonly CellBox[]): Uint32Array {
  const out = new Uint32Array(4 * HIST_BINS);
  for (let y = 0; y < heightPx; y++)
    for (let x = 0; x < widthPx; x++) {
      if (cellSkipped(cells, x, y)) continue;
      const i = (y * widthPx + x) * 4;
      countHistogramPixel(out, rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    }
  return out;
}
