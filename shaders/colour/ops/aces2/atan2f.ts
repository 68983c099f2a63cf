// atan2 in float32 steps as the C library's atan2f computes it (glibc up to 2.40: the fdlibm algorithm), not correctly rounded.

// OCIO takes each hue from std::atan2 on floats, and its ACES 2.0 tables bisect on hues: a last-bit difference there moves a
// table entry by a search's whole tolerance. Math.atan2 rounded to float32 differs from atan2f in about one case in six.

const f = Math.fround;
const floatView = new Float32Array(1);
const wordView = new Int32Array(floatView.buffer);
const toBits = (v: number): number => ((floatView[0] = v), wordView[0]!);

/** atan at 0.5, 1, 1.5 and ∞, split into a float and what it leaves out. */
const ATAN_HI = [4.6364760399e-1, 7.8539812565e-1, 9.8279368877e-1, 1.5707962513].map(f);
const ATAN_LO = [5.012158244e-9, 3.7748947079e-8, 3.447321717e-8, 7.5497894159e-8].map(f);
/** The odd series of atan on the reduced argument, coefficient of z^(2k+1) at k. */
const SERIES = [
  3.3333334327e-1, -2.0000000298e-1, 1.4285714924e-1, -1.1111110449e-1, 9.0908870101e-2, -7.6918758452e-2, 6.6610731184e-2,
  -5.8335702866e-2, 4.9768779427e-2, -3.6531571299e-2, 1.6285819933e-2,
].map(f);
const ODD_TERMS = SERIES.filter((_, k) => k % 2 === 0);
const EVEN_TERMS = SERIES.filter((_, k) => k % 2 === 1);
const PI = f(3.141592741);
const PI_LO = f(-8.7422776573e-8);
const HALF_PI = f(1.5707963705);
const QUARTER_PI = f(7.8539818525e-1);

/** c0 + w·(c1 + w·(c2 + …)), each step rounded to float32. */
function hornerF(w: number, coefficients: number[]): number {
  let acc = coefficients[coefficients.length - 1]!;
  for (let k = coefficients.length - 2; k >= 0; k--) acc = f(coefficients[k]! + f(w * acc));
  return acc;
}

/** atan of a float32, reduced about 0, 0.5, 1, 1.5 or ∞ and summed as an even and an odd polynomial. */
export function atanF(xIn: number): number {
  const word = toBits(xIn);
  const magnitude = word & 0x7fffffff;
  if (magnitude >= 0x4c000000) {
    if (magnitude > 0x7f800000) return xIn;
    return word > 0 ? f(ATAN_HI[3]! + ATAN_LO[3]!) : f(-ATAN_HI[3]! - ATAN_LO[3]!);
  }
  let x = xIn;
  let id = -1;
  if (magnitude < 0x3ee00000) {
    if (magnitude < 0x31000000) return x;
  } else {
    x = Math.abs(x);
    if (magnitude < 0x3f980000) {
      if (magnitude < 0x3f300000) {
        id = 0;
        x = f(f(f(2 * x) - 1) / f(2 + x));
      } else {
        id = 1;
        x = f(f(x - 1) / f(x + 1));
      }
    } else if (magnitude < 0x401c0000) {
      id = 2;
      x = f(f(x - 1.5) / f(1 + f(1.5 * x)));
    } else {
      id = 3;
      x = f(-1 / x);
    }
  }
  const z = f(x * x);
  const w = f(z * z);
  const s1 = f(z * hornerF(w, ODD_TERMS));
  const s2 = f(w * hornerF(w, EVEN_TERMS));
  if (id < 0) return f(x - f(x * f(s1 + s2)));
  const result = f(ATAN_HI[id]! - f(f(f(x * f(s1 + s2)) - ATAN_LO[id]!) - x));
  return word < 0 ? -result : result;
}

/** atan2(y, x) of float32s, quadrant by quadrant from atanF(|y/x|). */
export function atan2F(y: number, x: number): number {
  const wx = toBits(x),
    wy = toBits(y);
  const ax = wx & 0x7fffffff,
    ay = wy & 0x7fffffff;
  if (ax > 0x7f800000 || ay > 0x7f800000) return f(x + y);
  if (wx === 0x3f800000) return atanF(y);
  const quadrant = ((wy >>> 31) & 1) | ((wx >>> 30) & 2);
  if (ay === 0) return quadrant < 2 ? y : quadrant === 2 ? PI : -PI;
  if (ax === 0) return wy < 0 ? -HALF_PI : HALF_PI;
  if (ax === 0x7f800000) {
    if (ay === 0x7f800000) return [QUARTER_PI, -QUARTER_PI, f(3 * QUARTER_PI), f(-3 * QUARTER_PI)][quadrant]!;
    return [0, -0, PI, -PI][quadrant]!;
  }
  if (ay === 0x7f800000) return wy < 0 ? -HALF_PI : HALF_PI;
  const exponentGap = (ay - ax) >> 23;
  let z: number;
  if (exponentGap > 60) z = f(HALF_PI + f(0.5 * PI_LO));
  else if (wx < 0 && exponentGap < -60) z = 0;
  else z = atanF(Math.abs(f(y / x)));
  switch (quadrant) {
    case 0:
      return z;
    case 1:
      return -z;
    case 2:
      return f(PI - f(z - PI_LO));
    default:
      return f(f(z - PI_LO) - PI);
  }
}
