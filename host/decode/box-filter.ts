// Rows of a plane box-filtered into one or more reduced planes at once: each reduced sample the mean of the samples it
// covers (half NaN read as 0 and infinities as ±65504, as the thumbnails read them, so one bad sample does not blank its
// box; uint samples, IDs that cannot be averaged, take the box's first). The coarser targets are summed from the
// finer one's box sums, so the rows are read once however many levels are made. Runs in the decode workers.
import { HALF_TO_FLOAT, nativeKernels, type PixelType } from '../../codec/index.js';

/** Half values with NaN as 0 and infinities as ±65504: what the native kernel computes with F16C (as thumbnails/bins.ts). */
const SANE_HALF: Float32Array = HALF_TO_FLOAT.map((v) => (Number.isNaN(v) ? 0 : Math.max(-65504, Math.min(65504, v))));
/** Most samples a box may hold for float64 sums of halves to be exact in any order (the native kernel may reorder). */
const EXACT_BOX_SAMPLES = 1 << 13;

interface Boxes {
  binOf: Int32Array;
  runEnd: Int32Array;
  acc: Float64Array;
  anyOrder: boolean;
}

export type Samples = Uint16Array | Float32Array | Uint32Array;

export interface FilterTarget {
  /** Source samples per reduced sample, a side: a power of two, each target's a multiple of the one before. */
  factor: number;
  /** The reduced plane: rows of ⌈width / factor⌉ samples. */
  data: Samples;
  /** The reduced row the source's first row falls in (the source starts on a multiple of every factor). */
  firstRow: number;
}

/** `inH` rows of `inW` samples (`src`'s first) box-filtered into every target; partial boxes at the edges average what they cover. */
export function boxFilterRows(pixelType: PixelType, src: Samples, inW: number, inH: number, targets: readonly FilterTarget[]): void {
  if (targets.length === 0 || inW === 0 || inH === 0) return;
  targets.forEach((t, i) => {
    if (i > 0 && t.factor % targets[i - 1]!.factor !== 0) throw new Error(`box filter factors must each divide the next (${t.factor})`);
  });
  if (pixelType === 'uint') {
    for (const t of targets) firstSamples(src, inW, inH, t);
    return;
  }
  const half = pixelType === 'half';
  const sums = targets.map((t) => new Float64Array(Math.ceil(inW / t.factor)));
  const f0 = targets[0]!.factor;
  const sums0 = sums[0]!;
  const outW0 = sums0.length;
  const outH0 = Math.ceil(inH / f0);
  const bins = half ? boxBins(inW, f0, sums0) : null;
  // a half target's row of means as float32 first, then its bits made half a row at a time (a call per sample costs more)
  const means = new Float32Array(outW0);
  const meanBits = new Uint32Array(means.buffer);
  for (let oy = 0; oy < outH0; oy++) {
    sums0.fill(0);
    const yEnd = Math.min(inH, (oy + 1) * f0);
    // half samples: the thumbnails' native kernel where it loaded (up to four lines at once, F16C)
    if (bins && nativeKernels)
      nativeKernels.sumHalfLines(
        src as Uint16Array,
        oy * f0 * inW,
        inW,
        yEnd - oy * f0,
        0,
        inW,
        bins.binOf,
        bins.runEnd,
        bins.acc,
        0,
        SANE_HALF,
        true,
        bins.anyOrder,
      );
    else if (half)
      for (let y = oy * f0; y < yEnd; y++) {
        const row = y * inW;
        for (let ox = 0, x = row; ox < outW0; ox++) {
          const end = Math.min(row + inW, x + f0);
          let sum = 0;
          for (; x < end; x++) sum += SANE_HALF[src[x]!]!;
          sums0[ox]! += sum;
        }
      }
    else
      for (let y = oy * f0; y < yEnd; y++) {
        const row = y * inW;
        // box by box, no division per sample: this loop is most of a reduction's time
        for (let ox = 0, x = row; ox < outW0; ox++) {
          const end = Math.min(row + inW, x + f0);
          let sum = 0;
          for (; x < end; x++) sum += src[x]!;
          sums0[ox]! += sum;
        }
      }
    emit(0, oy);
  }

  /** Target `t`'s row `oy` is summed: written as means, and added into the next target's sums (written once whole). */
  function emit(t: number, oy: number): void {
    const { factor, data, firstRow } = targets[t]!;
    const s = sums[t]!;
    const outW = s.length;
    const rows = Math.min(inH, (oy + 1) * factor) - oy * factor;
    const at = (firstRow + oy) * outW;
    const row = half ? means : (data as Float32Array).subarray(at, at + outW);
    // whole boxes of a power-of-two count: a multiply by its exact reciprocal; the partial ones divide
    const whole = Math.floor(inW / factor);
    if (rows === factor) {
      const inverse = 1 / (factor * factor);
      for (let ox = 0; ox < whole; ox++) row[ox] = s[ox]! * inverse;
    } else for (let ox = 0; ox < whole; ox++) row[ox] = s[ox]! / (rows * factor);
    if (whole < outW) row[whole] = s[whole]! / (rows * (inW - whole * factor));
    if (half) halfRow(meanBits, data as Uint16Array, at, outW);
    const next = sums[t + 1];
    if (!next) return;
    const ratio = targets[t + 1]!.factor / factor;
    for (let ox = 0; ox < outW; ox++) next[(ox / ratio) | 0]! += s[ox]!;
    if ((oy + 1) % ratio === 0 || oy === Math.ceil(inH / factor) - 1) {
      emit(t + 1, Math.floor(oy / ratio));
      next.fill(0);
    }
  }
}

/**
 * Float32 bits to half bits, round to nearest even (as the codec's floatToHalf, which rounds to float32 first too):
 * `n` of `bits` into `out` from `at`. Infinities and overflow give ±Inf, NaN stays a NaN.
 */
export function halfRow(bits: Uint32Array, out: Uint16Array, at: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const x = bits[i]!;
    const sign = (x >>> 16) & 0x8000;
    const abs = x & 0x7fffffff;
    let h: number;
    if (abs >= 0x7f800000) {
      const mantissa = (abs >>> 13) & 0x3ff;
      h = abs === 0x7f800000 ? 0x7c00 : 0x7c00 | (mantissa === 0 ? 0x200 : mantissa);
    } else if (abs >= 0x477ff000) h = 0x7c00;
    else if (abs < 0x38800000) {
      if (abs < 0x33000000) h = 0;
      else {
        const mantissa = (abs & 0x7fffff) | 0x800000;
        const shift = 126 - (abs >>> 23);
        const kept = mantissa >>> shift;
        const rest = mantissa & ((1 << shift) - 1);
        const halfway = 1 << (shift - 1);
        h = rest > halfway || (rest === halfway && (kept & 1) === 1) ? kept + 1 : kept;
      }
    } else {
      const rebased = abs - 0x38000000;
      const kept = rebased >>> 13;
      const rest = rebased & 0x1fff;
      h = rest > 0x1000 || (rest === 0x1000 && (kept & 1) === 1) ? kept + 1 : kept;
    }
    out[at + i] = sign | h;
  }
}

/** The finest target's boxes as the thumbnails' kernel takes them: each column's box, where each box ends, the sums. */
function boxBins(inW: number, factor: number, acc: Float64Array): Boxes {
  const binOf = new Int32Array(inW);
  for (let x = 0; x < inW; x++) binOf[x] = Math.floor(x / factor);
  const runEnd = Int32Array.from({ length: acc.length }, (_, b) => Math.min(inW, (b + 1) * factor));
  return { binOf, runEnd, acc, anyOrder: factor * factor <= EXACT_BOX_SAMPLES };
}

function firstSamples(src: Samples, inW: number, inH: number, { factor, data, firstRow }: FilterTarget): void {
  const outW = Math.ceil(inW / factor),
    outH = Math.ceil(inH / factor);
  for (let y = 0; y < outH; y++) for (let x = 0; x < outW; x++) data[(firstRow + y) * outW + x] = src[y * factor * inW + x * factor]!;
}
