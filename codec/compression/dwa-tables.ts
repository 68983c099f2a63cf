// DWA lookup tables: the nonlinear-to-linear half table and the zig-zag coefficient order.

import { HALF_TO_FLOAT, floatToHalf } from '../core/half.js';

/**
 * Natural (row-major) position in the 8x8 block of each zig-zag index: the JPEG order, which
 * DWA stores its 63 AC coefficients in after the DC one.
 */
export const ZIGZAG_TO_NATURAL: Uint8Array = (() => {
  const order = new Uint8Array(64);
  let index = 0;
  for (let diagonal = 0; diagonal < 15; diagonal++) {
    // Even diagonals run up and to the right (row falling), odd ones down and to the left.
    const first = Math.max(0, diagonal - 7);
    const last = Math.min(7, diagonal);
    for (let step = first; step <= last; step++) {
      const row = diagonal % 2 === 0 ? diagonal - step : step;
      order[index++] = row * 8 + (diagonal - row);
    }
  }
  return order;
})();

/** Zig-zag index of the first coefficient of each block row: rows below the last non-zero coefficient's row are all zero. */
export const ZIGZAG_ROW_START: readonly number[] = [0, 2, 3, 9, 10, 20, 21, 35];

let toLinearTable: Uint16Array | undefined;

/**
 * The half -> half table that undoes DWA's perceptual encoding: x^2.2 up to 1, and
 * e^(2.2 (x - 1)) above (a log curve that blends into the gamma), with the sign kept and
 * Inf/NaN mapped to 0.
 *
 * OpenEXR builds this table at compile time with single-precision powf; computing each power in
 * double and rounding to float gives the same float, and so the same half, for every input (the
 * unit test checks the whole table against a digest of the one in libOpenEXR 3.1).
 */
export function dwaToLinearTable(): Uint16Array {
  if (toLinearTable) return toLinearTable;
  const table = new Uint16Array(65536);
  const gammaExponent = Math.fround(2.2);
  // The library computes the base in double (pow(2.7182818, 2.2)) and stores it as a float.
  const logBase = Math.fround(Math.pow(2.7182818, 2.2));
  for (let bits = 1; bits < 0x7c00; bits++) {
    const magnitude = HALF_TO_FLOAT[bits]!;
    const linear = magnitude <= 1 ? Math.fround(Math.pow(magnitude, gammaExponent)) : Math.fround(Math.pow(logBase, magnitude - 1)); // magnitude - 1 is exact in float for any half
    const half = floatToHalf(linear);
    table[bits] = half;
    // The curve is odd (sign * f(|x|)) and rounding is symmetric; a negative input whose result
    // rounds to zero keeps its sign (-0). Only -0 itself maps to +0, as the table starts zeroed.
    table[bits | 0x8000] = half | 0x8000;
  }
  // Inf and NaN (exponent all ones) stay 0.
  toLinearTable = table;
  return table;
}

let identityTable: Uint16Array | undefined;

/** The table used for perceptually linear (pLinear) single channels: no transfer at all. */
export function dwaIdentityTable(): Uint16Array {
  if (identityTable) return identityTable;
  const table = new Uint16Array(65536);
  for (let bits = 0; bits < 65536; bits++) table[bits] = bits;
  identityTable = table;
  return table;
}
