// The ACES 2.0 output transform (FixedFunction ACES_OutputTransform20) as WGSL, analytic as OCIO runs it on the GPU; its
// per-hue tables (aces2-tables.ts) ride in the 1D LUT texture. The forward direction is in aces2-forward-wgsl.ts.
import type { FixedFunctionOp } from '../ops/op.js';
import { primariesOf, stateFor } from '../ops/aces2/apply.js';
import type { JMhParams } from '../ops/aces2/cam.js';
import { TABLE_SIZE } from '../ops/aces2/tables.js';
import { ACES2_FORWARD_WGSL } from './aces2-forward-wgsl.js';
import { aces2GpuTables } from './aces2-tables.js';
import type { LutAtlas } from './lut-atlas.js';

/** The fixed-function styles written as WGSL here; the others (the stage styles) are still baked. */
export function isAces2Analytic(op: FixedFunctionOp): boolean {
  return op.style === 'ACES_OutputTransform20';
}

/** The WGSL expression of `op` on `c.xyz`; its tables are added to `atlas` (aces2-tables.ts). */
export function aces2Wgsl(op: FixedFunctionOp, atlas: LutAtlas, lit: (v: number) => string): string {
  const s = stateFor(op.params[0]!, primariesOf(op.params.slice(1)));
  const g = s.gamut!;
  const tables = aces2GpuTables(s);
  const start = atlas.add1dRgba(tables.values);
  const m3 = (m: readonly number[]): string => `mat3x3f(${m.map(lit).join(', ')})`;
  const camOf = (p: JMhParams): string => {
    const matrices = [p.rgbToCam, p.camToRgb, p.coneToAab, p.aabToCone].map(m3);
    return `Aces2Cam(${[...matrices, ...[p.flN, p.cz, p.invCz, p.awJ, p.invAwJ].map(lit)].join(', ')})`;
  };
  const t = s.tone,
    c = s.chroma,
    cam = s.input;
  // the forward tone scale's and gamut compression's constants, folded here in double
  const aJMax = Math.pow(s.shared.limitJMax / 100, cam.invCz);
  const forward = [
    Math.log2(t.m2),
    t.s2 * cam.flN,
    Math.log2(cam.flN * t.nR),
    1 / aJMax,
    1 / s.shared.limitJMax,
    (1 - s.shared.modelGammaInv) * Math.log2(s.shared.limitJMax),
  ];
  const scalars = [
    t.g,
    t.t1,
    t.s2,
    t.m2,
    t.inverseLimit,
    s.shared.limitJMax,
    s.shared.modelGammaInv,
    c.sat,
    c.satThr,
    c.compr,
    c.scale,
    g.midJ,
    g.focusDist,
    g.lowerHullGammaInv,
    tables.bucketsPerDegree,
    ...forward,
  ].map(lit);
  const offsets = [start, start + tables.reachAt, start + tables.bucketsAt, tables.bucketCount - 1, ...g.searchRange];
  const params = `Aces2Params(${camOf(s.input)}, ${camOf(s.output)}, ${scalars.join(', ')}, ${offsets.join(', ')})`;
  return `${op.direction === 'inverse' ? 'aces2OutputInverse' : 'aces2OutputForward'}(c.xyz, ${params})`;
}

/** The functions the calls use (appended to a processor's WGSL when it has an ACES 2.0 op), as transform.ts and cam.ts. */
export const ACES2_WGSL = /* wgsl */ `
struct Aces2Cam { toCam: mat3x3f, fromCam: mat3x3f, toAab: mat3x3f, fromAab: mat3x3f, flN: f32, cz: f32, invCz: f32, awJ: f32, invAwJ: f32 }
struct Aces2Params {
  inCam: Aces2Cam, outCam: Aces2Cam,
  g: f32, t1: f32, s2: f32, m2: f32, inverseLimit: f32,
  limitJMax: f32, modelGammaInv: f32,
  sat: f32, satThr: f32, compr: f32, scale: f32,
  midJ: f32, focusDist: f32, lowerHullGammaInv: f32, bucketsPerDegree: f32,
  log2M2: f32, s2FlN: f32, log2FlNR: f32, invAJMax: f32, invLimitJMax: f32, log2JMaxRest: f32,
  cusp: i32, reach: i32, buckets: i32, lastBucket: i32, searchLo: i32, searchHi: i32,
}
struct Aces2Hue { cuspJ: f32, cuspM: f32, gammaTopInv: f32, focusJ: f32, threshold: f32 }

const ACES2_PI: f32 = 3.14159265358979;
const ACES2_DEGREES_PER_RADIAN: f32 = 57.29577951308232;
const ACES2_NL_OFFSET: f32 = 27.13;
const ACES2_TABLE_LAST: i32 = ${TABLE_SIZE - 1};
const ACES2_UPPER_WRAP: i32 = ${TABLE_SIZE - 2};

// x^p for x > 0, else 0 (WGSL leaves pow undefined at and below 0)
fn aces2Pow(x: f32, p: f32) -> f32 { return select(0.0, pow(max(x, OCIO_FLT_MIN), p), x > 0.0); }
// the sign bit of s on |mag| (as the CPU's copySign, -0 included)
fn aces2CopySign(mag: f32, s: f32) -> f32 { return bitcast<f32>((bitcast<u32>(mag) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u)); }
fn aces2Lerp(a: f32, b: f32, t: f32) -> f32 { return (b - a) * t + a; }
fn aces2Wrap(h: f32) -> f32 { let y = h - 360.0 * trunc(h / 360.0); return select(y, y + 360.0, y < 0.0); }
// the wrap of an atan2 in degrees (-180 … 180, where trunc(h / 360) is 0): no division
fn aces2WrapHalfTurns(h: f32) -> f32 { return select(h, h + 360.0, h < 0.0); }

// rc^0.42 / (27.13 + rc^0.42); at rc = 0 the pow of the smallest normal (2e-16) stands for 0: no select (faster on an H200)
fn aces2ConeFwd(rc: f32) -> f32 { let p = exp2(0.42 * log2(max(rc, OCIO_FLT_MIN))); return p / (ACES2_NL_OFFSET + p); }
// (27.13 lim / (1 - lim))^(1/0.42) with the quotient as a difference of logs: a division costs more than a log2 here
fn aces2ConeInv(ra: f32) -> f32 {
  let lim = clamp(ra, OCIO_FLT_MIN, 0.99);
  return exp2((log2(ACES2_NL_OFFSET * lim) - log2(1.0 - lim)) * (1.0 / 0.42));
}

// the matrices are row-major, so a row vector times the column-major mat3x3f of the same numbers is M · v
fn aces2RgbToAab(rgb: vec3f, p: Aces2Cam) -> vec3f {
  let m = rgb * p.toCam;
  let cone = vec3f(aces2CopySign(aces2ConeFwd(abs(m.x)), m.x), aces2CopySign(aces2ConeFwd(abs(m.y)), m.y),
    aces2CopySign(aces2ConeFwd(abs(m.z)), m.z));
  return cone * p.toAab;
}
fn aces2AabToRgb(aab: vec3f, p: Aces2Cam) -> vec3f {
  let m = aab * p.fromAab;
  let cone = vec3f(aces2CopySign(aces2ConeInv(abs(m.x)), m.x), aces2CopySign(aces2ConeInv(abs(m.y)), m.y),
    aces2CopySign(aces2ConeInv(abs(m.z)), m.z));
  return cone * p.fromCam;
}
// atan2 from one division and a polynomial (Abramowitz and Stegun 4.4.49, within 2e-8 rad of atan on [0, 1]), for the
// forward hue: cheaper than the built-in's on the H200, and far within what the hue tables resolve. Undefined at (0, 0).
fn aces2Atan2(y: f32, x: f32) -> f32 {
  let ax = abs(x);
  let ay = abs(y);
  let z = min(ax, ay) / max(ax, ay);
  let z2 = z * z;
  var q = 0.0028662257 * z2 - 0.0161657367;
  q = q * z2 + 0.0429096138;
  q = q * z2 - 0.0752896400;
  q = q * z2 + 0.1065626393;
  q = q * z2 - 0.1420889944;
  q = q * z2 + 0.1999355085;
  q = q * z2 - 0.3333314528;
  var r = (q * z2 + 1.0) * z;
  r = select(r, 0.5 * ACES2_PI - r, ay > ax);
  r = select(r, ACES2_PI - r, x < 0.0);
  return select(r, -r, y < 0.0);
}
fn aces2AabToJMh(aab: vec3f, p: Aces2Cam) -> vec3f {
  if (aab.x <= 0.0) { return vec3f(0.0); }
  // atan2(0, 0) is undefined in WGSL; the CPU's is 0
  let neutral = aab.y == 0.0 && aab.z == 0.0;
  let h = select(atan2(aab.z, aab.y), 0.0, neutral);
  return vec3f(100.0 * aces2Pow(aab.x, p.cz), sqrt(aab.y * aab.y + aab.z * aab.z), aces2Wrap(180.0 * h / ACES2_PI));
}
// at J ≤ 0 the pow of the smallest normal (5e-34) stands for 0: no select (faster on an H200)
fn aces2JToA(J: f32, p: Aces2Cam) -> f32 { return exp2(p.invCz * log2(max(J * 0.01, OCIO_FLT_MIN))); }
fn aces2AToY(A: f32, p: Aces2Cam) -> f32 { return aces2ConeInv(p.awJ * A) / p.flN; }
fn aces2AbsYToJ(Y: f32, p: Aces2Cam) -> f32 { return 100.0 * aces2Pow(aces2ConeFwd(Y * p.flN) * p.invAwJ, p.cz); }

// the inverse tone scale (the forward is aces2ToneFwd)
fn aces2ToneScaleInv(Y: f32, p: Aces2Params) -> f32 {
  let z = clamp(Y / 100.0, 0.0, p.inverseLimit);
  let fz = (z + sqrt(z * (4.0 * p.t1 + z))) / 2.0;
  if (fz <= 0.0) { return 0.0; }
  return p.s2 / (pow(p.m2 / fz, 1.0 / p.g) - 1.0);
}
fn aces2ToneJInv(J: f32, p: Aces2Params) -> f32 {
  let Y = aces2AToY(aces2JToA(abs(J), p.inCam), p.inCam);
  return aces2CopySign(aces2AbsYToJ(aces2ToneScaleInv(Y, p), p.inCam), J);
}

// one texel holds the reach table's entries base + 1 and base + 2
fn aces2ReachM(h: f32, p: Aces2Params) -> f32 {
  let base = trunc(h);
  let m = ocioLut1dAt4(p.reach + clamp(i32(base) + 1, 0, ACES2_TABLE_LAST));
  return aces2Lerp(m.x, m.y, h - base);
}

fn aces2ChromaNorm(cosH: f32, sinH: f32, scale: f32) -> f32 {
  let cos2 = 2.0 * cosH * cosH - 1.0;
  let sin2 = 2.0 * cosH * sinH;
  let cos3 = 4.0 * cosH * cosH * cosH - 3.0 * cosH;
  let sin3 = 3.0 * sinH - 4.0 * sinH * sinH * sinH;
  let M = 11.34072 * cosH + 16.46899 * cos2 + 7.8838 * cos3 + 14.66441 * sinH - 6.37224 * sin2 + 9.19364 * sin3;
  return (M + 77.12896) * scale;
}

fn aces2ToeK(limit: f32, k1In: f32, k2In: f32) -> vec3f {
  let k2 = max(k2In, 0.001);
  let k1 = sqrt(k1In * k1In + k2 * k2);
  return vec3f(k1, k2, (limit + k1) / (limit + k2));
}
fn aces2ToeInv(x: f32, limit: f32, k1In: f32, k2In: f32) -> f32 {
  if (x > limit) { return x; }
  let k = aces2ToeK(limit, k1In, k2In);
  return (x * x + k.x * x) / (k.z * (x + k.y));
}

// M through the inverse chroma compression between lightness J and its tonescaled Jts (the forward is aces2ChromaFwd)
fn aces2ChromaInv(M: f32, Jts: f32, J: f32, mNorm: f32, reachM: f32, p: Aces2Params) -> f32 {
  if (M == 0.0) { return M; }
  let nJ = Jts / p.limitJMax;
  let snJ = max(0.0, 1.0 - nJ);
  let limit = aces2Pow(nJ, p.modelGammaInv) * reachM / mNorm;
  let satK2 = sqrt(nJ * nJ + p.satThr);
  var m = aces2ToeInv(M / mNorm, limit, nJ * p.compr, snJ);
  m = limit - aces2ToeInv(limit - m, limit - 0.001, snJ * p.sat, satK2);
  return m * mNorm * aces2Pow(Jts / J, -p.modelGammaInv);
}

// the hue's bucket holds the interval at its start and the next three table hues: one load, no search
fn aces2HueInterval(h: f32, p: Aces2Params) -> i32 {
  let bucket = ocioLut1dAt4(p.buckets + clamp(i32(floor(h * p.bucketsPerDegree)), 0, p.lastBucket));
  let past = select(vec3i(0), vec3i(1), vec3f(h) > bucket.yzw);
  // clamped to the search's window as lookupHueInterval's result is (it never tests below its window)
  let i = 1 + i32(trunc(h));
  let low = min(max(0, i + p.searchLo) + 1, i);
  let hi = clamp(i32(bucket.x) + past.x + past.y + past.z, low, min(ACES2_UPPER_WRAP, i + p.searchHi));
  return max(1, hi);
}
// where the search's window is at most i0 - 1 … i0 + 2 (every gamut tried) its four cusp entries are loaded at once and
// the interval picked from their hues, as windowInterval in aces2-tables.ts; elsewhere through the bucket table
fn aces2HueGamut(h: f32, p: Aces2Params) -> Aces2Hue {
  var lo: vec4f;
  var up: vec4f;
  if (p.searchLo >= -1 && p.searchHi <= 2) {
    let i = 1 + i32(trunc(h));
    let e0 = ocioLut1dAt4(p.cusp + i - 1);
    let e1 = ocioLut1dAt4(p.cusp + i);
    let e2 = ocioLut1dAt4(p.cusp + min(i + 1, ACES2_TABLE_LAST));
    let e3 = ocioLut1dAt4(p.cusp + min(i + 2, ACES2_TABLE_LAST));
    let past = select(0, 1, h > e1.w) + select(0, 1, h > e2.w);
    let k = min(past, min(ACES2_UPPER_WRAP, i + p.searchHi) - i);
    lo = select(select(e0, e1, k == 1), e2, k == 2);
    up = select(select(e1, e2, k == 1), e3, k == 2);
  } else {
    let hi = aces2HueInterval(h, p);
    lo = ocioLut1dAt4(p.cusp + hi - 1);
    up = ocioLut1dAt4(p.cusp + hi);
  }
  let t = (h - lo.w) / (up.w - lo.w);
  let cusp = mix(lo.xyz, up.xyz, vec3f(t));
  let focusJ = aces2Lerp(cusp.x, p.midJ, min(1.0, 1.3 - cusp.x / p.limitJMax));
  return Aces2Hue(cusp.x, cusp.y, cusp.z, focusJ, aces2Lerp(cusp.x, p.limitJMax, 0.3));
}

fn aces2FocusGain(J: f32, threshold: f32, p: Aces2Params) -> f32 {
  var gain = p.limitJMax * p.focusDist;
  if (J > threshold) {
    var adjust = log2((p.limitJMax - threshold) / max(0.0001, p.limitJMax - J)) * 0.30102999566;
    gain = gain * (adjust * adjust + 1.0);
  }
  return gain;
}
// the gain's and the focus J's reciprocals are shared by both solves and the slope: one division each, not five
fn aces2SolveJ(J: f32, M: f32, focusJ: f32, invFocusJ: f32, maxJ: f32, invGain: f32) -> f32 {
  let mScaled = M * invGain;
  let a = mScaled * invFocusJ;
  if (J < focusJ) {
    let b = 1.0 - mScaled;
    let c = -J;
    return -2.0 * c / (b + sqrt(b * b - 4.0 * a * c));
  }
  let b = -(1.0 + mScaled + maxJ * a);
  let c = maxJ * mScaled + J;
  return -2.0 * c / (b - sqrt(b * b - 4.0 * a * c));
}
fn aces2Slope(intersectJ: f32, focusJ: f32, invFocusJ: f32, limitJMax: f32, invGain: f32) -> f32 {
  let scaler = select(limitJMax - intersectJ, intersectJ, intersectJ < focusJ);
  return scaler * (intersectJ - focusJ) * invFocusJ * invGain;
}
fn aces2LineM(jAxis: f32, slope: f32, invGamma: f32, jMax: f32, mMax: f32, jRef: f32) -> f32 {
  let shifted = jRef * aces2Pow(jAxis / jRef, invGamma);
  return shifted * mMax / (jMax - slope * mMax);
}
fn aces2Smin(a: f32, b: f32, scaleRef: f32) -> f32 {
  let s = 0.12 * scaleRef;
  let h = max(s - abs(a - b), 0.0) / s;
  return min(a, b) - h * h * h * s * (1.0 / 6.0);
}
fn aces2RemapMInv(M: f32, gamutM: f32, reachM: f32) -> f32 {
  let proportion = max(gamutM / reachM, 0.75);
  let threshold = proportion * gamutM;
  if (M <= threshold || proportion >= 1.0) { return M; }
  let scale = (reachM - threshold) / ((reachM - threshold) / (gamutM - threshold) - 1.0);
  let nd = (M - threshold) / scale;
  return threshold + select(scale * -(nd / (nd - 1.0)), scale, nd >= 1.0);
}
// the inverse's gamut compression step (the forward is aces2GamutFwd)
fn aces2CompressGamutInv(jmh: vec3f, Jx: f32, reachM: f32, hg: Aces2Hue, p: Aces2Params) -> vec3f {
  let invGain = 1.0 / aces2FocusGain(Jx, hg.threshold, p);
  let invFocusJ = 1.0 / hg.focusJ;
  let jSource = aces2SolveJ(jmh.x, jmh.y, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let slope = aces2Slope(jSource, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let jCusp = aces2SolveJ(hg.cuspJ, hg.cuspM, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let lower = aces2LineM(jSource, slope, p.lowerHullGammaInv, hg.cuspJ, hg.cuspM, jCusp);
  let upper = aces2LineM(p.limitJMax - jSource, -slope, hg.gammaTopInv, p.limitJMax - hg.cuspJ, hg.cuspM, p.limitJMax - jCusp);
  let gamutM = aces2Smin(lower, upper, hg.cuspM);
  if (gamutM <= 0.0) { return vec3f(jmh.x, 0.0, jmh.z); }
  // the remap leaves M up to at least 0.75 of the gamut's M as it is: no need of the reach boundary there
  var remapped = jmh.y;
  if (jmh.y > 0.75 * gamutM) {
    let reachBoundary = aces2LineM(jSource, slope, p.modelGammaInv, p.limitJMax, reachM, p.limitJMax);
    remapped = aces2RemapMInv(jmh.y, gamutM, reachBoundary);
  }
  return vec3f(jSource + remapped * slope, remapped, jmh.z);
}
// the hue's cusp is looked up by the caller, early: its loads' latency then hides behind the tone and chroma work
fn aces2GamutCompressInv(jmh: vec3f, reachM: f32, hg: Aces2Hue, p: Aces2Params) -> vec3f {
  if (jmh.x <= 0.0) { return vec3f(0.0, 0.0, jmh.z); }
  if (jmh.y <= 0.0 || jmh.x > p.limitJMax) { return vec3f(jmh.x, 0.0, jmh.z); }
  var Jx = jmh.x;
  if (Jx > hg.threshold) { Jx = aces2CompressGamutInv(jmh, Jx, reachM, hg, p).x; }
  return aces2CompressGamutInv(jmh, Jx, reachM, hg, p);
}

fn aces2FromJMh(jmh: vec3f, cosH: f32, sinH: f32, cam: Aces2Cam) -> vec3f {
  return aces2AabToRgb(vec3f(aces2JToA(jmh.x, cam), jmh.y * cosH, jmh.y * sinH), cam);
}

fn aces2OutputInverse(rgb: vec3f, p: Aces2Params) -> vec3f {
  let compressed = aces2AabToJMh(aces2RgbToAab(rgb, p.outCam), p.outCam);
  let reachM = aces2ReachM(compressed.z, p);
  let hr = ACES2_PI * compressed.z / 180.0;
  let cosH = cos(hr);
  let sinH = sin(hr);
  let mNorm = aces2ChromaNorm(cosH, sinH, p.scale);
  let toned = aces2GamutCompressInv(compressed, reachM, aces2HueGamut(compressed.z, p), p);
  let J = aces2ToneJInv(toned.x, p);
  let M = aces2ChromaInv(toned.y, toned.x, J, mNorm, reachM, p);
  return aces2FromJMh(vec3f(J, M, toned.z), cosH, sinH, p.inCam);
}
${ACES2_FORWARD_WGSL}`;
