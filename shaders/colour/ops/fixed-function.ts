// OCIO's fixed functions (FixedFunctionTransform styles) on RGBA float32 pixels; the ACES 2.0 ones live in ./aces2/.

import { applyAces2 } from './aces2/apply.js';
import type { FixedFunctionOp } from './op.js';

const f = Math.fround;

type Pixel = (r: number, g: number, b: number) => [number, number, number];

const stdMax = (a: number, b: number): number => (a < b ? b : a);
const stdMin = (a: number, b: number): number => (b < a ? b : a);
const clamp = (v: number, lo: number, hi: number): number => stdMin(stdMax(lo, v), hi); // NaN → lo, as OCIO's Clamp
const copySign = (mag: number, sign: number): number => (sign < 0 || Object.is(sign, -0) ? -Math.abs(mag) : Math.abs(mag));

/** The styles this module renders (forward and inverse), by the names FixedFunctionTransform uses. */
export const FIXED_FUNCTION_STYLES = [
  'ACES_RedMod03',
  'ACES_RedMod10',
  'ACES_Glow03',
  'ACES_Glow10',
  'ACES_DarkToDim10',
  'ACES_GamutComp13',
  'ACES_OutputTransform20',
  'ACES_RGB_TO_JMh_20',
  'ACES_TonescaleCompress_20',
  'ACES_GamutCompress_20',
  'REC2100_Surround',
  'RGB_TO_HSV',
  'XYZ_TO_xyY',
  'XYZ_TO_uvY',
  'XYZ_TO_LUV',
  'LIN_TO_PQ',
  'LIN_TO_GAMMA_LOG',
  'LIN_TO_DOUBLE_LOG',
] as const;

/** How many params each style takes (OCIO validates the count). */
export const FIXED_FUNCTION_PARAM_COUNT: Record<string, number[]> = {
  ACES_GamutComp13: [7],
  ACES_OutputTransform20: [9],
  ACES_RGB_TO_JMh_20: [8],
  ACES_TonescaleCompress_20: [1],
  ACES_GamutCompress_20: [9],
  REC2100_Surround: [1],
  LIN_TO_GAMMA_LOG: [10],
  LIN_TO_DOUBLE_LOG: [13],
};

export function applyFixedFunction(op: FixedFunctionOp, rgba: Float32Array): void {
  if (op.style.startsWith('ACES_') && op.style.endsWith('20')) return applyAces2(op.style, op.direction === 'inverse', op.params, rgba);
  const pixel = pixelFunction(op);
  for (let i = 0; i < rgba.length; i += 4) {
    const out = pixel(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    rgba[i] = out[0];
    rgba[i + 1] = out[1];
    rgba[i + 2] = out[2];
  }
}

function pixelFunction(op: FixedFunctionOp): Pixel {
  const inv = op.direction === 'inverse';
  const p = op.params;
  switch (op.style) {
    case 'ACES_RedMod03':
      return redMod(0.85, 1.9098593171027443, true, inv);
    case 'ACES_RedMod10':
      return redMod(0.82, 1.6976527263135504, false, inv);
    case 'ACES_Glow03':
      return glow(0.075, 0.1, inv);
    case 'ACES_Glow10':
      return glow(0.05, 0.08, inv);
    case 'ACES_DarkToDim10':
      return darkToDim(inv ? 1.0192640913260627 : 0.9811);
    case 'ACES_GamutComp13':
      return gamutComp13(p, inv);
    case 'REC2100_Surround':
      return surround(p[0]!, inv);
    case 'RGB_TO_HSV':
      return inv ? hsvToRgb : rgbToHsv;
    case 'XYZ_TO_xyY':
      return inv ? xyYToXyz : xyzToXyY;
    case 'XYZ_TO_uvY':
      return inv ? uvYToXyz : xyzToUvY;
    case 'XYZ_TO_LUV':
      return inv ? luvToXyz : xyzToLuv;
    case 'LIN_TO_PQ':
      return perChannel(inv ? pqToLin : linToPq);
    case 'LIN_TO_GAMMA_LOG':
      return perChannel(gammaLog(p, inv));
    case 'LIN_TO_DOUBLE_LOG':
      return perChannel(doubleLog(p, inv));
    default:
      throw new Error(`fixed function ${op.style} is not supported`);
  }
}

const perChannel =
  (fn: (v: number) => number): Pixel =>
  (r, g, b) => [fn(r), fn(g), fn(b)];

function satWeight(r: number, g: number, b: number): number {
  const lo = stdMin(r, stdMin(g, b)),
    hi = stdMax(r, stdMax(g, b));
  return f(f(stdMax(f(1e-10), hi) - stdMax(f(1e-10), lo)) / stdMax(f(1e-2), hi));
}

/** In float32 steps, as OCIO: whether a near-neutral pixel lands just inside the red hue window depends on the rounding. */
function hueWeight(r: number, g: number, b: number, invWidth: number): number {
  const hue = f(Math.atan2(f(f(1.7320508075688772) * f(g - b)), f(f(2 * r) - f(g + b))));
  const knot = f(f(hue * f(invWidth)) + 2);
  const j = Math.trunc(knot);
  const M = [
    [0.25, 0, 0, 0],
    [-0.75, 0.75, 0.75, 0.25],
    [0.75, -1.5, 0, 1],
    [-0.25, 0.75, -0.75, 0.25],
  ];
  if (!(j >= 0 && j < 4)) return 0;
  const t = knot - j;
  const c = M[j]!;
  const t32 = f(t);
  return f(c[3]! + f(t32 * f(c[2]! + f(t32 * f(c[1]! + f(t32 * c[0]!))))));
}

/** ACES red modifier: pulls saturated reds toward the pivot; 0.3 also adjusts the middle channel to keep the hue. */
function redMod(scale: number, invWidth: number, keepHue: boolean, inverse: boolean): Pixel {
  const oneMinusScale = 1 - scale,
    pivot = 0.03;
  return (r, g, b) => {
    const fH = hueWeight(r, g, b, invWidth);
    if (!(fH > 0)) return [r, g, b];
    const k = f(oneMinusScale);
    let newRed: number;
    if (!inverse) newRed = f(r + f(f(f(fH * satWeight(r, g, b)) * f(f(pivot) - r)) * k));
    else {
      const minChan = g < b ? g : b;
      const a = f(f(fH * k) - 1);
      const bb = f(r - f(f(fH * f(f(pivot) + minChan)) * k));
      const c = f(f(f(fH * f(pivot)) * minChan) * k);
      newRed = f(f(-bb - f(Math.sqrt(f(f(bb * bb) - f(f(4 * a) * c))))) / f(2 * a));
    }
    if (!keepHue) return [newRed, g, b];
    if (g >= b) return [newRed, f(f(f(g - b) / stdMax(f(1e-10), f(r - b))) * f(newRed - b)) + b, b];
    return [newRed, g, f(f(f(b - g) / stdMax(f(1e-10), f(r - g))) * f(newRed - g)) + g];
  };
}

function glow(gain: number, mid: number, inverse: boolean): Pixel {
  return (r, g, b) => {
    const chroma = Math.sqrt(b * (b - g) + g * (g - r) + r * (r - b));
    const yc = (b + g + r + 1.75 * chroma) / 3;
    const x = (satWeight(r, g, b) - 0.4) * 5;
    const sign = copySign(1, x);
    const t = stdMax(0, 1 - 0.5 * sign * x);
    const s = (1 + sign * (1 - t * t)) * 0.5;
    const glowGain = gain * s;
    let out: number;
    if (yc >= mid * 2) out = 0;
    else if (!inverse) out = yc <= (mid * 2) / 3 ? glowGain : glowGain * (mid / yc - 0.5);
    else out = yc <= ((1 + glowGain) * mid * 2) / 3 ? -glowGain / (1 + glowGain) : (glowGain * (mid / yc - 0.5)) / (glowGain * 0.5 - 1);
    const k = 1 + out;
    return [r * k, g * k, b * k];
  };
}

function darkToDim(gamma: number): Pixel {
  const exponent = Math.fround(gamma) - 1;
  return (r, g, b) => {
    const Y = stdMax(1e-10, 0.27222871678091454 * r + 0.67408176581114831 * g + 0.053689517407937051 * b);
    const k = Math.pow(Y, exponent);
    return [r * k, g * k, b * k];
  };
}

function gamutComp13(p: number[], inverse: boolean): Pixel {
  const [limC, limM, limY, thrC, thrM, thrY, power] = p.map(Math.fround) as number[];
  const scaleOf = (lim: number, thr: number): number => (lim - thr) / Math.pow(Math.pow((1 - thr) / (lim - thr), -power!) - 1, 1 / power!);
  const scales = [scaleOf(limC!, thrC!), scaleOf(limM!, thrM!), scaleOf(limY!, thrY!)].map(f);
  const thresholds = [thrC!, thrM!, thrY!];
  // float32 steps throughout: at large values the distance from the achromatic axis is a few float ulps
  const compress = (dist: number, thr: number, scale: number): number => {
    const nd = f(f(dist - thr) / scale);
    return f(thr + f(f(scale * nd) / f(Math.pow(f(1 + f(Math.pow(nd, power!))), f(1 / power!)))));
  };
  const uncompress = (dist: number, thr: number, scale: number): number => {
    if (dist >= f(thr + scale)) return dist;
    const nd = f(f(dist - thr) / scale);
    const pw = f(Math.pow(nd, power!));
    return f(thr + f(scale * f(Math.pow(f(-f(pw / f(pw - 1))), f(1 / power!)))));
  };
  return (r, g, b) => {
    const ach = stdMax(r, stdMax(g, b));
    const one = (v: number, c: number): number => {
      if (ach === 0) return 0;
      const dist = f(f(ach - v) / Math.abs(ach));
      if (dist < thresholds[c]!) return v;
      return f(ach - f((inverse ? uncompress : compress)(dist, thresholds[c]!, scales[c]!) * Math.abs(ach)));
    };
    return [one(r, 0), one(g, 1), one(b, 2)];
  };
}

function surround(gammaParam: number, inverse: boolean): Pixel {
  const gamma = Math.fround(gammaParam);
  const minLum = inverse ? f(Math.pow(f(1e-4), gamma)) : f(1e-4);
  const exponent = f(f(inverse ? f(1 / gamma) : gamma) - 1);
  const [wr, wg, wb] = [0.2627, 0.678, 0.0593].map(f) as [number, number, number];
  return (r, g, b) => {
    const Y = stdMax(minLum, Math.abs(f(f(f(wr * r) + f(wg * g)) + f(wb * b))));
    const k = f(Math.pow(Y, exponent));
    return [f(r * k), f(g * k), f(b * k)];
  };
}

const rgbToHsv: Pixel = (r, g, b) => {
  const lo = stdMin(stdMin(r, g), b),
    hi = stdMax(stdMax(r, g), b);
  let val = hi,
    sat = 0,
    hue = 0;
  if (lo !== hi) {
    const delta = hi - lo;
    if (hi !== 0) sat = delta / hi;
    if (r === hi) hue = (g - b) / delta;
    else if (g === hi) hue = 2 + (b - r) / delta;
    else hue = 4 + (r - g) / delta;
    if (hue < 0) hue += 6;
    hue *= 1 / 6;
  }
  if (lo < 0) val += lo;
  if (-lo > hi) sat = (hi - lo) / -lo;
  return [hue, sat, val];
};

const hsvToRgb: Pixel = (h, s, v) => {
  const hue = (h - Math.floor(h)) * 6;
  const sat = clamp(s, 0, 1.999);
  const red = clamp(Math.abs(hue - 3) - 1, 0, 1);
  const grn = clamp(2 - Math.abs(hue - 2), 0, 1);
  const blu = clamp(2 - Math.abs(hue - 4), 0, 1);
  let max = v,
    min = v * (1 - sat);
  if (sat > 1) {
    min = (v * (1 - sat)) / (2 - sat);
    max = v - min;
  }
  if (v < 0) {
    min = v / (2 - sat);
    max = v - min;
  }
  const delta = max - min;
  return [red * delta + min, grn * delta + min, blu * delta + min];
};

const recip = (d: number): number => (d === 0 ? 0 : 1 / d);
const xyzToXyY: Pixel = (X, Y, Z) => {
  const d = recip(X + Y + Z);
  return [X * d, Y * d, Y];
};
const xyYToXyz: Pixel = (x, y, Y) => {
  const d = recip(y);
  return [Y * x * d, Y, Y * (1 - x - y) * d];
};
const xyzToUvY: Pixel = (X, Y, Z) => {
  const d = recip(X + 15 * Y + 3 * Z);
  return [4 * X * d, 9 * Y * d, Y];
};
const uvYToXyz: Pixel = (u, v, Y) => {
  const d = recip(v);
  return [(9 / 4) * Y * u * d, Y, (3 / 4) * Y * (4 - u - 6.666666666666667 * v) * d];
};
const xyzToLuv: Pixel = (X, Y, Z) => {
  const d = recip(X + 15 * Y + 3 * Z);
  const u = 4 * X * d,
    v = 9 * Y * d;
  const L = Y <= 0.008856451679 ? 9.0329629629629608 * Y : 1.16 * Math.pow(Y, Math.fround(0.333333333)) - 0.16;
  return [L, 13 * L * (u - 0.19783001), 13 * L * (v - 0.46831999)];
};
const luvToXyz: Pixel = (L, us, vs) => {
  const d = L === 0 ? 0 : 0.076923076923076927 / L;
  const u = us * d + 0.19783001,
    v = vs * d + 0.46831999;
  const tmp = (L + 0.16) * 0.86206896551724144;
  const Y = L <= 0.08 ? 0.11070564598794539 * L : tmp * tmp * tmp;
  const dd = v === 0 ? 0 : 0.25 / v;
  return [9 * Y * u * dd, Y, Y * (12 - 3 * u - 20 * v) * dd];
};

const PQ = { m1: (0.25 * 2610) / 4096, m2: (128 * 2523) / 4096, c2: (32 * 2413) / 4096, c3: (32 * 2392) / 4096 };
const PQ_C1 = PQ.c3 - PQ.c2 + 1;

/** Linear (100 nits = 1) → ST 2084, mirrored for negatives. */
export function linToPq(v: number): number {
  const y = Math.pow(Math.abs(v * 0.01), PQ.m1);
  return copySign(Math.pow((PQ_C1 + PQ.c2 * y) / (1 + PQ.c3 * y), PQ.m2), v);
}

export function pqToLin(v: number): number {
  const x = Math.pow(Math.abs(v), 1 / PQ.m2);
  return copySign(100 * Math.pow(stdMax(0, x - PQ_C1) / (PQ.c2 - PQ.c3 * x), 1 / PQ.m1), v);
}

/** A mirrored gamma segment below the break and a log segment above (HLG, Apple Log): params as OCIO's LIN_TO_GAMMA_LOG. */
function gammaLog(p: number[], inverse: boolean): (v: number) => number {
  const [mirror, brk, power, slope, off] = [p[0]!, p[1]!, p[2]!, p[3]!, p[4]!].map(f) as number[];
  const logSlope = f(p[6]! / Math.log(p[5]!)),
    logOff = f(p[7]!),
    linSlope = f(p[8]!),
    linOff = f(p[9]!);
  if (!inverse) {
    return (v) => {
      const m = v - mirror!;
      const E = Math.abs(m) + mirror!;
      const out = E < brk! ? slope! * Math.pow(E + off!, power!) : logSlope * Math.log(linSlope * E + linOff) + logOff;
      return out * copySign(1, m);
    };
  }
  const primeBreak = slope! * Math.pow(brk! + off!, power!);
  const primeMirror = slope! * Math.pow(mirror! + off!, power!);
  return (v) => {
    const m = v - primeMirror;
    const Ep = Math.abs(m) + primeMirror;
    const out = Ep < primeBreak ? Math.pow(Ep / slope!, 1 / power!) - off! : (Math.exp((Ep - logOff) / logSlope) - linOff) / linSlope;
    return out * copySign(1, m);
  };
}

/** Two log segments joined by a linear one (Canon Log 2/3): params as OCIO's LIN_TO_DOUBLE_LOG. */
function doubleLog(p: number[], inverse: boolean): (v: number) => number {
  const base = f(p[0]!),
    break1 = f(p[1]!),
    break2 = f(p[2]!);
  const seg = (k: number): number[] => [f(f(p[k]!) / Math.log(base)), f(p[k + 1]!), f(p[k + 2]!), f(p[k + 3]!)];
  const [s1, s2] = [seg(3), seg(7)] as [number[], number[]];
  const linSlope = f(p[11]!),
    linOff = f(p[12]!);
  const log = (s: number[], x: number): number => s[0]! * Math.log(s[2]! * x + s[3]!) + s[1]!;
  const exp = (s: number[], y: number): number => (Math.exp((y - s[1]!) / s[0]!) - s[3]!) / s[2]!;
  if (!inverse) return (x) => (x <= break1 ? log(s1, x) : x < break2 ? linSlope * x + linOff : log(s2, x));
  const b1 = log(s1, break1),
    b2 = log(s2, break2);
  return (y) => (y <= b1 ? exp(s1, y) : y < b2 ? (y - linOff) / linSlope : exp(s2, y));
}
