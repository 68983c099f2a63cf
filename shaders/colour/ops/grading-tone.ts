// GradingToneTransform: midtones, highlights, whites, shadows, blacks then S-contrast curves, in float32 steps as OCIO's CPU renderer.

import { prepareTone, type Knots, type PreparedTone } from './grading-tone-prepare.js';
import type { GradingToneOp } from './op.js';
import { sseLinToLog, sseLogToLin } from './grading-sse-math.js';

const f = Math.fround;
const sqrt = (v: number): number => f(Math.sqrt(v));
const MASTER = 3;

/** A quadratic piece from (xa, ya) with slope ma to slope mb at xb, as OCIO writes it. */
const piece = (t: number, xa: number, xb: number, ya: number, ma: number, mb: number): number => {
  const u = f(f(t - xa) / f(xb - xa));
  return f(f(f(u * f(xb - xa)) * f(f(f(u * 0.5) * f(mb - ma)) + ma)) + ya);
};

/** The inverse of `piece` on its own span. */
const pieceInverse = (t: number, xa: number, xb: number, ya: number, ma: number, mb: number): number => {
  const c = f(ya - t);
  const b = f(ma * f(xb - xa));
  const a = f(f(0.5 * f(mb - ma)) * f(xb - xa));
  const discrim = sqrt(f(f(b * b) - f(f(4 * a) * c)));
  return f(f(f(f(2 * c) / f(-discrim - b)) * f(xb - xa)) + xa);
};

const line = (t: number, x: number, y: number, m: number): number => f(y + f(f(t - x) * m));
const lineInverse = (t: number, x: number, y: number, m: number): number => f(x + f(f(t - y) / m));

function midsForward(k: Knots, t: number, master: boolean): number {
  const { x, y, m } = k;
  const seg = (i: number): number => piece(t, x[i]!, x[i + 1]!, y[i]!, m[i]!, m[i + 1]!);
  let res = t < x[1]! ? seg(0) : seg(1);
  // the per-channel and master code of OCIO differ where t sits on a knot
  if (master ? !(t < x[2]!) : t > x[2]!) res = seg(2);
  if (master ? !(t < x[3]!) : t > x[3]!) res = seg(3);
  if (master ? !(t < x[4]!) : t > x[4]!) res = seg(4);
  if (t < x[0]!) res = line(t, x[0]!, y[0]!, m[0]!);
  if (master ? !(t < x[5]!) : t > x[5]!) res = line(t, x[5]!, y[5]!, m[5]!);
  return res;
}

function midsInverse(k: Knots, t: number, master: boolean): number {
  const { x, y, m } = k;
  const seg = (i: number): number => pieceInverse(t, x[i]!, x[i + 1]!, y[i]!, m[i]!, m[i + 1]!);
  if (!master) {
    // OCIO's per-channel code extrapolates the top end with the bottom end's line
    if (t >= y[5]!) return lineInverse(t, x[0]!, y[0]!, m[0]!);
    for (let i = 4; i >= 0; i--) if (t >= y[i]!) return seg(i);
    return lineInverse(t, x[0]!, y[0]!, m[0]!);
  }
  let res = t < y[1]! ? seg(0) : seg(1);
  for (let i = 2; i < 5; i++) if (!(t < y[i]!)) res = seg(i);
  if (t < y[0]!) res = lineInverse(t, x[0]!, y[0]!, m[0]!);
  if (!(t < y[5]!)) res = lineInverse(t, x[5]!, y[5]!, m[5]!);
  return res;
}

function fauxCubic(k: Knots, t: number): number {
  const [x0, x1, x2] = k.x as [number, number, number];
  const [y0, y1, y2] = k.y as [number, number, number];
  const [m0, m2] = k.m as [number, number];
  const tL = f(f(t - x0) / f(x1 - x0));
  const tR = f(f(t - x1) / f(x2 - x1));
  const fL = f(f(f(y0 * f(1 - f(tL * tL))) + f(f(y1 * tL) * tL)) + f(f(f(m0 * f(1 - tL)) * tL) * f(x1 - x0)));
  const fR = f(f(f(f(y1 * f(1 - tR)) * f(1 - tR)) + f(f(y2 * f(2 - tR)) * tR)) + f(f(f(m2 * f(tR - 1)) * tR) * f(x2 - x1)));
  let res = t < x1 ? fL : fR;
  res = t < x0 ? f(f(f(t - x0) * m0) + y0) : res;
  return t < x2 ? res : f(f(f(t - x2) * m2) + y2);
}

function fauxCubicInverse(k: Knots, t: number): number {
  const [x0, x1, x2] = k.x as [number, number, number];
  const [y0, y1, y2] = k.y as [number, number, number];
  const [m0, m2] = k.m as [number, number];
  const bL = f(m0 * f(x1 - x0));
  const aL = f(f(y1 - y0) - f(m0 * f(x1 - x0)));
  const cL = f(y0 - t);
  const outL = f(f(f(f(-2 * cL) / f(sqrt(f(f(bL * bL) - f(f(4 * aL) * cL))) + bL)) * f(x1 - x0)) + x0);
  const bR = f(f(f(2 * y2) - f(2 * y1)) - f(m2 * f(x2 - x1)));
  const aR = f(f(y1 - y2) + f(m2 * f(x2 - x1)));
  const cR = f(y1 - t);
  const outR = f(f(f(f(-2 * cR) / f(sqrt(f(f(bR * bR) - f(f(4 * aR) * cR))) + bR)) * f(x2 - x1)) + x1);
  let res = t < y1 ? outL : outR;
  res = t < y0 ? f(f(f(t - y0) / m0) + x0) : res;
  return t < y2 ? res : f(f(f(t - y2) / m2) + x2);
}

/** Whites or blacks: the quadratic that bends the zone, or its inverse, as OCIO's ComputeWBFwd / ComputeWBRev. */
function whiteBlack(k: Knots & { gain: number }, value: number, isBlack: boolean, t: number, inverse: boolean): number {
  const test = isBlack ? f(2 - value) : value;
  const [x0, x1] = k.x as [number, number];
  const [y0, y1] = k.y as [number, number];
  const [m0, m1] = k.m as [number, number];
  const gain = k.gain;
  const a = f(f(0.5 * f(m1 - m0)) * f(x1 - x0));
  const b = f(m0 * f(x1 - x0));
  const solve = (v: number): number => {
    const c = f(y0 - v);
    return f(f(f(f(-2 * c) / f(sqrt(f(f(b * b) - f(f(4 * a) * c))) + b)) * f(x1 - x0)) + x0);
  };
  if (test < 1) {
    if (!inverse) {
      let res = piece(t, x0, x1, y0, m0, m1);
      res = t < x0 ? line(t, x0, y0, m0) : res;
      return t < x1 ? res : line(t, x1, y1, m1);
    }
    let res = solve(t);
    res = t < y0 ? lineInverse(t, x0, y0, m0) : res;
    return t < y1 ? res : lineInverse(t, x1, y1, m1);
  }
  if (!(test > 1)) return t;
  const anchor = isBlack ? x1 : x0;
  let v = f(f(f(t - anchor) * gain) + anchor);
  let res: number;
  if (!inverse) {
    res = solve(v);
    res = v < y0 ? lineInverse(v, x0, y0, m0) : res;
  } else {
    res = piece(v, x0, x1, y0, m0, m1);
    res = v < x0 ? line(v, x0, y0, m0) : res;
  }
  if (isBlack) {
    res = inverse ? (v < x1 ? res : line(v, x1, y1, m1)) : v < y1 ? res : lineInverse(v, x1, y1, m1);
    return f(f(f(res - x1) / gain) + x1);
  }
  res = f(f(f(res - x0) / gain) + x0);
  // OCIO's quadratic extrapolation above the whites zone, for HDR values
  const newY1 = f(f(f(x1 - x0) / gain) + x0);
  const xd = f(x0 + f(f(x1 - x0) * f(0.99)));
  const md = f(1 / f(m0 + f(f(f(xd - x0) * f(m1 - m0)) / f(x1 - x0))));
  const aa = f(f(0.5 * f(f(1 / m1) - md)) / f(x1 - xd));
  const bb = f(f(1 / m1) - f(f(2 * aa) * x1));
  const cc = f(f(newY1 - f(bb * x1)) - f(f(aa * x1) * x1));
  v = f(f(f(v - x0) / gain) + x0);
  if (!inverse) return v < x1 ? res : f(f(f(f(aa * v) + bb) * v) + cc);
  const c = f(cc - v);
  const beyond = f(f(-2 * c) / f(sqrt(f(f(bb * bb) - f(f(4 * aa) * c))) + bb));
  const brk = f(f(f(f(aa * x1) + bb) * x1) + cc);
  return v < brk ? res : beyond;
}

function sContrast(p: NonNullable<PreparedTone['sContrast']>, pivot: number, t: number, inverse: boolean): number {
  const { top, bottom, contrast } = p;
  let out = inverse ? f(f(f(t - pivot) / contrast) + pivot) : f(f(f(t - pivot) * contrast) + pivot);
  const [tx1, tx2] = [top.x[1]!, top.x[2]!];
  const [ty1, ty2] = [top.y[1]!, top.y[2]!];
  const [bx1, bx2] = [bottom.x[1]!, bottom.x[2]!];
  const [by1, by2] = [bottom.y[1]!, bottom.y[2]!];
  const solve = (k: Knots, x1: number, x2: number, y1: number): number => {
    const b = f(k.m[0]! * f(x2 - x1));
    const a = f(f(f(k.m[1]! - k.m[0]!) * 0.5) * f(x2 - x1));
    const c = f(y1 - t);
    return f(f(f(f(x2 - x1) * f(-2 * c)) / f(sqrt(f(f(b * b) - f(f(4 * a) * c))) + b)) + x1);
  };
  if (!inverse) {
    out = t < tx1 ? out : piece(t, tx1, tx2, ty1, top.m[0]!, top.m[1]!);
    out = t < tx2 ? out : line(t, tx2, ty2, top.m[1]!);
    out = t < bx2 ? piece(t, bx1, bx2, by1, bottom.m[0]!, bottom.m[1]!) : out;
    return t < bx1 ? line(t, bx1, by1, bottom.m[0]!) : out;
  }
  out = t < ty1 ? out : solve(top, tx1, tx2, ty1);
  out = t < ty2 ? out : lineInverse(t, tx2, ty2, top.m[1]!);
  out = t < by2 ? solve(bottom, bx1, bx2, by1) : out;
  return t < by1 ? lineInverse(t, bx1, by1, bottom.m[0]!) : out;
}

const cache = new WeakMap<GradingToneOp, PreparedTone>();

/** OCIO clamps the result below half-float's largest value (std::min: a NaN passes). */
const clampHalfMax = (v: number): number => (65504 < v ? 65504 : v);

export function applyGradingTone(op: GradingToneOp, rgba: Float32Array): void {
  let p = cache.get(op);
  if (!p) cache.set(op, (p = prepareTone(op)));
  if (p.bypass) return;
  const prepared = p;
  const inverse = op.direction === 'inverse';
  const linear = op.style === 'linear';
  const px = [0, 0, 0];
  // each zone runs per channel (R, G, B: that channel's gain) then on all three with the master gain
  const zone = (channel: number, fn: (t: number, master: boolean) => number): void => {
    if (channel !== MASTER) px[channel] = fn(px[channel]!, false);
    else for (let c = 0; c < 3; c++) px[c] = fn(px[c]!, true);
  };
  const mids = (ch: number): void => {
    const k = prepared.mids[ch];
    if (k) zone(ch, (t, master) => (inverse ? midsInverse(k, t, master) : midsForward(k, t, master)));
  };
  const highlightShadow = (ch: number, isShadow: boolean): void => {
    let value = f((isShadow ? op.shadows : op.highlights).rgbm[ch]!);
    if (!isShadow) value = f(2 - value);
    if (value === 1) return;
    const k = (isShadow ? prepared.shadows : prepared.highlights)[ch]!;
    const forwardCurve = value < 1 !== inverse;
    zone(ch, (t) => (forwardCurve ? fauxCubic(k, t) : fauxCubicInverse(k, t)));
  };
  const whitesBlacks = (ch: number, isBlack: boolean): void => {
    const value = f((isBlack ? op.blacks : op.whites).rgbm[ch]!);
    const k = (isBlack ? prepared.blacks : prepared.whites)[ch]!;
    zone(ch, (t) => whiteBlack(k, value, isBlack, t, inverse));
  };
  const order = inverse ? [MASTER, 0, 1, 2] : [0, 1, 2, MASTER];
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) px[c] = linear ? sseLinToLog(rgba[i + c]!) : rgba[i + c]!;
    if (!inverse) {
      for (const ch of order) mids(ch);
      for (const ch of order) highlightShadow(ch, false);
      for (const ch of order) whitesBlacks(ch, false);
      for (const ch of order) highlightShadow(ch, true);
      for (const ch of order) whitesBlacks(ch, true);
      if (prepared.sContrast) for (let c = 0; c < 3; c++) px[c] = sContrast(prepared.sContrast, prepared.pivot, px[c]!, false);
    } else {
      if (prepared.sContrast) for (let c = 0; c < 3; c++) px[c] = sContrast(prepared.sContrast, prepared.pivot, px[c]!, true);
      for (const ch of order) whitesBlacks(ch, true);
      for (const ch of order) highlightShadow(ch, true);
      for (const ch of order) whitesBlacks(ch, false);
      for (const ch of order) highlightShadow(ch, false);
      for (const ch of order) mids(ch);
    }
    for (let c = 0; c < 3; c++) rgba[i + c] = clampHalfMax(linear ? sseLogToLin(px[c]!) : px[c]!);
  }
}
