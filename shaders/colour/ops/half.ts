// IEEE half floats: float → half code with round-to-nearest-even (as Imath's half(float)), and half code → value.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function halfToFloat(code: number): number {
  const sign = code & 0x8000 ? -1 : 1;
  const exponent = (code >> 10) & 0x1f;
  const mantissa = code & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

export function floatToHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >>> 13) : 0);
  const e = exponent - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    const rounded = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    return sign | (rounded + (rest > halfway || (rest === halfway && rounded & 1) ? 1 : 0));
  }
  const base = sign | (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // a carry out of the mantissa bumps the exponent, up to infinity, which is what rounding should do
  return base + (rest > 0x1000 || (rest === 0x1000 && base & 1) ? 1 : 0);
}
