// IEEE 754 binary16 <-> binary32 conversion, by table for decoding speed.

const halfToFloatTable = new Float32Array(65536);
{
  const u32 = new Uint32Array(halfToFloatTable.buffer);
  for (let h = 0; h < 65536; h++) {
    const sign = (h & 0x8000) << 16;
    const exponent = (h >> 10) & 0x1f;
    let mantissa = h & 0x3ff;
    if (exponent === 0) {
      if (mantissa === 0) {
        u32[h] = sign;
      } else {
        // subnormal: normalise
        let e = -1;
        do {
          e++;
          mantissa <<= 1;
        } while ((mantissa & 0x400) === 0);
        u32[h] = sign | ((127 - 15 - e) << 23) | ((mantissa & 0x3ff) << 13);
      }
    } else if (exponent === 31) {
      u32[h] = sign | 0x7f800000 | (mantissa << 13);
    } else {
      u32[h] = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
    }
  }
}

/** The float value of each of the 65536 half bit patterns. */
export const HALF_TO_FLOAT: Float32Array = halfToFloatTable;

export function halfToFloat(bits: number): number {
  return halfToFloatTable[bits & 0xffff]!;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float -> half bits, round to nearest even, as OpenEXR's half(float) does. */
export function floatToHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const absBits = x & 0x7fffffff;
  if (absBits >= 0x7f800000) {
    // Inf or NaN; keep NaN a NaN
    if (absBits === 0x7f800000) return sign | 0x7c00;
    const mantissa = (absBits >>> 13) & 0x3ff;
    return sign | 0x7c00 | (mantissa === 0 ? 0x200 : mantissa);
  }
  if (absBits >= 0x477ff000) return sign | 0x7c00; // rounds to >= 65520: overflow to Inf
  if (absBits < 0x38800000) {
    // subnormal half or zero
    if (absBits < 0x33000000) return sign; // below half the smallest subnormal
    const exponent = absBits >>> 23;
    const mantissa = (absBits & 0x7fffff) | 0x800000;
    const shift = 126 - exponent; // 14 .. 24
    const halfMantissa = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const rounded = remainder > halfway || (remainder === halfway && (halfMantissa & 1) === 1) ? halfMantissa + 1 : halfMantissa;
    return sign | rounded;
  }
  const rebased = absBits - 0x38000000; // exponent 127 -> 15
  const halfBits = rebased >>> 13;
  const remainder = rebased & 0x1fff;
  const rounded = remainder > 0x1000 || (remainder === 0x1000 && (halfBits & 1) === 1) ? halfBits + 1 : halfBits;
  return sign | rounded;
}
