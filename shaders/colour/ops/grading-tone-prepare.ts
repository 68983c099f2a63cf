// GradingTone's per-transform constants (OCIO's GradingTonePreRender): zone bounds in double, the curves' knots in float32.

import type { GradingStyle, GradingToneOp, ToneZone } from './op.js';

const f = Math.fround;
// std::min / std::max / OCIO's Clamp on floats, NaN included
const stdMax = (a: number, b: number): number => (a < b ? b : a);
const stdMin = (a: number, b: number): number => (b < a ? b : a);
const clamp = (v: number, lo: number, hi: number): number => stdMin(stdMax(lo, v), hi);

/** A zone's curve: knots x, values y, slopes m (their meaning depends on the zone, as in OCIO). */
export interface Knots {
  x: number[];
  y: number[];
  m: number[];
}

export interface PreparedTone {
  bypass: boolean;
  pivot: number;
  /** Per channel R, G, B, M; null where that channel's gain is 1. */
  mids: (Knots | null)[];
  highlights: Knots[];
  shadows: Knots[];
  whites: (Knots & { gain: number })[];
  blacks: (Knots & { gain: number })[];
  /** Top and bottom ends of the S-contrast (null at contrast 1), and the contrast itself. */
  sContrast: { top: Knots; bottom: Knots; contrast: number } | null;
}

/** The style's range in the curves' space: top, top for the S-contrast, bottom, and the S-contrast pivot. */
function styleRange(style: GradingStyle): { top: number; topSC: number; bottom: number; pivot: number } {
  if (style === 'linear') return { top: 7.5, topSC: 6.5, bottom: -5.5, pivot: 0 };
  return { top: 1, topSC: 1, bottom: 0, pivot: f(0.4) };
}

/** The S-contrast's contrast after OCIO limits it against reversals. */
export function limitedContrast(value: number): number {
  const c = f(value);
  return c > 1 ? f(1 / f(1.8125 - f(f(0.8125) * stdMin(c, f(1.99))))) : f(f(0.28125) + f(f(0.71875) * stdMax(c, f(0.01))));
}

const isUnit = (z: ToneZone): boolean => z.rgbm.every((v) => v === 1);

// The faux-cubic curves OCIO runs in double to place the whites and blacks zones after highlights and shadows.
function fauxCubicForward(t: number, x0: number, x2: number, y0: number, y2: number, m0: number, m2: number, x1: number): number {
  const y1 = (0.5 / (x2 - x1 + (x1 - x0))) * ((2 * y0 + m0 * (x1 - x0)) * (x2 - x1) + (2 * y2 - m2 * (x2 - x1)) * (x1 - x0));
  const tL = (t - x0) / (x1 - x0);
  const tR = (t - x1) / (x2 - x1);
  const fL = y0 * (1 - tL * tL) + y1 * tL * tL + m0 * (1 - tL) * tL * (x1 - x0);
  const fR = y1 * (1 - tR) * (1 - tR) + y2 * (2 - tR) * tR + m2 * (tR - 1) * tR * (x2 - x1);
  let res = t < x1 ? fL : fR;
  res = t < x0 ? y0 + (t - x0) * m0 : res;
  return t > x2 ? y2 + (t - x2) * m2 : res;
}

function fauxCubicInverse(t: number, x0: number, x2: number, y0: number, y2: number, m0: number, m2: number, x1: number): number {
  const y1 = (0.5 / (x2 - x1 + (x1 - x0))) * ((2 * y0 + m0 * (x1 - x0)) * (x2 - x1) + (2 * y2 - m2 * (x2 - x1)) * (x1 - x0));
  const cL = y0 - t;
  const bL = m0 * (x1 - x0);
  const aL = y1 - y0 - m0 * (x1 - x0);
  const outL = ((2 * cL) / (-Math.sqrt(bL * bL - 4 * aL * cL) - bL)) * (x1 - x0) + x0;
  const cR = y1 - t;
  const bR = 2 * y2 - 2 * y1 - m2 * (x2 - x1);
  const aR = y1 - y2 + m2 * (x2 - x1);
  const outR = ((2 * cR) / (-Math.sqrt(bR * bR - 4 * aR * cR) - bR)) * (x2 - x1) + x1;
  let res = t < y1 ? outL : outR;
  res = t < y0 ? x0 + (t - y0) / m0 : res;
  return t > y2 ? x2 + (t - y2) / m2 : res;
}

function highlightForward(t: number, start: number, pivot: number, value: number): number {
  const x1 = start + (pivot - start) * 0.5;
  const v = 2 - value;
  if (v <= 1) return fauxCubicForward(t, start, pivot, start, pivot, 1, v < 0.01 ? 0.01 : v, x1);
  return fauxCubicInverse(t, start, pivot, start, pivot, 1, 2 - v < 0.01 ? 0.01 : 2 - v, x1);
}

function shadowForward(t: number, start: number, pivot: number, value: number): number {
  const x1 = start + (pivot - start) * 0.5;
  if (value <= 1) return fauxCubicForward(t, start, pivot, start, pivot, value < 0.01 ? 0.01 : value, 1, x1);
  return fauxCubicInverse(t, start, pivot, start, pivot, 2 - value < 0.01 ? 0.01 : 2 - value, 1, x1);
}

function midsKnots(zone: ToneZone, channel: number, top: number, bottom: number): Knots | null {
  let adjust = clamp(f(zone.rgbm[channel]!), f(0.01), f(1.99));
  if (adjust === 1) return null;
  const halo = f(0.4);
  const x0 = bottom,
    x5 = top;
  const maxWidth = f(f(x5 - x0) * f(0.95));
  const width = clamp(f(zone.width), f(0.01), maxWidth);
  const minCentre = f(x0 + f(width * f(0.51)));
  const maxCentre = f(x5 - f(width * f(0.51)));
  const centre = clamp(f(zone.start), minCentre, maxCentre);
  const x1 = f(centre - f(width * 0.5));
  const x4 = f(x1 + width);
  const x2 = f(x1 + f(f(x4 - x1) * 0.25));
  const x3 = f(x1 + f(f(x4 - x1) * 0.75));
  const y0 = x0,
    m0 = 1,
    m5 = 1;
  adjust = f(f(adjust - 1) * f(1 - f(0.1)));
  const m2 = f(1 + adjust),
    m3 = f(1 - adjust);
  let m1 = f(1 + f(adjust * halo)),
    m4 = f(1 - f(adjust * halo));
  if (centre <= f(f(x5 + x0) * 0.5)) {
    const area = f(
      f(f(f(f(x1 - x0) * f(m1 - m0)) * 0.5) + f(f(x2 - x1) * f(f(m1 - m0) + f(f(m2 - m1) * 0.5)))) +
        f(f(f(centre - x2) * f(m2 - m0)) * 0.5),
    );
    const sum = f(
      f(f(f(f(-0.5 * f(x5 - x4)) * m5) + f(f(x4 - x3) * f(f(0.5 * m3) - m5))) + f(f(f(x3 - centre) * f(m3 - m5)) * 0.5)) + area,
    );
    m4 = f(sum / f(-0.5 * f(x5 - x3)));
  } else {
    const area = f(
      f(f(f(f(x5 - x4) * f(m4 - m5)) * 0.5) + f(f(x4 - x3) * f(f(m4 - m5) + f(f(m3 - m4) * 0.5)))) +
        f(f(f(x3 - centre) * f(m3 - m5)) * 0.5),
    );
    const sum = f(
      f(f(f(f(-0.5 * f(x1 - x0)) * m0) + f(f(x2 - x1) * f(f(0.5 * m2) - m0))) + f(f(f(centre - x2) * f(m2 - m0)) * 0.5)) + area,
    );
    m1 = f(sum / f(-0.5 * f(x2 - x0)));
  }
  const x = [x0, x1, x2, x3, x4, x5];
  const m = [m0, m1, m2, m3, m4, m5];
  const y = [y0];
  for (let k = 1; k < 6; k++) y.push(f(y[k - 1]! + f(f(f(m[k - 1]! + m[k]!) * f(x[k]! - x[k - 1]!)) * 0.5)));
  return { x, y, m };
}

/** Highlights (shadow false) or shadows: the faux cubic's three knots, and its end slopes as m[0], m[1]. */
function highlightShadowKnots(zone: ToneZone, channel: number, isShadow: boolean, start: number, pivot: number): Knots {
  let value = f(zone.rgbm[channel]!);
  if (!isShadow) value = f(2 - value);
  const out: Knots = { x: [0, 0, 0], y: [0, 0, 0], m: [0, 0] };
  if (value === 1) return out;
  const x0 = isShadow ? pivot : start;
  const x2 = isShadow ? start : pivot;
  const x1 = f(x0 + f(f(x2 - x0) * 0.5));
  const slope = value < 1 ? stdMax(f(0.01), value) : stdMax(f(0.01), f(2 - value));
  const m0 = isShadow ? slope : 1,
    m2 = isShadow ? 1 : slope;
  const span = value < 1 ? f(x2 - x0) : f(f(x2 - x1) + f(x1 - x0));
  const sum = f(f(f(f(2 * x0) + f(m0 * f(x1 - x0))) * f(x2 - x1)) + f(f(f(2 * x2) - f(m2 * f(x2 - x1))) * f(x1 - x0)));
  out.x = [x0, x1, x2];
  out.y = [x0, f(f(0.5 / span) * sum), x2];
  out.m = [m0, m2];
  return out;
}

function whiteBlackKnots(zone: ToneZone, channel: number, isBlack: boolean, start: number, width: number): Knots & { gain: number } {
  const value = f(zone.rgbm[channel]!);
  const x0 = isBlack ? f(start - width) : start;
  const x1 = isBlack ? start : f(x0 + width);
  const test = isBlack ? f(2 - value) : value;
  let y0 = 0,
    y1 = 0,
    m0 = 0,
    m1 = 0,
    gain = 0;
  const half = (): number => f(f(f(m0 + m1) * f(x1 - x0)) * 0.5);
  if (test < 1) {
    if (!isBlack) {
      m0 = 1;
      m1 = stdMax(f(0.01), value);
      y0 = x0;
      y1 = f(y0 + half());
    } else {
      m0 = stdMax(f(0.01), f(2 - value));
      m1 = 1;
      y1 = x1;
      y0 = f(y1 - half());
    }
  } else if (test > 1) {
    if (!isBlack) {
      m0 = 1;
      m1 = stdMax(f(0.01), f(2 - value));
      y0 = x0;
    } else {
      m0 = stdMax(f(0.01), value);
      m1 = 1;
      y1 = x1;
      y0 = f(y1 - half());
    }
    gain = f(f(m0 + m1) * 0.5);
  }
  return { x: [x0, x1], y: [y0, y1], m: [m0, m1], gain };
}

function sContrastKnots(contrast: number, topSC: number, bottom: number, pivot: number): { top: Knots; bottom: Knots } {
  // top end
  const tx3 = topSC,
    ty3 = topSC;
  const ty0 = f(pivot + f(f(ty3 - pivot) * 0.25));
  const tm0 = contrast;
  const tx0 = f(pivot + f(f(ty0 - pivot) / tm0));
  const topMinWidth = f(f(tx3 - tx0) * f(0.3));
  let tm3 = f(1 / tm0);
  const topCentre = f(f(f(f(ty3 - ty0) - f(tm3 * tx3)) + f(tm0 * tx0)) / f(tm0 - tm3));
  let tx1 = tx0;
  let tx2 = f(f(2 * topCentre) - tx1);
  if (tx2 > tx3) {
    tx2 = tx3;
    tx1 = f(f(2 * topCentre) - tx2);
  } else if (f(tx2 - tx1) < topMinWidth) {
    tx2 = f(tx1 + topMinWidth);
    const centre = f(f(tx2 + tx1) * 0.5);
    tm3 = f(f(f(f(ty3 - ty0) + f(tm0 * tx0)) - f(centre * tm0)) / f(tx3 - centre));
  }
  const ty1 = ty0;
  const ty2 = f(ty1 + f(f(f(tm0 + tm3) * f(tx2 - tx1)) * 0.5));
  // bottom end
  const bx0 = bottom,
    by0 = bottom;
  const by3 = f(pivot - f(f(pivot - by0) * 0.25));
  const bm3 = contrast;
  const bx3 = f(pivot - f(f(pivot - by3) / bm3));
  const bottomMinWidth = f(f(bx3 - bx0) * f(0.3));
  let bm0 = f(1 / bm3);
  const bottomCentre = f(f(f(f(by3 - by0) - f(bm3 * bx3)) + f(bm0 * bx0)) / f(bm0 - bm3));
  let bx2 = bx3;
  let bx1 = f(f(2 * bottomCentre) - bx2);
  if (bx1 < bx0) {
    bx1 = bx0;
    bx2 = f(f(2 * bottomCentre) - bx1);
  } else if (f(bx2 - bx1) < bottomMinWidth) {
    bx1 = f(bx2 - bottomMinWidth);
    const centre = f(f(bx2 + bx1) * 0.5);
    bm0 = f(f(f(f(by3 - by0) - f(bm3 * bx3)) + f(centre * bm3)) / f(centre - bx0));
  }
  const by2 = by3;
  const by1 = f(by2 - f(f(f(bm0 + bm3) * f(bx2 - bx1)) * 0.5));
  return {
    top: { x: [tx0, tx1, tx2, tx3], y: [ty0, ty1, ty2, ty3], m: [tm0, tm3] },
    bottom: { x: [bx0, bx1, bx2, bx3], y: [by0, by1, by2, by3], m: [bm0, bm3] },
  };
}

export function prepareTone(op: GradingToneOp): PreparedTone {
  const range = styleRange(op.style);
  const zones = [op.blacks, op.shadows, op.midtones, op.highlights, op.whites];
  const channels = [0, 1, 2, 3];
  const bypass = zones.every(isUnit) && op.sContrast === 1;
  const hl = op.highlights,
    sh = op.shadows;
  const highlightsStart = hl.start > hl.width - 0.01 ? hl.width - 0.01 : hl.start;
  const highlightsPivot = hl.width;
  const whitesStart = highlightForward(op.whites.start, highlightsStart, highlightsPivot, hl.rgbm[3]!);
  const whitesEnd = highlightForward(op.whites.start + op.whites.width, highlightsStart, highlightsPivot, hl.rgbm[3]!);
  const shadowsStart = sh.start < sh.width + 0.01 ? sh.width + 0.01 : sh.start;
  const shadowsPivot = sh.width;
  const blacksStart = shadowForward(op.blacks.start, shadowsPivot, shadowsStart, sh.rgbm[3]!);
  const blacksEnd = shadowForward(op.blacks.start - op.blacks.width, shadowsPivot, shadowsStart, sh.rgbm[3]!);
  const contrast = f(op.sContrast);
  return {
    bypass,
    pivot: range.pivot,
    mids: channels.map((c) => midsKnots(op.midtones, c, range.top, range.bottom)),
    highlights: channels.map((c) => highlightShadowKnots(hl, c, false, f(highlightsStart), f(highlightsPivot))),
    shadows: channels.map((c) => highlightShadowKnots(sh, c, true, f(shadowsStart), f(shadowsPivot))),
    whites: channels.map((c) => whiteBlackKnots(op.whites, c, false, f(whitesStart), f(whitesEnd - whitesStart))),
    blacks: channels.map((c) => whiteBlackKnots(op.blacks, c, true, f(blacksStart), f(blacksStart - blacksEnd))),
    sContrast:
      contrast === 1
        ? null
        : { ...sContrastKnots(limitedContrast(contrast), range.topSC, range.bottom, range.pivot), contrast: limitedContrast(contrast) },
  };
}

/** OCIO's GradingTone::validate bounds (widened by 1e-6 as OCIO does); the reason a value is out, or null. */
export function toneValueProblem(op: GradingToneOp): string | null {
  const tol = 0.000001;
  const range = (name: string, z: ToneZone, lo: number, hi: number): string | null =>
    z.rgbm.some((v) => v < lo - tol || v > hi + tol) ? `${name} values must be from ${lo} to ${hi}` : null;
  return (
    range('blacks', op.blacks, 0.1, 1.9) ??
    range('midtones', op.midtones, 0.1, 1.9) ??
    range('whites', op.whites, 0.1, 1.9) ??
    range('shadows', op.shadows, 0.2, 1.8) ??
    range('highlights', op.highlights, 0.2, 1.8) ??
    ([op.blacks, op.midtones, op.whites].some((z) => z.width < 0.01 - tol)
      ? 'blacks, midtones and whites widths must be at least 0.01'
      : null) ??
    (op.shadows.start < op.shadows.width + 0.01 - tol ? 'shadows start must be at least its pivot + 0.01' : null) ??
    (op.highlights.start > op.highlights.width - 0.01 + tol ? 'highlights start must be at most its pivot - 0.01' : null) ??
    (op.sContrast < 0.01 - tol || op.sContrast > 1.99 + tol ? 's_contrast must be from 0.01 to 1.99' : null)
  );
}
