// ACES 2.0's CAM16-based colour model: RGB ↔ Aab ↔ JMh (lightness, colourfulness, hue in degrees) for a set of primaries.

import { atan2F } from './atan2f.js';
import { diag3, inv3, XYZ_E, conversionMatrix, type M3, type Primaries } from './primaries.js';

const f = Math.fround;
export const REFERENCE_LUMINANCE = 100;
const L_A = 100;
const Y_B = 20;
const SURROUND_C = 0.59;
const SURROUND_NC = 0.9;
const J_SCALE = 100;
const NL_OFFSET = 0.2713 * 100;
const NL_SCALE = 4 * 100;
export const PI = f(3.14159265358979);

/** C++'s std::max / std::min, which return the first argument when the comparison is false (so NaN → first). */
export const stdMax = (a: number, b: number): number => (a < b ? b : a);
export const stdMin = (a: number, b: number): number => (b < a ? b : a);
export const copySign = (mag: number, sign: number): number => (sign < 0 || Object.is(sign, -0) ? -Math.abs(mag) : Math.abs(mag));
/** OCIO's lerpf, each step in float32. */
export const lerpF = (a: number, b: number, t: number): number => f(f(f(b - a) * t) + a);

const CAM16: Primaries = { red: [0.8336, 0.1735], green: [2.3854, -1.4659], blue: [0.087, -0.125], white: [0.333, 0.333] };

export interface JMhParams {
  rgbToCam: M3;
  camToRgb: M3;
  coneToAab: M3;
  aabToCone: M3;
  flN: number;
  cz: number;
  invCz: number;
  awJ: number;
  invAwJ: number;
}

export const modelGamma = (): number => f(f(SURROUND_C) * f(f(1.48) + f(Math.sqrt(f(Y_B / REFERENCE_LUMINANCE)))));

// per-pixel steps round to float32 as OCIO's do: hues of near-neutral colours hang on those last bits
const NL_OFFSET_F = f(NL_OFFSET);
function coneCompressFwd(rc: number): number {
  const p = f(Math.pow(rc, f(0.42)));
  return f(p / f(NL_OFFSET_F + p));
}
function coneCompressInv(ra: number): number {
  const lim = stdMin(ra, f(0.99));
  return f(Math.pow(f(f(NL_OFFSET_F * lim) / f(1 - lim)), f(1 / f(0.42))));
}

/** m·v with float32 products and sums in OCIO's order. */
function apply3f(m: M3, v: readonly number[]): number[] {
  const row = (r: number): number => f(f(f(v[0]! * m[r * 3]!) + f(v[1]! * m[r * 3 + 1]!)) + f(v[2]! * m[r * 3 + 2]!));
  return [row(0), row(1), row(2)];
}
const signedFwd = (v: number): number => copySign(coneCompressFwd(Math.abs(v)), v);
const signedInv = (v: number): number => copySign(coneCompressInv(Math.abs(v)), v);

const toFloat = (m: M3): M3 => m.map(f);
const rgbToXyzF = (p: Primaries): M3 => toFloat(conversionMatrix(p, XYZ_E, 'none'));
const xyzToRgbF = (p: Primaries): M3 => toFloat(inv3(conversionMatrix(p, XYZ_E, 'none')));

const paramsCache = new Map<string, JMhParams>();

/** 3×3 products in float32, summed in OCIO's order. */
function mul3f(a: M3, b: M3): M3 {
  const out: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) out.push(f(f(f(a[r * 3]! * b[c]!) + f(a[r * 3 + 1]! * b[3 + c]!)) + f(a[r * 3 + 2]! * b[6 + c]!)));
  return out;
}

/** The model's matrices and constants for a set of primaries, computed in float32 steps as OCIO's init_JMhParams. */
export function jmhParams(prims: Primaries): JMhParams {
  const key = JSON.stringify(prims);
  const cached = paramsCache.get(key);
  if (cached) return cached;
  const base = [2, 1, 1 / 20, 1, -12 / 11, 1 / 11, 1 / 9, 1 / 9, -2 / 9].map(f);
  const m16 = xyzToRgbF(CAM16);
  const toXyz = rgbToXyzF(prims);
  const xyzW = apply3f(toXyz, [REFERENCE_LUMINANCE, REFERENCE_LUMINANCE, REFERENCE_LUMINANCE]);
  const yW = xyzW[1]!;
  const rgbW = apply3f(m16, xyzW);
  const k = f(1 / f(5 * L_A + 1));
  const k4 = f(f(f(k * k) * k) * k);
  const fl = f(f(f(f(0.2) * k4) * f(5 * L_A)) + f(f(f(0.1) * f(Math.pow(f(1 - k4), 2))) * f(Math.pow(f(5 * L_A), f(1 / 3)))));
  const flN = f(fl / REFERENCE_LUMINANCE);
  const cz = f(modelGamma());
  const d = rgbW.map((v) => f(f(flN * yW) / v));
  const rgbAW = rgbW.map((v, i) => coneCompressFwd(f(d[i]! * v)));
  const coneToAabBase = mul3f(diag3([NL_SCALE, NL_SCALE, NL_SCALE]), base);
  const aW = f(f(f(coneToAabBase[0]! * rgbAW[0]!) + f(coneToAabBase[1]! * rgbAW[1]!)) + f(coneToAabBase[2]! * rgbAW[2]!));
  const awJ = coneCompressFwd(fl);
  const rgbToCam16 = mul3f(mul3f(m16, toXyz), diag3([REFERENCE_LUMINANCE, REFERENCE_LUMINANCE, REFERENCE_LUMINANCE]));
  const rgbToCam = mul3f(diag3(d), rgbToCam16);
  const coneToAab = coneToAabBase.map((v, i) => (i < 3 ? f(v / aW) : f(f(v * 43) * f(SURROUND_NC))));
  const params: JMhParams = {
    rgbToCam,
    camToRgb: toFloat(inv3(rgbToCam)),
    coneToAab,
    aabToCone: toFloat(inv3(coneToAab)),
    flN,
    cz,
    invCz: f(1 / cz),
    awJ,
    invAwJ: f(1 / awJ),
  };
  paramsCache.set(key, params);
  return params;
}

export function rgbToAab(rgb: readonly number[], p: JMhParams): number[] {
  const m = apply3f(p.rgbToCam, rgb);
  return apply3f(p.coneToAab, m.map(signedFwd));
}

export function aabToJMh(aab: readonly number[], p: JMhParams): number[] {
  const [A, a, b] = aab as [number, number, number];
  if (A <= 0) return [0, 0, 0];
  const h = atan2F(b, a);
  return [f(J_SCALE * f(Math.pow(A, p.cz))), f(Math.sqrt(f(f(a * a) + f(b * b)))), wrapHue(f(f(180 * h) / PI))];
}

export function rgbToJMh(rgb: readonly number[], p: JMhParams): number[] {
  return aabToJMh(rgbToAab(rgb, p), p);
}

export const achromaticToJ = (A: number, cz: number): number => f(J_SCALE * f(Math.pow(A, cz)));
export const jToAchromatic = (J: number, invCz: number): number => f(Math.pow(f(J * f(1 / J_SCALE)), invCz));

export function jmhToAab(jmh: readonly number[], cosH: number, sinH: number, p: JMhParams): number[] {
  return [jToAchromatic(jmh[0]!, p.invCz), f(jmh[1]! * cosH), f(jmh[1]! * sinH)];
}

export function aabToRgb(aab: readonly number[], p: JMhParams): number[] {
  const cone = apply3f(p.aabToCone, aab);
  return apply3f(p.camToRgb, cone.map(signedInv));
}

export const toRadians = (deg: number): number => f(f(PI * deg) / 180);

export function jmhToRgb(jmh: readonly number[], p: JMhParams): number[] {
  const h = toRadians(jmh[2]!);
  return aabToRgb(jmhToAab(jmh, f(Math.cos(h)), f(Math.sin(h)), p), p);
}

/** Hue into [0, 360) as OCIO's fmod-then-add does. */
export function wrapHue(h: number): number {
  const y = h % 360;
  return y < 0 ? f(y + 360) : y;
}

export function aToY(A: number, p: JMhParams): number {
  return f(coneCompressInv(f(p.awJ * A)) / p.flN);
}
export function absYToJ(absY: number, p: JMhParams): number {
  return achromaticToJ(f(coneCompressFwd(f(absY * p.flN)) * p.invAwJ), p.cz);
}
export const yToJ = (Y: number, p: JMhParams): number => copySign(absYToJ(Math.abs(Y), p), Y);
export const absJToY = (absJ: number, p: JMhParams): number => aToY(jToAchromatic(absJ, p.invCz), p);
