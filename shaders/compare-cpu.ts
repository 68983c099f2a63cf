// The CPU implementation of the compare and inspect passes (metrics.wgsl, stats.wgsl, compare.wgsl's values): the path
// used where WebGPU is missing, and the oracle of the shader tests. f64 throughout; same per-pixel rules as the shaders.
import { DIFFERENCE_MODES, SHOW_A, SHOW_B, SHOW_METRIC_BASE, differenceValue, type StatsSource } from './compare-params.js';
import { colormapRgb } from './colormaps.js';
import { EXPOSED_LIMIT, HIST_BINS, INF_COLOUR, LUMA, NAN_COLOUR, type ChannelView } from './display-params.js';
import { countHistogramPixel } from './tonemap-cpu.js';

/** A layer as float RGBA over its data window, placed in A's pixel space (B shifted by the display-window alignment). */
export interface RgbaLayer {
  rgba: Float32Array;
  x0: number;
  y0: number;
  widthPx: number;
  heightPx: number;
}
/** A box of pixels in A's pixel space (absolute, like data windows). */
export interface Region {
  x0: number;
  y0: number;
  widthPx: number;
  heightPx: number;
}

export const regionOf = (l: Pick<RgbaLayer, 'x0' | 'y0' | 'widthPx' | 'heightPx'>): Region => ({
  x0: l.x0,
  y0: l.y0,
  widthPx: l.widthPx,
  heightPx: l.heightPx,
});

export function unionRegion(a: Region, b: Region): Region {
  const x0 = Math.min(a.x0, b.x0),
    y0 = Math.min(a.y0, b.y0);
  return {
    x0,
    y0,
    widthPx: Math.max(a.x0 + a.widthPx, b.x0 + b.widthPx) - x0,
    heightPx: Math.max(a.y0 + a.heightPx, b.y0 + b.heightPx) - y0,
  };
}

/** The overlap of two regions (width or height 0 when they do not meet). */
export function intersectRegion(a: Region, b: Region): Region {
  const x0 = Math.max(a.x0, b.x0),
    y0 = Math.max(a.y0, b.y0);
  return {
    x0,
    y0,
    widthPx: Math.max(0, Math.min(a.x0 + a.widthPx, b.x0 + b.widthPx) - x0),
    heightPx: Math.max(0, Math.min(a.y0 + a.heightPx, b.y0 + b.heightPx) - y0),
  };
}

/** Channel c of a layer at an absolute pixel; 0 outside its data window (as OpenEXR and oiiotool read it). */
export function valueAt(l: RgbaLayer, x: number, y: number, c: number): number {
  const lx = x - l.x0,
    ly = y - l.y0;
  if (lx < 0 || ly < 0 || lx >= l.widthPx || ly >= l.heightPx) return 0;
  return l.rgba[(ly * l.widthPx + lx) * 4 + c]!;
}

export interface ChannelMetrics {
  /** Pixels where both values are finite: what the sums are over. */
  n: number;
  sum: number;
  sumAbs: number;
  sumSq: number;
  /** Largest |A−B| over finite pairs (−1 when none) and where, as an index into the region (row-major); first one on ties. */
  maxAbs: number;
  maxAt: number;
  /** Pixels whose values differ by more than the threshold, or are not the same non-finite value. */
  differ: number;
  nanA: number;
  infA: number;
  nanB: number;
  infB: number;
  /** Largest value of A or B over finite pairs: oiiotool's PSNR peak (with 1). */
  peak: number;
}

export interface MetricsTotals {
  channels: ChannelMetrics[];
  pixelsDiffer: number;
  region: Region;
}

const isNan = (v: number): boolean => Number.isNaN(v);
const isInf = (v: number): boolean => v === Infinity || v === -Infinity;

export function emptyChannelMetrics(): ChannelMetrics {
  return {
    n: 0,
    sum: 0,
    sumAbs: 0,
    sumSq: 0,
    maxAbs: -1,
    maxAt: 0xffffffff,
    differ: 0,
    nanA: 0,
    infA: 0,
    nanB: 0,
    infB: 0,
    peak: -3.4028234663852886e38,
  };
}

/** The per-pixel rule of metrics.wgsl for one channel; returns whether the pixel differs there. */
export function accumulateMetric(m: ChannelMetrics, a: number, b: number, index: number, threshold: number): boolean {
  if (isNan(a)) m.nanA++;
  else if (isInf(a)) m.infA++;
  if (isNan(b)) m.nanB++;
  else if (isInf(b)) m.infB++;
  if (Number.isFinite(a) && Number.isFinite(b)) {
    const d = Math.fround(a - b),
      ad = Math.abs(d);
    m.n++;
    m.sum += d;
    m.sumAbs += ad;
    m.sumSq += d * d;
    m.peak = Math.max(m.peak, a, b);
    if (ad > m.maxAbs) {
      m.maxAbs = ad;
      m.maxAt = index;
    }
    if (ad > threshold) {
      m.differ++;
      return true;
    }
    return false;
  }
  const same = (isNan(a) && isNan(b)) || a === b;
  if (!same) m.differ++;
  return !same;
}

/**
 * Metrics of A against B over a region: per channel, and pixels where any channel differs. A pixel of `holes` (missing
 * in A or B: a damaged image's chunks that could not be read) is left out; the largest error's index stays the region's.
 */
export function metricsReference(a: RgbaLayer, b: RgbaLayer, region: Region, threshold = 0, holes: readonly Region[] = []): MetricsTotals {
  const channels = [0, 1, 2, 3].map(emptyChannelMetrics);
  const inHole = (x: number, y: number) => holes.some((h) => x >= h.x0 && x < h.x0 + h.widthPx && y >= h.y0 && y < h.y0 + h.heightPx);
  let pixelsDiffer = 0;
  for (let y = 0; y < region.heightPx; y++)
    for (let x = 0; x < region.widthPx; x++) {
      if (inHole(region.x0 + x, region.y0 + y)) continue;
      const index = y * region.widthPx + x;
      let any = false;
      for (let c = 0; c < 4; c++) {
        const va = Math.fround(valueAt(a, region.x0 + x, region.y0 + y, c)),
          vb = Math.fround(valueAt(b, region.x0 + x, region.y0 + y, c));
        if (accumulateMetric(channels[c]!, va, vb, index, threshold)) any = true;
      }
      if (any) pixelsDiffer++;
    }
  return { channels, pixelsDiffer, region };
}

export interface ChannelStats {
  n: number;
  mean: number;
  m2: number;
  min: number;
  max: number;
  nan: number;
  inf: number;
}

export function emptyChannelStats(): ChannelStats {
  return { n: 0, mean: 0, m2: 0, min: Infinity, max: -Infinity, nan: 0, inf: 0 };
}

export function accumulateStat(s: ChannelStats, v: number): void {
  if (isNan(v)) {
    s.nan++;
    return;
  }
  if (isInf(v)) {
    s.inf++;
    return;
  }
  s.n++;
  const delta = v - s.mean;
  s.mean += delta / s.n;
  s.m2 += delta * (v - s.mean);
  if (v < s.min) s.min = v;
  if (v > s.max) s.max = v;
}

/** The value a statistics pass reduces at a pixel: A's, B's, or the difference image's (in f32, as the GPU computes it). */
export function sourceValue(source: StatsSource, a: number, b: number): number {
  if (source.kind === 'a') return a;
  if (source.kind === 'b') return b;
  return Math.fround(differenceValue(source.mode, Math.fround(a), Math.fround(b)));
}

/** Per channel min, max, mean, M2 (n·variance) and NaN/Inf counts of a source over a region. */
export function statsReference(a: RgbaLayer, b: RgbaLayer | null, source: StatsSource, region: Region): ChannelStats[] {
  const out = [0, 1, 2, 3].map(emptyChannelStats);
  for (let y = region.y0; y < region.y0 + region.heightPx; y++)
    for (let x = region.x0; x < region.x0 + region.widthPx; x++) {
      for (let c = 0; c < 4; c++) {
        const va = valueAt(a, x, y, c),
          vb = b ? valueAt(b, x, y, c) : 0;
        accumulateStat(out[c]!, sourceValue(source, va, vb));
      }
    }
  return out;
}

/**
 * The histogram of A, B or a difference image's magnitude over every `step`-th pixel of `region` each way, as
 * histogram-pair.wgsl counts it: [luminance, R, G, B] × HIST_BINS. `scale` multiplies every value before it is
 * counted (the tests bound the GPU's rounding with it). A sample on a pixel of `holes` (missing pixels) is left out.
 */
export function pairHistogramReference(
  a: RgbaLayer,
  b: RgbaLayer | null,
  source: StatsSource,
  region: Region,
  step: number,
  scale = 1,
  holes: readonly Region[] = [],
): Uint32Array {
  const out = new Uint32Array(4 * HIST_BINS);
  const f = Math.fround;
  const inHole = (x: number, y: number) => holes.some((h) => x >= h.x0 && x < h.x0 + h.widthPx && y >= h.y0 && y < h.y0 + h.heightPx);
  for (let y = region.y0; y < region.y0 + region.heightPx; y += step)
    for (let x = region.x0; x < region.x0 + region.widthPx; x += step) {
      if (inHole(x, y)) continue;
      const v = [0, 1, 2].map((c) => {
        const value = f(sourceValue(source, valueAt(a, x, y, c), b ? valueAt(b, x, y, c) : 0));
        return (source.kind === 'difference' ? Math.abs(value) : value) * scale;
      });
      countHistogramPixel(out, v[0]!, v[1]!, v[2]!);
    }
  return out;
}

/** What an artist reads per channel: the figures oiiotool --diff prints, and ours besides. */
export interface MetricSummary {
  meanError: number;
  meanAbsError: number;
  rmse: number;
  /** 20·log10(peak/RMSE), peak the larger of 1 and the largest value of either image, as oiiotool; Infinity when identical. */
  psnr: number;
  maxAbsError: number;
  /** Absolute pixel of the largest error (null when no finite pair). */
  maxAt: [number, number] | null;
  differ: number;
  nanA: number;
  infA: number;
  nanB: number;
  infB: number;
  n: number;
}

export function summariseChannel(m: ChannelMetrics, region: Region): MetricSummary {
  const mse = m.n ? m.sumSq / m.n : NaN;
  const rmse = Math.sqrt(mse);
  return {
    meanError: m.n ? m.sum / m.n : NaN,
    meanAbsError: m.n ? m.sumAbs / m.n : NaN,
    rmse,
    psnr: rmse === 0 ? Infinity : 20 * Math.log10(Math.max(1, m.peak) / rmse),
    maxAbsError: m.maxAbs < 0 ? NaN : m.maxAbs,
    maxAt: m.maxAbs < 0 ? null : [region.x0 + (m.maxAt % region.widthPx), region.y0 + Math.floor(m.maxAt / region.widthPx)],
    differ: m.differ,
    nanA: m.nanA,
    infA: m.infA,
    nanB: m.nanB,
    infB: m.infB,
    n: m.n,
  };
}

/** `m`'s figures added to `into`'s, its largest error at `maxAt`; kept as combinePartials (metrics.wgsl) keeps it: the first on ties. */
export function addChannelMetrics(into: ChannelMetrics, m: ChannelMetrics, maxAt: number): void {
  into.n += m.n;
  into.sum += m.sum;
  into.sumAbs += m.sumAbs;
  into.sumSq += m.sumSq;
  into.differ += m.differ;
  into.nanA += m.nanA;
  into.infA += m.infA;
  into.nanB += m.nanB;
  into.infB += m.infB;
  into.peak = Math.max(into.peak, m.peak);
  if (m.maxAbs > into.maxAbs || (m.maxAbs === into.maxAbs && maxAt < into.maxAt)) {
    into.maxAbs = m.maxAbs;
    into.maxAt = maxAt;
  }
}
/** All compared channels together, as oiiotool --diff reports (its "Mean error" is the mean absolute error). */
export function summariseAll(channels: readonly ChannelMetrics[], region: Region): MetricSummary {
  const total = emptyChannelMetrics();
  for (const m of channels) addChannelMetrics(total, m, m.maxAt);
  return summariseChannel(total, region);
}

/** Mean and (population) standard deviation of a channel's statistics; NaN where no finite value. */
export function meanAndSd(s: ChannelStats): { mean: number; sd: number } {
  return s.n ? { mean: s.mean, sd: Math.sqrt(Math.max(0, s.m2) / s.n) } : { mean: NaN, sd: NaN };
}

/** A difference value of f32 inputs, computed in f64 and rounded to f32 once (the GPU's is within a few ulp of it). */
export function differenceF32(code: number, a: number, b: number): number {
  const mode = DIFFERENCE_MODES[code];
  return Math.fround(mode ? differenceValue(mode, Math.fround(a), Math.fround(b)) : NaN);
}

/**
 * What compare.wgsl shows at a pixel before the tone-map or colormap: A's or B's RGBA (null outside its data window:
 * background), or the difference image with the mean alpha. `show` is SHOW_A, SHOW_B or SHOW_METRIC_BASE + code.
 */
export function compareRaw(show: number, a: readonly number[] | null, b: readonly number[] | null): number[] | null {
  if (show === SHOW_A) return a ? [...a] : null;
  if (show === SHOW_B) return b ? [...b] : null;
  if (!a && !b) return null;
  const va = a ?? [0, 0, 0, 0],
    vb = b ?? [0, 0, 0, 0];
  const code = show - SHOW_METRIC_BASE;
  return [0, 1, 2].map((c) => differenceF32(code, va[c]!, vb[c]!)).concat([(va[3]! + vb[3]!) * 0.5]);
}

/** The one value a colormap shows: the channel picked (R, G, B or A), else luminance. */
export function colormapScalar(v: readonly number[], channelView: ChannelView): number {
  switch (channelView) {
    case 'r':
      return v[0]!;
    case 'g':
      return v[1]!;
    case 'b':
      return v[2]!;
    case 'a':
      return v[3]!;
    default:
      return LUMA[0] * v[0]! + LUMA[1] * v[1]! + LUMA[2] * v[2]!;
  }
}

/** colormapColour() of compare.wgsl: NaN and Inf in their colours (when shown), else the colormap over [min, max]. */
export function colormapPixel(
  table: Float32Array,
  code: number,
  v: readonly number[],
  channelView: ChannelView,
  nanInf: boolean,
  min: number,
  max: number,
): [number, number, number] {
  const s = colormapScalar(v, channelView);
  if (nanInf && Number.isNaN(s)) return [...NAN_COLOUR];
  if (nanInf && !Number.isFinite(s)) return [...INF_COLOUR];
  const clean = Number.isNaN(s) ? 0 : Math.min(Math.max(s, -EXPOSED_LIMIT), EXPOSED_LIMIT);
  const span = max - min;
  return colormapRgb(table, code, span > 0 ? (clean - min) / span : 0.5);
}
