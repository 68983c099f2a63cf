// Statistics and histogram counts of decoded samples, run by the workers over a level 0 too large to hold: the same
// figures the page's reductions compute (shaders/compare-cpu.ts ChannelStats, histogram-bins.wgsl's bins).
import { HALF_TO_FLOAT, type PlaneData } from '../../codec/index.js';
import { combineStats } from '../../shaders/stats-regions.js';
import { emptyChannelStats, type ChannelStats } from '../../shaders/compare-cpu.js';
import { HIST_BINS, LUMA } from '../../shaders/display-params.js';
import { histogramBin } from '../../shaders/tonemap-cpu.js';

export { emptyChannelStats, type ChannelStats };

/**
 * One channel's figures over the runs of samples given to it. Half samples are counted per bit pattern (one increment
 * a sample) and the figures made from the 65,536 counts at the end, exactly, in float64; float and uint samples are
 * reduced run by run (mean and M2 per run, Chan's combination between runs).
 */
export class ChannelMeter {
  private counts: Uint32Array | null = null;
  private stats = emptyChannelStats();

  add(data: PlaneData, from: number, to: number): void {
    if (data instanceof Uint16Array) {
      const counts = (this.counts ??= new Uint32Array(65536));
      for (let i = from; i < to; i++) counts[data[i]!]!++;
    } else this.stats = combineStats(this.stats, numberStats(data, from, to));
  }

  result(): ChannelStats {
    return this.counts ? combineStats(this.stats, halfCountStats(this.counts)) : this.stats;
  }

  /** Half samples' counts per bit pattern (null: none were half). */
  get halfCounts(): Uint32Array | null {
    return this.counts;
  }
}

/** A channel's histogram bins (at `base`) from its half samples' counts per bit pattern: no pass over the samples. */
export function binHalfCounts(out: Uint32Array, base: number, counts: Uint32Array): void {
  const halves = halfBinTable();
  for (let h = 0; h < 65536; h++) {
    const c = counts[h]!;
    if (c && halves[h]! >= 0) out[base + halves[h]!] = out[base + halves[h]!]! + c;
  }
}

/** Figures of `values[from, to)` (float32 or uint samples): NaN and ±Inf counted apart, as the page does. */
export function numberStats(values: Float32Array | Uint32Array, from: number, to: number): ChannelStats {
  let n = 0,
    sum = 0,
    min = Infinity,
    max = -Infinity,
    nan = 0,
    inf = 0;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (v - v !== 0) {
      // NaN or ±Inf (v - v is NaN for both)
      if (v !== v) nan++;
      else inf++;
      continue;
    }
    n++;
    sum += v;
    min = v < min ? v : min;
    max = v > max ? v : max;
  }
  const mean = n ? sum / n : 0;
  let m2 = 0;
  if (n)
    for (let i = from; i < to; i++) {
      const d = values[i]! - mean;
      if (d - d === 0) m2 += d * d;
    }
  return { n, mean, m2, min, max, nan, inf };
}

/** Figures of half samples from their count per bit pattern. */
export function halfCountStats(counts: Uint32Array): ChannelStats {
  const table = HALF_TO_FLOAT;
  let n = 0,
    sum = 0,
    min = Infinity,
    max = -Infinity,
    nan = 0,
    inf = 0;
  for (let h = 0; h < 65536; h++) {
    const c = counts[h]!;
    if (!c) continue;
    if ((h & 0x7c00) === 0x7c00) {
      if (h & 0x3ff) nan += c;
      else inf += c;
      continue;
    }
    const v = table[h]!;
    n += c;
    sum += c * v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = n ? sum / n : 0;
  let m2 = 0;
  for (let h = 0; h < 65536; h++) {
    const c = counts[h]!;
    if (!c || (h & 0x7c00) === 0x7c00) continue;
    const d = table[h]! - mean;
    m2 += c * d * d;
  }
  return { n, mean, m2, min, max, nan, inf };
}

let halfBins: Int16Array | null = null;

/** The histogram bin of every half value (-1: not counted), so a half sample is binned by one load. */
function halfBinTable(): Int16Array {
  return (halfBins ??= Int16Array.from({ length: 65536 }, (_, h) => histogramBin(HALF_TO_FLOAT[h]!)));
}

/** Marks a cell of float32 values (their top 16 bits) whose values fall in more than one bin: log2 decides there. */
const STRADDLES = -2;
let floatCells: Int16Array | null = null;

/**
 * The histogram bin of every float32 cell of 2^16 values (sign, exponent, top 7 mantissa bits): the bins are 8 an
 * octave, so most cells lie in one bin; the few that straddle a bin edge are binned by log2 as histogramBin does.
 */
function floatCellTable(): Int16Array {
  if (floatCells) return floatCells;
  const table = new Int16Array(65536);
  const f = new Float32Array(2);
  const u = new Uint32Array(f.buffer);
  for (let cell = 0; cell < 65536; cell++) {
    u[0] = cell << 16;
    u[1] = (cell << 16) | 0xffff;
    const [lo, hi] = [histogramBin(f[0]!), histogramBin(f[1]!)];
    table[cell] = lo === hi ? lo : STRADDLES;
  }
  return (floatCells = table);
}

const bitsOf = new Float32Array(1);
const bitsAs = new Uint32Array(bitsOf.buffer);

/** histogramBin of a float32 value, mostly by one table load. */
function floatBin(cells: Int16Array, v: number): number {
  bitsOf[0] = v;
  const bin = cells[bitsAs[0]! >>> 16]!;
  return bin === STRADDLES ? histogramBin(bitsOf[0]!) : bin;
}

/** Pixels a histogram call reads at a time into float scratch rows (monomorphic loops over Float32Arrays). */
const SPAN = 4096;
const spans = [new Float32Array(SPAN), new Float32Array(SPAN), new Float32Array(SPAN)];

function toFloats(out: Float32Array, data: PlaneData | null, from: number, count: number): void {
  if (data === null) out.fill(0, 0, count);
  else if (data instanceof Uint16Array) for (let i = 0; i < count; i++) out[i] = HALF_TO_FLOAT[data[from + i]!]!;
  else if (data instanceof Float32Array) out.set(data.subarray(from, from + count));
  else for (let i = 0; i < count; i++) out[i] = data[from + i]!;
}

/**
 * Pixels `[from, to)` of three full-resolution planes (null: 0, as an empty colour slot reads) counted into
 * [luminance, R, G, B] × HIST_BINS bins, as histogram-bins.wgsl's countPixel: luminance by Rec.709 weights in float32.
 */
export function countHistogram(
  out: Uint32Array,
  planes: readonly [PlaneData | null, PlaneData | null, PlaneData | null],
  from: number,
  to: number,
  /** Channels whose bins are counted elsewhere (binHalfCounts): only their luminance share is counted here. */
  binned: readonly boolean[] = [false, false, false],
): void {
  const cells = floatCellTable();
  const halves = halfBinTable();
  for (let k = 0; k < 3; k++) {
    if (binned[k]) continue;
    const p = planes[k] ?? null;
    const base = (k + 1) * HIST_BINS;
    if (p === null)
      out[base] = out[base]! + (to - from); // 0 counts in bin 0
    else if (p instanceof Uint16Array) for (let i = from; i < to; i++) countBin(out, base, halves[p[i]!]!);
    else for (let i = from; i < to; i++) countBin(out, base, floatBin(cells, p[i]!));
  }
  const f = Math.fround;
  const l0 = f(LUMA[0]),
    l1 = f(LUMA[1]),
    l2 = f(LUMA[2]);
  const [r, g, b] = spans as [Float32Array, Float32Array, Float32Array];
  for (let at = from; at < to; at += SPAN) {
    const count = Math.min(SPAN, to - at);
    toFloats(r, planes[0], at, count);
    toFloats(g, planes[1], at, count);
    toFloats(b, planes[2], at, count);
    // the luminance in float32 as the GPU computes it, op by op, then binned by its bits
    for (let i = 0; i < count; i++) luma[i] = f(f(f(l0 * r[i]!) + f(l1 * g[i]!)) + f(l2 * b[i]!));
    for (let i = 0; i < count; i++) {
      let bin = cells[lumaBits[i]! >>> 16]!;
      if (bin === STRADDLES) bin = histogramBin(luma[i]!);
      if (bin >= 0) out[bin] = out[bin]! + 1;
    }
  }
}

const luma = new Float32Array(SPAN);
const lumaBits = new Uint32Array(luma.buffer);

function countBin(out: Uint32Array, base: number, bin: number): void {
  if (bin >= 0) out[base + bin] = out[base + bin]! + 1;
}
