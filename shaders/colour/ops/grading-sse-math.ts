// OCIO's SSE2 log2/exp2/pow polynomials (SSE.h), which its x86 Grading ops use even in lossless mode: ~15 bits of mantissa.

const f = Math.fround;
const word = new Float32Array(1);
const bits = new Int32Array(word.buffer);

const toBits = (x: number): number => ((word[0] = x), bits[0]!);
const fromBits = (b: number): number => ((bits[0] = b), word[0]!);

const EXP_MASK = 0x7f800000;
const LOG_POLY = [
  -2.800364054395965731506, 5.091710879305474367557, -3.550793018041176193407, 1.6311488261194362771, -4.165637071209677112635e-1,
  4.487361286440374006195e-2,
].map(f);
const EXP_POLY = [
  1.000002593370603213644, 6.930038344665415134202e-1, 2.41442756909186520771e-1, 5.201146058412685018921e-2, 1.35341679283354746862e-2,
].map(f);

function poly(coefs: number[], x: number): number {
  let acc = coefs[coefs.length - 1]!;
  for (let k = coefs.length - 2; k >= 0; k--) acc = f(f(acc * x) + coefs[k]!);
  return acc;
}

export function sseLog2(x: number): number {
  const b = toBits(x);
  const mantissa = fromBits((b & ~EXP_MASK) | 0x3f800000);
  const exponent = ((b & EXP_MASK) >>> 23) - 127;
  return f(poly(LOG_POLY, mantissa) + exponent);
}

/** cvttps_epi32: truncation, or INT_MIN for NaN and values out of int32 range. */
const truncToInt = (x: number): number => (Number.isNaN(x) || x >= 2147483648 || x < -2147483648 ? -2147483648 : Math.trunc(x));

export function sseExp2(x: number): number {
  const floorX = (truncToInt(x) + (0 <= x ? 0 : -1)) | 0;
  const zf = fromBits(((floorX + 127) | 0) << 23);
  const fraction = f(x - f(floorX));
  let out = f(zf * poly(EXP_POLY, fraction));
  if (x < -126) out = 0;
  if (x >= 128) out = Infinity;
  return out;
}

/** exp2(e · log2(x)), and 0 where x is not above 0 (NaN included). */
export const ssePower = (x: number, e: number): number => (x > 0 ? sseExp2(f(e * sseLog2(x))) : 0);

// OCIO's lin ↔ log shaper for the Grading ops' linear style (float32 constants, as their SSE paths hold them).
const X_BREAK = f(0.0041318374739483946);
const SHIFT = f(-0.000157849851665374);
const M = f(1 / f(0.18 + SHIFT));
const GAIN = f(363.034608563);
const OFFSET = -7;
const Y_BREAK = -5.5;
const SHIFTED_GREY = f(0.18 + SHIFT);
const GAIN_INVERSE = f(1 / GAIN);
/** The shaper's float32 constants, for the GPU's copy of it (shaders/colour/gpu/grading-wgsl-lib.ts). */
export const SHAPER_CONSTANTS = { X_BREAK, SHIFT, M, GAIN, SHIFTED_GREY, GAIN_INVERSE } as const;

/** As OCIO's x86 build: SSE comparisons (a NaN takes the linear branch) and its polynomial log2. */
export const sseLinToLog = (x: number): number => (x > X_BREAK ? sseLog2(f(f(x + SHIFT) * M)) : f(f(x * GAIN) + OFFSET));
export const sseLogToLin = (y: number): number =>
  y > Y_BREAK ? f(f(ssePower(2, y) * SHIFTED_GREY) - SHIFT) : f(f(y - OFFSET) * GAIN_INVERSE);
