// Box-filter kernels: the half samples of one, two or four lines of one channel summed into their thumbnail bins.
//
// Summing one line at a time is latency-bound: every sample's add waits for the one before it, and each bin's
// short run ends in a hard-to-predict branch. Summing up to four lines that fall in the same bin row column by
// column gives four independent loads per add and a quarter of the runs. Sums are in float64, so the order of addition changes results only in their last bits.

import { nativeKernels, HALF_TO_FLOAT } from '../../codec/index.js';

export const HALF_MAX = 65504;

/** HALF_TO_FLOAT with NaN as 0 and ±Inf as ±HALF_MAX, so one bad pixel does not poison its whole thumbnail pixel. */
export const SANE_HALF: Float32Array = (() => {
  const table = Float32Array.from(HALF_TO_FLOAT);
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (Number.isNaN(v)) table[i] = 0;
    else if (!Number.isFinite(v)) table[i] = v > 0 ? HALF_MAX : -HALF_MAX;
  }
  return table;
})();

/**
 * Most samples a bin may hold for its sums to be exact in float64 whatever the order of the additions: a half (NaN
 * as 0, infinities as ±HALF_MAX) is k * 2^-24 with |k| < 2^40, and 2^13 of them stay below 2^53 such steps.
 */
export const EXACT_BIN_SAMPLES = 1 << 13;

/** Where a channel's bins are: which bin each sample column falls in, where each bin's run of columns ends, the sums. */
export interface RowBins {
  /** Bin column of each sample column of the level. */
  binOf: Int32Array;
  /** One past the last sample column of each bin column. */
  runEnd: Int32Array;
  /** Per-bin sums, row-major, thumbnail width per row. */
  acc: Float64Array;
  /** No bin holds more than EXACT_BIN_SAMPLES samples: the native kernel may add in its own order (bins.c). */
  anyOrder: boolean;
}

/**
 * Adds `lineCount` lines of `n` half samples each into one bin row. Line l's samples start at
 * `u16[firstIndex + l * lineStride]` and cover sample columns `firstX .. firstX + n - 1`; a sample's
 * value is `table[sample]` (SANE_HALF, or a PIZ chunk's codes composed with it).
 */
export const sumHalfLines: typeof sumHalfLinesTs = nativeKernels
  ? (u16, firstIndex, lineStride, lineCount, firstX, n, bins, rowStart, table) =>
      nativeKernels!.sumHalfLines(
        u16,
        firstIndex,
        lineStride,
        lineCount,
        firstX,
        n,
        bins.binOf,
        bins.runEnd,
        bins.acc,
        rowStart,
        table,
        table === SANE_HALF,
        bins.anyOrder,
      )
  : sumHalfLinesTs;

/** The TypeScript kernel: the fallback where the native kernels did not load, and the oracle they are tested against. */
export function sumHalfLinesTs(
  u16: Uint16Array,
  firstIndex: number,
  lineStride: number,
  lineCount: number,
  firstX: number,
  n: number,
  bins: RowBins,
  rowStart: number,
  table: Float32Array,
): void {
  let l = 0;
  for (; l + 4 <= lineCount; l += 4) {
    const o = firstIndex + l * lineStride;
    sumFour(u16, o, o + lineStride, o + 2 * lineStride, o + 3 * lineStride, firstX, n, bins, rowStart, table);
  }
  if (l + 2 <= lineCount) {
    const o = firstIndex + l * lineStride;
    sumTwo(u16, o, o + lineStride, firstX, n, bins, rowStart, table);
    l += 2;
  }
  if (l < lineCount) sumOne(u16, firstIndex + l * lineStride, firstX, n, bins, rowStart, table);
}

function sumFour(
  u16: Uint16Array,
  o0: number,
  o1: number,
  o2: number,
  o3: number,
  firstX: number,
  n: number,
  bins: RowBins,
  rowStart: number,
  table: Float32Array,
): void {
  const { binOf, runEnd, acc } = bins;
  const last = firstX + n;
  let s = firstX;
  let i = 0;
  while (s < last) {
    const tx = binOf[s]!;
    const end = Math.min(runEnd[tx]!, last);
    let sum = 0;
    for (; s < end; s++, i++) sum += table[u16[o0 + i]!]! + table[u16[o1 + i]!]! + (table[u16[o2 + i]!]! + table[u16[o3 + i]!]!);
    acc[rowStart + tx]! += sum;
  }
}

function sumTwo(
  u16: Uint16Array,
  o0: number,
  o1: number,
  firstX: number,
  n: number,
  bins: RowBins,
  rowStart: number,
  table: Float32Array,
): void {
  const { binOf, runEnd, acc } = bins;
  const last = firstX + n;
  let s = firstX;
  let i = 0;
  while (s < last) {
    const tx = binOf[s]!;
    const end = Math.min(runEnd[tx]!, last);
    let sum = 0;
    for (; s < end; s++, i++) sum += table[u16[o0 + i]!]! + table[u16[o1 + i]!]!;
    acc[rowStart + tx]! += sum;
  }
}

function sumOne(u16: Uint16Array, o0: number, firstX: number, n: number, bins: RowBins, rowStart: number, table: Float32Array): void {
  const { binOf, runEnd, acc } = bins;
  const last = firstX + n;
  let s = firstX;
  let i = o0;
  while (s < last) {
    const tx = binOf[s]!;
    const end = Math.min(runEnd[tx]!, last);
    let sum = 0;
    // one load per sample from the sanitised half table: measured faster than decoding the bits arithmetically
    for (; s < end; s++, i++) sum += table[u16[i]!]!;
    acc[rowStart + tx]! += sum;
  }
}

/** SANE_HALF composed with a PIZ chunk's LUT, reused from chunk to chunk; codes above the chunk's largest map to 0, as its LUT does. */
const composedTable = new Float32Array(65536);
let composedUsed = 0;

/** The value of each PIZ code as SANE_HALF would give it once the LUT has turned the code back into half bits. */
export function composeWithLut(lut: Uint16Array, maxCode: number, native = nativeKernels !== null): Float32Array {
  const used = maxCode + 1;
  // natively where loaded: up to 65536 lookups a chunk, a loop that workers otherwise ran before their JIT compiled it
  if (native && nativeKernels) nativeKernels.composeHalfTable(lut, used, composedTable);
  else for (let code = 0; code < used; code++) composedTable[code] = SANE_HALF[lut[code]!]!;
  if (used < composedUsed) composedTable.fill(0, used, composedUsed);
  composedUsed = used;
  return composedTable;
}
