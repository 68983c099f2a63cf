// ACES 2.0's output transform stages: tonescale, chroma compression and gamut compression in JMh, with their inverses.

import {
  absJToY,
  absYToJ,
  aToY,
  copySign,
  jmhToRgb,
  lerpF,
  modelGamma,
  REFERENCE_LUMINANCE,
  stdMax,
  stdMin,
  yToJ,
  type JMhParams,
} from './cam.js';
import {
  cuspTables,
  hueSearchRange,
  lookupHueInterval,
  reachMFromTable,
  reachMTable,
  TABLE_FIRST,
  TABLE_LAST,
  TABLE_UPPER_WRAP,
  type CuspTables,
} from './tables.js';

const f = Math.fround;

export interface ToneScale {
  n: number;
  nR: number;
  g: number;
  t1: number;
  cT: number;
  s2: number;
  u2: number;
  m2: number;
  forwardLimit: number;
  inverseLimit: number;
  logPeak: number;
}

/** The tonescale's constants for a peak luminance, in float32 steps as OCIO's init_ToneScaleParams. */
export function toneScaleParams(peak: number): ToneScale {
  const n = f(peak),
    nR = 100,
    g = f(1.15),
    c = f(0.18),
    cD = f(10.013),
    wG = f(0.14),
    t1 = f(0.04);
  const rHit = f(128 + f(f(896 - 128) * f(f(Math.log(f(n / nR))) / f(Math.log(f(10000 / 100))))));
  const m0 = f(n / nR);
  const m1 = f(f(0.5) * f(m0 + f(Math.sqrt(f(m0 * f(m0 + f(4 * t1)))))));
  const rOverM1 = f(rHit / m1);
  const u = f(Math.pow(f(rOverM1 / f(rOverM1 + 1)), g));
  const m = f(m1 / u);
  const wI = f(f(Math.log(f(n / 100))) / f(Math.log(2)));
  const cT = f(f(cD / nR) * f(1 + f(wI * wG)));
  const gIp = f(f(0.5) * f(cT + f(Math.sqrt(f(cT * f(cT + f(4 * t1)))))));
  const ratio = f(Math.pow(f(gIp / m), f(1 / g)));
  const gIpp2 = f(-f(m1 * ratio) / f(ratio - 1));
  const w2 = f(c / gIpp2);
  const s2 = f(f(w2 * m1) * REFERENCE_LUMINANCE);
  const u2 = f(Math.pow(f(rOverM1 / f(rOverM1 + w2)), g));
  const m2 = f(m1 / u2);
  return {
    n,
    nR,
    g,
    t1,
    cT,
    s2,
    u2,
    m2,
    forwardLimit: f(8 * rHit),
    inverseLimit: f(n / f(u2 * nR)),
    logPeak: f(Math.log10(f(n / nR))),
  };
}

function acesToneScale(Y: number, t: ToneScale, inverse: boolean): number {
  if (inverse) {
    const z = stdMax(0, stdMin(t.inverseLimit, f(Y / REFERENCE_LUMINANCE)));
    const fv = f(f(z + f(Math.sqrt(f(z * f(f(4 * t.t1) + z))))) / 2);
    return f(t.s2 / f(f(Math.pow(f(t.m2 / fv), f(1 / t.g))) - 1));
  }
  const fv = f(t.m2 * f(Math.pow(f(Y / f(Y + t.s2)), t.g)));
  return f(stdMax(0, f(f(fv * fv) / f(fv + t.t1))) * t.nR);
}

export function toneScaleJ(J: number, p: JMhParams, t: ToneScale, inverse: boolean): number {
  return copySign(absYToJ(acesToneScale(absJToY(Math.abs(J), p), t, inverse), p), J);
}

export function toneScaleAToJ(A: number, p: JMhParams, t: ToneScale): number {
  return copySign(absYToJ(acesToneScale(aToY(A, p), t, false), p), A);
}

export interface Shared {
  limitJMax: number;
  modelGammaInv: number;
  reachM: Float32Array;
}

export interface Chroma {
  sat: number;
  satThr: number;
  compr: number;
  scale: number;
}

export function chromaParams(peak: number, t: ToneScale): Chroma {
  return {
    compr: f(f(2.4) + f(f(f(2.4) * f(3.3)) * t.logPeak)),
    sat: stdMax(f(0.2), f(f(1.3) - f(f(f(1.3) * f(0.69)) * t.logPeak))),
    satThr: f(f(0.5) / t.n),
    scale: f(f(Math.pow(f(f(0.03379) * f(peak)), f(0.30596))) - f(0.45135)),
  };
}

export function sharedParams(peak: number, input: JMhParams, reach: JMhParams): Shared {
  const limitJMax = yToJ(f(peak), input);
  return { limitJMax, modelGammaInv: f(1 / f(modelGamma())), reachM: reachMTable(reach, limitJMax) };
}

export function chromaCompressNorm(cosH: number, sinH: number, scale: number): number {
  const cos2 = f(f(f(2 * cosH) * cosH) - 1);
  const sin2 = f(f(2 * cosH) * sinH);
  const cos3 = f(f(f(f(4 * cosH) * cosH) * cosH) - f(3 * cosH));
  const sin3 = f(f(3 * sinH) - f(f(f(4 * sinH) * sinH) * sinH));
  const terms = [
    [11.34072, cosH],
    [16.46899, cos2],
    [7.8838, cos3],
    [14.66441, sinH],
    [-6.37224, sin2],
    [9.19364, sin3],
  ];
  let M = 0;
  for (const [w, v] of terms) M = f(M + f(f(w!) * v!));
  return f(f(M + f(77.12896)) * scale);
}

function toeFwd(x: number, limit: number, k1In: number, k2In: number): number {
  if (x > limit) return x;
  const k2 = stdMax(k2In, f(0.001));
  const k1 = f(Math.sqrt(f(f(k1In * k1In) + f(k2 * k2))));
  const k3 = f(f(limit + k1) / f(limit + k2));
  const minusB = f(f(k3 * x) - k1);
  const minusAc = f(f(k2 * k3) * x);
  return f(0.5 * f(minusB + f(Math.sqrt(f(f(minusB * minusB) + f(4 * minusAc))))));
}

function toeInv(x: number, limit: number, k1In: number, k2In: number): number {
  if (x > limit) return x;
  const k2 = stdMax(k2In, f(0.001));
  const k1 = f(Math.sqrt(f(f(k1In * k1In) + f(k2 * k2))));
  const k3 = f(f(limit + k1) / f(limit + k2));
  return f(f(f(x * x) + f(k1 * x)) / f(k3 * f(x + k2)));
}

export function chromaCompressFwd(jmh: number[], Jts: number, mNorm: number, s: Shared, reachM: number, c: Chroma): number[] {
  const [J, M, h] = jmh as [number, number, number];
  let Mcp = M;
  if (M !== 0) {
    const nJ = f(Jts / s.limitJMax);
    const snJ = stdMax(0, f(1 - nJ));
    const limit = f(f(f(Math.pow(nJ, s.modelGammaInv)) * reachM) / mNorm);
    Mcp = f(M * f(Math.pow(f(Jts / J), s.modelGammaInv)));
    Mcp = f(Mcp / mNorm);
    Mcp = f(limit - toeFwd(f(limit - Mcp), f(limit - f(0.001)), f(snJ * c.sat), f(Math.sqrt(f(f(nJ * nJ) + c.satThr)))));
    Mcp = toeFwd(Mcp, limit, f(nJ * c.compr), snJ);
    Mcp = f(Mcp * mNorm);
  }
  return [Jts, Mcp, h];
}

export function chromaCompressInv(jmh: number[], J: number, mNorm: number, s: Shared, reachM: number, c: Chroma): number[] {
  const [Jts, Mcp, h] = jmh as [number, number, number];
  let M = Mcp;
  if (Mcp !== 0) {
    const nJ = f(Jts / s.limitJMax);
    const snJ = stdMax(0, f(1 - nJ));
    const limit = f(f(f(Math.pow(nJ, s.modelGammaInv)) * reachM) / mNorm);
    M = f(Mcp / mNorm);
    M = toeInv(M, limit, f(nJ * c.compr), snJ);
    M = f(limit - toeInv(f(limit - M), f(limit - f(0.001)), f(snJ * c.sat), f(Math.sqrt(f(f(nJ * nJ) + c.satThr)))));
    M = f(M * mNorm);
    M = f(M * f(Math.pow(f(Jts / J), -s.modelGammaInv)));
  }
  return [J, M, h];
}

export interface Gamut extends CuspTables {
  midJ: number;
  focusDist: number;
  lowerHullGammaInv: number;
  searchRange: [number, number];
}

interface HueGamut {
  gammaBottomInv: number;
  cuspJ: number;
  cuspM: number;
  gammaTopInv: number;
  focusJ: number;
  analyticalThreshold: number;
}

function focusGain(J: number, threshold: number, limitJMax: number, focusDist: number): number {
  let gain = f(limitJMax * focusDist);
  if (J > threshold) {
    let adjust = f(Math.log10(f(f(limitJMax - threshold) / stdMax(f(0.0001), f(limitJMax - J)))));
    adjust = f(f(adjust * adjust) + 1);
    gain = f(gain * adjust);
  }
  return gain;
}

function solveJIntersect(J: number, M: number, focusJ: number, maxJ: number, slopeGain: number): number {
  const mScaled = f(M / slopeGain);
  const a = f(mScaled / focusJ);
  if (J < focusJ) {
    const b = f(1 - mScaled);
    const c = -J;
    const root = f(Math.sqrt(f(f(b * b) - f(f(4 * a) * c))));
    return f(f(-2 * c) / f(b + root));
  }
  const b = -f(f(1 + mScaled) + f(maxJ * a));
  const c = f(f(maxJ * mScaled) + J);
  const root = f(Math.sqrt(f(f(b * b) - f(f(4 * a) * c))));
  return f(f(-2 * c) / f(b - root));
}

function sminScaled(a: number, b: number, scaleRef: number): number {
  const s = f(f(0.12) * scaleRef);
  const h = f(stdMax(f(s - Math.abs(f(a - b))), 0) / s);
  return f(stdMin(a, b) - f(f(f(f(h * h) * h) * s) * f(1 / 6)));
}

function compressionSlope(intersectJ: number, focusJ: number, limitJMax: number, slopeGain: number): number {
  const scaler = intersectJ < focusJ ? intersectJ : f(limitJMax - intersectJ);
  return f(f(scaler * f(intersectJ - focusJ)) / f(focusJ * slopeGain));
}

function lineBoundaryM(jAxis: number, slope: number, invGamma: number, jMax: number, mMax: number, jRef: number): number {
  const shifted = f(jRef * f(Math.pow(f(jAxis / jRef), invGamma)));
  return f(f(shifted * mMax) / f(jMax - f(slope * mMax)));
}

function boundaryIntersection(
  cuspJ: number,
  cuspM: number,
  jMax: number,
  topInv: number,
  bottomInv: number,
  jSource: number,
  slope: number,
  jCusp: number,
): number {
  const lower = lineBoundaryM(jSource, slope, bottomInv, cuspJ, cuspM, jCusp);
  const upper = lineBoundaryM(f(jMax - jSource), -slope, topInv, f(jMax - cuspJ), cuspM, f(jMax - jCusp));
  return sminScaled(lower, upper, cuspM);
}

function remapM(M: number, gamutM: number, reachM: number, invert: boolean): number {
  const proportion = stdMax(f(gamutM / reachM), f(0.75));
  const threshold = f(proportion * gamutM);
  if (M <= threshold || proportion >= 1) return M;
  const mOffset = f(M - threshold);
  const gamutOffset = f(gamutM - threshold);
  const reachOffset = f(reachM - threshold);
  const scale = f(reachOffset / f(f(reachOffset / gamutOffset) - 1));
  const nd = f(mOffset / scale);
  if (!invert) return f(threshold + f(f(scale * nd) / f(1 + nd)));
  return f(threshold + (nd >= 1 ? scale : f(scale * -f(nd / f(nd - 1)))));
}

function compressGamut(jmh: number[], Jx: number, s: Shared, reachM: number, g: Gamut, hg: HueGamut, invert: boolean): number[] {
  const [J, M, h] = jmh as [number, number, number];
  const slopeGain = focusGain(Jx, hg.analyticalThreshold, s.limitJMax, g.focusDist);
  const jSource = solveJIntersect(J, M, hg.focusJ, s.limitJMax, slopeGain);
  const slope = compressionSlope(jSource, hg.focusJ, s.limitJMax, slopeGain);
  const jCusp = solveJIntersect(hg.cuspJ, hg.cuspM, hg.focusJ, s.limitJMax, slopeGain);
  const gamutM = boundaryIntersection(hg.cuspJ, hg.cuspM, s.limitJMax, hg.gammaTopInv, hg.gammaBottomInv, jSource, slope, jCusp);
  if (gamutM <= 0) return [J, 0, h];
  const reachBoundary = lineBoundaryM(jSource, slope, s.modelGammaInv, s.limitJMax, reachM, s.limitJMax);
  const remapped = remapM(M, gamutM, reachBoundary, invert);
  return [f(jSource + f(remapped * slope)), remapped, h];
}

const focusJOf = (cuspJ: number, midJ: number, limitJMax: number): number =>
  lerpF(cuspJ, midJ, stdMin(1, f(f(1.3) - f(cuspJ / limitJMax))));

function hueGamut(h: number, s: Shared, g: Gamut): HueGamut {
  const hi = lookupHueInterval(h, g.hues, g.searchRange);
  const t = f(f(h - g.hues[hi - 1]!) / f(g.hues[hi]! - g.hues[hi - 1]!));
  const at = (k: number): number => lerpF(g.cusp[(hi - 1) * 3 + k]!, g.cusp[hi * 3 + k]!, t);
  const cuspJ = at(0),
    cuspM = at(1);
  return {
    gammaBottomInv: g.lowerHullGammaInv,
    cuspJ,
    cuspM,
    gammaTopInv: at(2),
    focusJ: focusJOf(cuspJ, g.midJ, s.limitJMax),
    analyticalThreshold: lerpF(cuspJ, s.limitJMax, f(0.3)),
  };
}

export function gamutCompress(jmh: number[], s: Shared, reachM: number, g: Gamut, inverse: boolean): number[] {
  const [J, M, h] = jmh as [number, number, number];
  if (J <= 0) return [0, 0, h];
  if (M <= 0 || J > s.limitJMax) return [J, 0, h];
  const hg = hueGamut(h, s, g);
  if (!inverse) return compressGamut(jmh, J, s, reachM, g, hg, false);
  let Jx = J;
  if (Jx > hg.analyticalThreshold) Jx = compressGamut(jmh, Jx, s, reachM, g, hg, true)[0]!;
  return compressGamut(jmh, Jx, s, reachM, g, hg, true);
}

export const reachMAt = (h: number, s: Shared): number => reachMFromTable(h, s.reachM);

/** Fits each hue's upper hull exponent so that the approximate boundary stays just outside the display gamut. */
function fitUpperHull(g: Gamut, peak: number, limitJMax: number, limit: JMhParams): void {
  const positions = [0.01, 0.1, 0.5, 0.8, 0.99];
  const luminanceLimit = f(f(peak) / REFERENCE_LUMINANCE);
  for (let i = TABLE_FIRST; i < TABLE_UPPER_WRAP; i++) {
    const hue = g.hues[i]!;
    const cuspJ = g.cusp[i * 3]!,
      cuspM = g.cusp[i * 3 + 1]!;
    const threshold = lerpF(cuspJ, limitJMax, f(0.3));
    const focusJ = focusJOf(cuspJ, g.midJ, limitJMax);
    const tests = positions.map((pos) => {
      const testJ = lerpF(cuspJ, limitJMax, f(pos));
      const gain = focusGain(testJ, threshold, limitJMax, g.focusDist);
      const jSource = solveJIntersect(testJ, cuspM, focusJ, limitJMax, gain);
      return {
        jSource,
        slope: compressionSlope(jSource, focusJ, limitJMax, gain),
        jCusp: solveJIntersect(cuspJ, cuspM, focusJ, limitJMax, gain),
      };
    });
    const fits = (gamma: number): boolean =>
      tests.every((t) => {
        const m = boundaryIntersection(cuspJ, cuspM, limitJMax, f(1 / gamma), g.lowerHullGammaInv, t.jSource, t.slope, t.jCusp);
        const rgb = jmhToRgb([f(t.jSource + f(t.slope * m)), m, hue], limit);
        return rgb.some((v) => v > luminanceLimit);
      });
    // the search in float32 steps as OCIO's make_upper_hull_gamma: 0.4 and 1e-5 are its float constants
    const step = f(0.4);
    let low = 0,
      high = step,
      found = false;
    while (!found && high < 5) {
      if (fits(high)) found = true;
      else {
        low = high;
        high = f(high + step);
      }
    }
    while (f(high - low) > f(1e-5)) {
      const test = f(f(high + low) / 2);
      if (fits(test)) high = test;
      else low = test;
    }
    g.cusp[i * 3 + 2] = f(1 / high);
  }
  g.cusp[2] = g.cusp[TABLE_LAST * 3 + 2]!;
  g.cusp[TABLE_UPPER_WRAP * 3 + 2] = g.cusp[TABLE_FIRST * 3 + 2]!;
  g.cusp[(TABLE_UPPER_WRAP + 1) * 3 + 2] = g.cusp[(TABLE_FIRST + 1) * 3 + 2]!;
}

export function gamutParams(peak: number, input: JMhParams, limit: JMhParams, t: ToneScale, s: Shared, reach: JMhParams): Gamut {
  const tables = cuspTables(reach, limit, peak, t.forwardLimit, s.limitJMax);
  const g: Gamut = {
    ...tables,
    midJ: yToJ(f(t.cT * REFERENCE_LUMINANCE), input),
    focusDist: f(f(1.35) + f(f(f(1.35) * f(1.75)) * t.logPeak)),
    lowerHullGammaInv: f(1 / f(f(1.14) + f(f(0.07) * t.logPeak))),
    searchRange: hueSearchRange(tables.cusp),
  };
  fitUpperHull(g, peak, s.limitJMax, limit);
  return g;
}
