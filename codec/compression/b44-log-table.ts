// The B44 table that maps decoded pLinear half values back: half(8 * logf(x)) for every half x.
//
// B44 stores pLinear channels as exp(x / 8) so that its linear block coding suits them; decoding
// applies this table. OpenEXR computes it in single precision (logf, a float product, then
// round-to-nearest-even to half), so this does the same with Math.fround.

import { HALF_TO_FLOAT, floatToHalf } from '../core/half.js';

let table: Uint16Array | null = null;

function build(): Uint16Array {
  const result = new Uint16Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    // Infinities, NaNs and negative values (but not -0) map to +0.
    if ((bits & 0x7c00) === 0x7c00 || bits > 0x8000) {
      result[bits] = 0;
      continue;
    }
    const logValue = Math.fround(Math.log(HALF_TO_FLOAT[bits]!));
    result[bits] = floatToHalf(Math.fround(8 * logValue));
  }
  return result;
}

/** The table, built on first use (65536 logarithms, under a few milliseconds). */
export function b44LogTable(): Uint16Array {
  table ??= build();
  return table;
}
