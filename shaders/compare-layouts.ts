// Byte layouts of the compare pass's view block and the reduce passes' parameters and results (mirroring
// compare.wgsl, reduce-common.wgsl, metrics.wgsl and stats.wgsl), packed and parsed without the GPU.
import { HIST_SAMPLE_MAX_PX, type DisplayParams } from './display-params.js';
import { DISPLAY_WORDS, packDisplay, type UniformBlock } from './layouts.js';
import type { ChannelMetrics, ChannelStats, MetricsTotals, Region } from './compare-cpu.js';

/** `CompareView` in compare.wgsl: the Display block, then 28 words of geometry. */
export const COMPARE_VIEW_BYTES = DISPLAY_WORDS * 4 + 112;
/** View flag of the compare pass: B's display window outlined on B's side of a split (`bDisplay`). */
export const FLAG_OUTLINE_B = 64;
/** `ReduceParams` in reduce-common.wgsl. */
export const REDUCE_PARAMS_BYTES = 64;
/** `MetricPartial` in metrics.wgsl: 13 vec4. */
export const METRIC_PARTIAL_BYTES = 208;
/** `StatPartial` in stats.wgsl: 7 vec4. */
export const STAT_PARTIAL_BYTES = 112;
/** Region pixels one reduce workgroup covers per side (8 threads × 4 px). */
export const REDUCE_WG_PX = 32;

/** One image's placement in the compare pass: canvas px of its data window's corner, its size and MIP levels. */
export interface ComparePlacement {
  originXPx: number;
  originYPx: number;
  widthPx: number;
  heightPx: number;
  levelCount: number;
}

export interface CompareGeometry {
  a: ComparePlacement;
  b: ComparePlacement;
  texelsPerPx: number;
  /** A's display window relative to A's data origin (min inclusive, max exclusive). */
  displayMinX: number;
  displayMinY: number;
  displayMaxX: number;
  displayMaxY: number;
  /** B's display window relative to B's data origin (as B is placed), outlined on B's side of a split; absent: none. */
  bDisplay?: { minX: number; minY: number; maxX: number; maxY: number };
  background: number;
  viewFlags: number;
  /** SHOW_A, SHOW_B, SHOW_SPLIT or SHOW_METRIC_BASE + metric code. */
  show: number;
  splitAxis: 'x' | 'y';
  splitPx: number;
  /** 0: the tone-map; else a colormap code over [rangeMin, rangeMax]. */
  colormap: number;
  rangeMin: number;
  rangeMax: number;
}

export function packCompareView(block: UniformBlock, p: DisplayParams, g: CompareGeometry): void {
  packDisplay(block, 0, p);
  const f = block.f32,
    u = block.u32;
  const o = DISPLAY_WORDS;
  f[o] = g.a.originXPx;
  f[o + 1] = g.a.originYPx;
  f[o + 2] = g.texelsPerPx;
  f[o + 3] = g.a.levelCount;
  f[o + 4] = g.a.widthPx;
  f[o + 5] = g.a.heightPx;
  f[o + 6] = g.b.originXPx;
  f[o + 7] = g.b.originYPx;
  f[o + 8] = g.b.widthPx;
  f[o + 9] = g.b.heightPx;
  f[o + 10] = g.b.levelCount;
  f[o + 11] = g.background;
  f[o + 12] = g.displayMinX;
  f[o + 13] = g.displayMinY;
  f[o + 14] = g.displayMaxX;
  f[o + 15] = g.displayMaxY;
  u[o + 16] = g.show;
  u[o + 17] = g.splitAxis === 'y' ? 1 : 0;
  f[o + 18] = g.splitPx;
  u[o + 19] = g.viewFlags | (g.bDisplay ? FLAG_OUTLINE_B : 0);
  u[o + 20] = g.colormap;
  f[o + 21] = g.rangeMin;
  f[o + 22] = g.rangeMax;
  f[o + 23] = 0;
  const bd = g.bDisplay ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  f[o + 24] = bd.minX;
  f[o + 25] = bd.minY;
  f[o + 26] = bd.maxX;
  f[o + 27] = bd.maxY;
}

/** Where the two layers of a reduce pass lie, in A's pixel space. */
export interface ReducePlacement {
  aX0: number;
  aY0: number;
  aWidthPx: number;
  aHeightPx: number;
  bX0: number;
  bY0: number;
  bWidthPx: number;
  bHeightPx: number;
}

export function reduceWorkgroups(region: Region): [number, number] {
  return [Math.max(1, Math.ceil(region.widthPx / REDUCE_WG_PX)), Math.max(1, Math.ceil(region.heightPx / REDUCE_WG_PX))];
}

/** histogram-pair.wgsl's stride: about HIST_SAMPLE_MAX_PX pixels along the region's long side (1: every pixel). */
export function histogramSampleStep(region: Region): number {
  return Math.max(1, Math.ceil(Math.max(region.widthPx, region.heightPx) / HIST_SAMPLE_MAX_PX));
}

export function packReduceParams(
  block: UniformBlock,
  region: Region,
  at: ReducePlacement,
  valueMode: number,
  partialCount: number,
  threshold: number,
  sampleStep = 1,
): void {
  const i = block.i32,
    u = block.u32,
    f = block.f32;
  i[0] = region.x0;
  i[1] = region.y0;
  u[2] = region.widthPx;
  u[3] = region.heightPx;
  i[4] = at.aX0;
  i[5] = at.aY0;
  i[6] = at.aWidthPx;
  i[7] = at.aHeightPx;
  i[8] = at.bX0;
  i[9] = at.bY0;
  i[10] = at.bWidthPx;
  i[11] = at.bHeightPx;
  u[12] = valueMode;
  u[13] = partialCount;
  f[14] = threshold;
  u[15] = sampleStep;
}

/** A MetricPartial as read back: per channel figures and the pixels where any channel differs. */
export function parseMetrics(bytes: ArrayBuffer, region: Region): MetricsTotals {
  const u = new Uint32Array(bytes, 0, METRIC_PARTIAL_BYTES / 4),
    f = new Float32Array(bytes, 0, METRIC_PARTIAL_BYTES / 4);
  const vec = (k: number, c: number): number => k * 4 + c;
  const channels: ChannelMetrics[] = [0, 1, 2, 3].map((c) => ({
    n: u[vec(0, c)]!,
    nanA: u[vec(1, c)]!,
    infA: u[vec(2, c)]!,
    nanB: u[vec(3, c)]!,
    infB: u[vec(4, c)]!,
    differ: u[vec(5, c)]!,
    maxAt: u[vec(6, c)]!,
    sum: f[vec(7, c)]!,
    sumAbs: f[vec(8, c)]!,
    sumSq: f[vec(9, c)]!,
    maxAbs: f[vec(10, c)]!,
    peak: f[vec(12, c)]!,
  }));
  return { channels, pixelsDiffer: u[vec(11, 0)]!, region };
}

export function parseStats(bytes: ArrayBuffer): ChannelStats[] {
  const u = new Uint32Array(bytes, 0, STAT_PARTIAL_BYTES / 4),
    f = new Float32Array(bytes, 0, STAT_PARTIAL_BYTES / 4);
  return [0, 1, 2, 3].map((c) => {
    const n = u[c]!;
    return {
      n,
      nan: u[4 + c]!,
      inf: u[8 + c]!,
      mean: f[12 + c]!,
      m2: f[16 + c]!,
      min: n ? f[20 + c]! : Infinity,
      max: n ? f[24 + c]! : -Infinity,
    };
  });
}
