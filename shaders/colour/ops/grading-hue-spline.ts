// OCIO's B-splines for GradingHueCurve: periodic (hue) and horizontal curves fitted as its computeKnotsAndCoefsForHueCurve.

import { shareCollinearLengths, type BSplineCurve, type FittedCurve } from './grading-bspline.js';

const f = Math.fround;
const stdMax = (a: number, b: number): number => (a < b ? b : a);
const stdMin = (a: number, b: number): number => (b < a ? b : a);

/** OCIO's BSplineType of each hue curve: diagonal (y follows x), hue-hue, periodic at 1 or 0, horizontal at 1. */
export type HueSplineKind = 'diagonal' | 'hueHue' | 'periodic1' | 'periodic0' | 'horizontal1';

const isPeriodic = (kind: HueSplineKind): boolean => kind === 'hueHue' || kind === 'periodic1' || kind === 'periodic0';

export function isIdentityHueCurve(curve: BSplineCurve, kind: HueSplineKind): boolean {
  const slopesDefault = (curve.slopes ?? []).every((s) => f(s) === 0);
  const points = curve.points.map(f);
  for (let i = 0; i < points.length; i += 2) {
    const [x, y] = [points[i]!, points[i + 1]!];
    const identity = kind === 'diagonal' || kind === 'hueHue' ? x === y : kind === 'periodic0' ? y === 0 : y === 1;
    if (!identity) return false;
  }
  return slopesDefault;
}

interface Point {
  x: number;
  y: number;
}

/** Wraps periodic points into [0, 1), sorts them, spaces them apart, and copies one across each end for periodic kinds. */
function prepare(curve: BSplineCurve, periodic: boolean, horizontal: boolean): Point[] {
  const pts: Point[] = [];
  for (let i = 0; i < curve.points.length; i += 2) {
    const x = f(curve.points[i]!),
      y = f(curve.points[i + 1]!);
    if (periodic && x < 0) pts.push({ x: f(x + 1), y: horizontal ? y : f(y + 1) });
    else if (periodic && x >= 1) pts.push({ x: f(x - 1), y: horizontal ? y : f(y - 1) });
    else pts.push({ x, y });
  }
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    let min = i;
    for (let j = i + 1; j < n; j++) if (pts[j]!.x < pts[min]!.x) min = j;
    [pts[i], pts[min]] = [pts[min]!, pts[i]!];
  }
  const tol = f(2e-3);
  const xSpan = f(pts[n - 1]!.x - pts[0]!.x);
  for (let i = 1; i < n; i++) if (f(pts[i]!.x - pts[i - 1]!.x) < f(xSpan * tol)) pts[i]!.x = f(pts[i - 1]!.x + f(xSpan * tol));
  if (!horizontal) {
    const ySpan = f(pts[n - 1]!.y - pts[0]!.y);
    for (let i = 1; i < n; i++) if (f(pts[i]!.y - pts[i - 1]!.y) < f(ySpan * tol)) pts[i]!.y = f(pts[i - 1]!.y + f(ySpan * tol));
  }
  if (periodic) {
    const last = pts[n - 1]!;
    pts.unshift({ x: f(last.x - 1), y: horizontal ? last.y : f(last.y - 1) });
    const first = pts[1]!;
    pts.push({ x: f(first.x + 1), y: horizontal ? first.y : f(first.y + 1) });
  }
  return pts;
}

function estimateSlopes(pts: Point[], periodic: boolean, horizontal: boolean): number[] {
  const n = pts.length;
  const secantSlope: number[] = [];
  const secantLen: number[] = [];
  for (let i = 0; i < n - 1; i++) {
    const dx = f(pts[i + 1]!.x - pts[i]!.x),
      dy = f(pts[i + 1]!.y - pts[i]!.y);
    secantSlope.push(f(dy / dx));
    secantLen.push(f(Math.sqrt(f(f(dx * dx) + f(dy * dy)))));
  }
  if (n === 2) return [secantSlope[0]!, secantSlope[0]!];
  const slopes = [0];
  if (horizontal) {
    for (let i = 1; i < n - 1; i++) {
      const product = f(f(2 * secantSlope[i]!) * secantSlope[i - 1]!);
      const denom = f(secantSlope[i]! + secantSlope[i - 1]!);
      let s = Math.abs(denom) < f(1e-3) ? f(product / (denom < 0 ? f(-1e-3) : f(1e-3))) : f(product / denom);
      // flat at extrema and flat areas
      if (f(secantSlope[i]! * secantSlope[i - 1]!) <= 0) s = 0;
      slopes.push(s);
    }
    slopes.push(f(0.5 * f(f(3 * secantSlope[n - 2]!) - slopes[n - 2]!)));
    slopes[0] = f(0.5 * f(f(3 * secantSlope[0]!) - slopes[1]!));
  } else {
    shareCollinearLengths(secantSlope, secantLen);
    for (let k = 1; k < n - 1; k++) {
      const num = f(f(secantLen[k]! * secantSlope[k]!) + f(secantLen[k - 1]! * secantSlope[k - 1]!));
      slopes.push(f(num / f(secantLen[k]! + secantLen[k - 1]!)));
    }
    const minSlope = f(0.01);
    slopes.push(stdMax(minSlope, f(0.5 * f(f(3 * secantSlope[n - 2]!) - slopes[n - 2]!))));
    slopes[0] = stdMax(minSlope, f(0.5 * f(f(3 * secantSlope[0]!) - slopes[1]!)));
  }
  // slopes that would not preserve the shape are scaled down
  for (let i = 0; i < n - 1; i++) {
    const k = Math.abs(slopes[i]!) > Math.abs(slopes[i + 1]!) ? f(1 - f(0.2)) : f(0.2);
    const nearMin = f(slopes[i]! + f(k * f(slopes[i + 1]! - slopes[i]!)));
    const scale = nearMin !== 0 ? f(f(f(f(0.75) * 2) * secantSlope[i]!) / nearMin) : 1;
    if (scale < 1) {
      slopes[i] = f(scale * slopes[i]!);
      slopes[i + 1] = f(scale * slopes[i + 1]!);
    }
  }
  if (periodic) {
    slopes[0] = slopes[n - 2]!;
    slopes[n - 1] = slopes[1]!;
  }
  return slopes;
}

/** Where a segment's two quadratic pieces meet (OCIO's CalcKsi). */
function middleKnot(p0: Point, p1: Point, slope0: number, slope1: number): number {
  const k = f(0.2);
  const dx = f(p1.x - p0.x);
  let secant = f(f(p1.y - p0.y) / dx);
  let m0 = slope0,
    m1 = slope1;
  if (secant < 0) {
    m0 = -slope0;
    m1 = -slope1;
    secant = -secant;
  }
  const xMid = f(p0.x + f(0.5 * dx));
  const leftBound = f(p0.x + f(dx * k));
  const rightBound = f(p1.x - f(dx * k));
  let topBound = leftBound,
    bottomBound = rightBound,
    mMin = m0,
    mMax = m1;
  if (m0 > m1) {
    mMax = m0;
    mMin = m1;
    topBound = rightBound;
    bottomBound = leftBound;
  }
  const dm = f(mMax - mMin);
  const b = f(1 - f(0.5 * k));
  const bHigh = f(mMin + f(b * dm));
  const bLow = f(mMin + f(f(1 - b) * dm));
  const bbb = f(mMax * 4);
  const bb = f(mMax * f(1.1));
  const relDiff = f(dm / stdMax(f(0.01), mMax));
  const alpha = stdMax(0, stdMin(f(f(relDiff - f(0.05)) / f(f(0.75) - f(0.05))), 1));
  topBound = f(xMid + f(alpha * f(topBound - xMid)));
  bottomBound = f(xMid + f(alpha * f(bottomBound - xMid)));
  if (secant >= bbb) return xMid;
  if (secant > bb) return f(topBound + f(f(f(secant - bb) / f(bbb - bb)) * f(xMid - topBound)));
  if (secant >= bHigh) return topBound;
  if (secant > bLow && bHigh !== bLow) return f(bottomBound + f(f(f(secant - bLow) / f(bHigh - bLow)) * f(topBound - bottomBound)));
  return bottomBound;
}

function fit(pts: Point[], slopes: number[]): FittedCurve {
  const out: FittedCurve = { knots: [pts[0]!.x], a: [], b: [], c: [] };
  for (let i = 0; i < pts.length - 1; i++) {
    const p0 = pts[i]!,
      p1 = pts[i + 1]!;
    const dx = f(p1.x - p0.x);
    const secant = f(f(p1.y - p0.y) / dx);
    const s0 = slopes[i]!,
      s1 = slopes[i + 1]!;
    if (Math.abs(f(f(s0 + s1) - f(2 * secant))) <= f(1e-5)) {
      out.c.push(p0.y);
      out.b.push(s0);
      out.a.push(f(f(0.5 * f(s1 - s0)) / dx));
    } else {
      const ksi = middleKnot(p0, p1, s0, s1);
      const dk = f(ksi - p0.x);
      const mBar = f(f(f(2 * secant) - s1) + f(f(f(s1 - s0) * dk) / f(p1.x - p0.x)));
      const eta = f(f(mBar - s0) / dk);
      out.c.push(p0.y);
      out.b.push(s0);
      out.a.push(f(0.5 * eta));
      out.c.push(f(f(p0.y + f(s0 * dk)) + f(f(f(0.5 * eta) * dk) * dk)));
      out.b.push(mBar);
      out.a.push(f(f(0.5 * f(s1 - mBar)) / f(p1.x - ksi)));
      out.knots.push(ksi);
    }
    out.knots.push(p1.x);
  }
  return out;
}

/** The fitted curve, or null for the identity (which evaluates to the caller's identity value). */
export function fitHueCurve(curve: BSplineCurve, kind: HueSplineKind): FittedCurve | null {
  if (curve.points.length < 4 || isIdentityHueCurve(curve, kind)) return null;
  const periodic = isPeriodic(kind);
  const pts = prepare(curve, periodic, kind === 'diagonal' || kind === 'hueHue' ? false : true);
  const given = (curve.slopes ?? []).map(f);
  let slopes: number[];
  if (given.length === curve.points.length / 2 && given.some((s) => s !== 0)) {
    slopes = given;
    // OCIO pads user slopes for the wrapped points with the last slope at both ends
    if (periodic) slopes = [given[given.length - 1]!, ...given, given[given.length - 1]!];
  } else {
    slopes = estimateSlopes(pts, periodic, kind !== 'diagonal');
  }
  return fit(pts, slopes);
}

/** Inverts the hue-hue curve or, with `hueFx`, y = x + curve(x); the caller wraps the result to [0, 1). */
export function evalHueInverse(c: FittedCurve | null, y: number, hueFx: boolean): number {
  if (!c) return y;
  const n = c.knots.length;
  const last = c.a.length - 1;
  const start = c.knots[0]!,
    end = c.knots[n - 1]!;
  const startY = hueFx ? f(c.c[0]! + start) : c.c[0]!;
  const t = f(end - c.knots[n - 2]!);
  let endY = f(f(f(f(c.a[last]! * t) + c.b[last]!) * t) + c.c[last]!);
  if (hueFx) endY = f(endY + end);
  if (y < startY) y = f(y + Math.ceil(f(startY - y)));
  else if (y > endY) y = f(y - Math.ceil(f(y - endY)));
  let i = 0;
  for (; i < n - 2; i++) {
    const curveY = hueFx ? f(c.c[i + 1]! + c.knots[i + 1]!) : c.c[i + 1]!;
    if (y < curveY) break;
  }
  const a = c.a[i]!;
  const kn = c.knots[i]!;
  const b = hueFx ? f(c.b[i]! + 1) : c.b[i]!;
  const c0 = f((hueFx ? f(c.c[i]! + kn) : c.c[i]!) - y);
  const discrim = f(Math.sqrt(f(f(b * b) - f(f(4 * a) * c0))));
  const denom = f(discrim + b);
  if (Math.abs(denom) < f(1e-5)) return Math.abs(b) < f(1e-5) ? kn : f(kn + f(-c0 / b));
  return f(kn + f(f(-2 * c0) / denom));
}
