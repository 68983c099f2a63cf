// OCIO's GradingBSplineCurve for RGB curves: control points (and slopes) → a monotone quadratic spline, evaluated and inverted.

// OCIO fits and evaluates these curves in float32; rounding every step as it does keeps ACES 1.3's tone curves within 1e-6 of it.
const f = Math.fround;

/** Control points as [x0, y0, x1, y1, …]; slopes per point, all zero meaning "estimate them" as OCIO does. */
export interface BSplineCurve {
  points: number[];
  slopes?: number[];
}

/** A fitted curve: knots and, per segment, y = (A·t + B)·t + C with t = x − knot. Null for the identity. */
export interface FittedCurve {
  knots: number[];
  a: number[];
  b: number[];
  c: number[];
}

const xs = (curve: BSplineCurve): number[] => curve.points.filter((_, i) => i % 2 === 0).map(f);
const ys = (curve: BSplineCurve): number[] => curve.points.filter((_, i) => i % 2 === 1).map(f);

function isIdentityCurve(curve: BSplineCurve): boolean {
  const x = xs(curve),
    y = ys(curve);
  return x.every((v, i) => v === y[i]) && (curve.slopes ?? []).every((s) => s === 0);
}

function estimateSlopes(x: number[], y: number[]): number[] {
  const n = x.length;
  const secantSlope: number[] = [];
  const secantLen: number[] = [];
  for (let i = 0; i < n - 1; i++) {
    const dx = f(x[i + 1]! - x[i]!),
      dy = f(y[i + 1]! - y[i]!);
    secantSlope.push(f(dy / dx));
    secantLen.push(f(Math.sqrt(f(f(dx * dx) + f(dy * dy)))));
  }
  if (n === 2) return [secantSlope[0]!, secantSlope[0]!];
  shareCollinearLengths(secantSlope, secantLen);
  const slopes = [0];
  for (let k = 1; k < n - 1; k++) {
    const num = f(f(secantLen[k]! * secantSlope[k]!) + f(secantLen[k - 1]! * secantSlope[k - 1]!));
    slopes.push(f(num / f(secantLen[k]! + secantLen[k - 1]!)));
  }
  const minSlope = f(0.01);
  slopes.push(Math.max(minSlope, f(0.5 * f(f(3 * secantSlope[n - 2]!) - slopes[n - 2]!))));
  slopes[0] = Math.max(minSlope, f(0.5 * f(f(3 * secantSlope[0]!) - slopes[1]!)));
  return slopes;
}

function fit(x: number[], y: number[], slopes: number[]): FittedCurve {
  const out: FittedCurve = { knots: [x[0]!], a: [], b: [], c: [] };
  for (let i = 0; i < x.length - 1; i++) {
    const xi = x[i]!,
      xi1 = x[i + 1]!,
      yi = y[i]!,
      yi1 = y[i + 1]!;
    const dx = f(xi1 - xi);
    const secant = f(f(yi1 - yi) / dx);
    const s0 = slopes[i]!,
      s1 = slopes[i + 1]!;
    if (Math.abs(f(f(s0 + s1) - f(2 * secant))) < f(1e-6)) {
      out.c.push(yi);
      out.b.push(s0);
      out.a.push(f(f(0.5 * f(s1 - s0)) / dx));
    } else {
      // Two quadratic pieces joined at ksi, placed so that both stay monotone.
      const aa = f(s0 - secant),
        bb = f(s1 - secant);
      let ksi: number;
      if (f(aa * bb) >= 0) ksi = f(f(xi + xi1) * 0.5);
      else if (Math.abs(aa) > Math.abs(bb)) ksi = f(xi1 + f(f(aa * dx) / f(s1 - s0)));
      else ksi = f(xi + f(f(bb * dx) / f(s1 - s0)));
      const dk = f(ksi - xi);
      const sBar = f(f(f(2 * secant) - s1) + f(f(f(s1 - s0) * dk) / dx));
      const eta = f(f(sBar - s0) / dk);
      out.c.push(yi);
      out.b.push(s0);
      out.a.push(f(0.5 * eta));
      out.c.push(f(f(yi + f(s0 * dk)) + f(f(f(0.5 * eta) * dk) * dk)));
      out.b.push(sBar);
      out.a.push(f(f(0.5 * f(s1 - sBar)) / f(xi1 - ksi)));
      out.knots.push(ksi);
    }
    out.knots.push(xi1);
  }
  return out;
}

/** OCIO lowers both slopes of a segment whose middle slope would go negative; true when it did. */
function adjustSlopes(x: number[], y: number[], slopes: number[], knots: number[]): boolean {
  let adjusted = false;
  let i = 0;
  for (const ksi of knots) {
    if (x[i] === ksi) continue;
    const xi = x[i]!,
      xi1 = x[i + 1]!,
      yi = y[i]!,
      yi1 = y[i + 1]!;
    const dx = f(xi1 - xi);
    const sBar = f(f(f(f(2 * f(yi1 - yi)) - f(f(ksi - xi) * slopes[i]!)) - f(f(xi1 - ksi) * slopes[i + 1]!)) / dx);
    if (sBar < 0) {
      adjusted = true;
      const secant = f(f(yi1 - yi) / dx);
      const blend = f(f(f(f(ksi - xi) * slopes[i]!) + f(f(xi1 - ksi) * slopes[i + 1]!)) / dx);
      let aim = f(f(0.01 * 0.5) * f(slopes[i]! + slopes[i + 1]!));
      if (aim > secant) aim = secant;
      const adjust = f(f(f(2 * secant) - aim) / blend);
      slopes[i] = f(slopes[i]! * adjust);
      slopes[i + 1] = f(slopes[i + 1]! * adjust);
    }
    i++;
  }
  return adjusted;
}

/** Fits the curve as OCIO's computeKnotsAndCoefsForRGBCurve does; null when it is the identity. */
export function fitCurve(curve: BSplineCurve): FittedCurve | null {
  const x = xs(curve),
    y = ys(curve);
  if (x.length < 2 || isIdentityCurve(curve)) return null;
  const given = (curve.slopes ?? []).map(f);
  const slopes = given.length === x.length && given.some((s) => s !== 0) ? given : estimateSlopes(x, y);
  const fitted = fit(x, y, slopes);
  return adjustSlopes(x, y, slopes, fitted.knots) ? fit(x, y, slopes) : fitted;
}

const segmentAt = (c: FittedCurve, i: number, t: number): number => f(f(f(f(c.a[i]! * t) + c.b[i]!) * t) + c.c[i]!);

export function evalCurve(c: FittedCurve | null, x: number): number {
  if (!c) return x;
  const last = c.a.length - 1;
  const start = c.knots[0]!,
    end = c.knots[c.knots.length - 1]!;
  if (x <= start) return f(f(f(x - start) * c.b[0]!) + c.c[0]!);
  if (x >= end) {
    const t = f(end - c.knots[c.knots.length - 2]!);
    const slope = f(f(f(2 * c.a[last]!) * t) + c.b[last]!);
    return f(f(f(x - end) * slope) + segmentAt(c, last, t));
  }
  let i = 0;
  while (i < c.knots.length - 2 && !(x < c.knots[i + 1]!)) i++;
  return segmentAt(c, i, f(x - c.knots[i]!));
}

export function evalCurveInverse(c: FittedCurve | null, y: number): number {
  if (!c) return y;
  const last = c.a.length - 1;
  const start = c.knots[0]!,
    end = c.knots[c.knots.length - 1]!;
  const tEnd = f(end - c.knots[c.knots.length - 2]!);
  const endY = segmentAt(c, last, tEnd);
  if (y <= c.c[0]!) {
    const b = c.b[0]!;
    return Math.abs(b) < f(1e-5) ? start : f(f(f(y - c.c[0]!) / b) + start);
  }
  if (y >= endY) {
    const slope = f(f(f(2 * c.a[last]!) * tEnd) + c.b[last]!);
    return Math.abs(slope) < f(1e-5) ? end : f(f(f(y - endY) / slope) + end);
  }
  let i = 0;
  while (i < c.knots.length - 2 && !(y < c.c[i + 1]!)) i++;
  const a = c.a[i]!,
    b = c.b[i]!,
    kn = c.knots[i]!;
  const c0 = f(c.c[i]! - y);
  const discrim = f(Math.sqrt(f(f(b * b) - f(f(4 * a) * c0))));
  const denom = f(discrim + b);
  if (Math.abs(denom) < f(1e-5)) return Math.abs(b) < f(1e-5) ? kn : f(kn + f(-c0 / b));
  return f(kn + f(f(-2 * c0) / denom));
}

/** Runs of collinear segments share their summed length (in place), so that the weighted slopes stay on the line. */
export function shareCollinearLengths(secantSlope: readonly number[], secantLen: number[]): void {
  const n = secantLen.length + 1;
  for (let i = 0; ;) {
    let j = i;
    let total = secantLen[i]!;
    while (j < n - 2 && Math.abs(f(secantSlope[j + 1]! - secantSlope[j]!)) < f(1e-6)) {
      total = f(total + secantLen[j + 1]!);
      j++;
    }
    for (let k = i; k <= j; k++) secantLen[k] = total;
    if (j >= n - 3) break;
    i = j + 1;
  }
}
