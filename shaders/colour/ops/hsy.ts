// OCIO's HSY space (FixedFunction RGB_TO_HSY_LIN/LOG/VID and back): hue with magenta at 0, a saturation per style, Rec.709 luma.

import type { GradingStyle } from './op.js';

const f = Math.fround;
const stdMax = (a: number, b: number): number => (a < b ? b : a);
const stdMin = (a: number, b: number): number => (b < a ? b : a);
/** OCIO's CLAMP macro: a NaN passes through. */
const clampMacro = (a: number, lo: number, hi: number): number => (a > hi ? hi : lo > a ? lo : a);

const LUMA_R = f(0.2126),
  LUMA_G = f(0.7152),
  LUMA_B = f(0.0722);
const SIXTH = f(1 / 6);
const MAX_LUM = f(0.01);
const MIN_LUM = f(MAX_LUM * f(0.1));
const K = f(0.15);

const luma = (r: number, g: number, b: number): number => f(f(f(LUMA_R * r) + f(LUMA_G * g)) + f(LUMA_B * b));

export function rgbToHsy(style: GradingStyle, r: number, g: number, b: number): [number, number, number] {
  const lo = stdMin(stdMin(r, g), b);
  const hi = stdMax(stdMax(r, g), b);
  const y = luma(r, g, b);
  const dist = f(f(Math.abs(f(r - y)) + Math.abs(f(g - y))) + Math.abs(f(b - y)));
  let sat: number;
  if (style === 'linear') {
    const sum = f(f(r + g) + b);
    const satHi = f(dist / stdMax(f(f(f(0.07) * dist) + f(1e-6)), f(K + sum)));
    const satLo = f(dist * 5);
    const alpha = clampMacro(f(f(y - MIN_LUM) / f(MAX_LUM - MIN_LUM)), 0, 1);
    sat = f(f(satLo + f(alpha * f(satHi - satLo))) * f(1.4));
  } else {
    sat = f(dist * (style === 'log' ? 4 : 1.25));
  }
  let hue = 0;
  if (lo !== hi) {
    const delta = f(hi - lo);
    if (r === hi) hue = f(1 + f(f(g - b) / delta));
    else if (g === hi) hue = f(3 + f(f(b - r) / delta));
    else hue = f(5 + f(f(r - g) / delta));
    hue = f(hue * SIXTH);
  }
  return [hue, sat, y];
}

export function hsyToRgb(style: GradingStyle, h: number, s: number, y: number): [number, number, number] {
  let hue = f(h - SIXTH);
  if (y < 0) hue = f(hue + 0.5);
  hue = f(f(hue - Math.floor(hue)) * 6);
  let r = clampMacro(f(Math.abs(f(hue - 3)) - 1), 0, 1);
  let g = clampMacro(f(2 - Math.abs(f(hue - 2))), 0, 1);
  let b = clampMacro(f(2 - Math.abs(f(hue - 4))), 0, 1);
  const currentY = luma(r, g, b);
  const scale = f(y / currentY);
  r = f(r * scale);
  g = f(g * scale);
  b = f(b * scale);
  const dist = f(f(Math.abs(f(r - y)) + Math.abs(f(g - y))) + Math.abs(f(b - y)));
  let gain: number;
  if (style === 'linear') {
    const sum = f(f(r + g) + b);
    const sat = f(s / f(1.4));
    const threeY = f(3 * y);
    const tmp = stdMax(f(1e-6), f(f(f(-sat * sum) + f(f(sat * 3) * y)) + dist));
    const s1 = stdMin(f(f(sat * f(K + threeY)) / tmp), 50);
    const s0 = f(sat / stdMax(f(1e-10), f(dist * 5)));
    const alpha = clampMacro(f(f(y - MIN_LUM) / f(MAX_LUM - MIN_LUM)), 0, 1);
    if (alpha === 1) gain = s1;
    else if (alpha === 0) gain = s0;
    else {
      const low = f(f(dist * 5) * f(1 - alpha));
      const a = f(low * f(sum - threeY));
      const bq = f(f(f(low * f(K + threeY)) + f(dist * alpha)) - f(sat * f(sum - threeY)));
      const c = f(-sat * f(K + threeY));
      const discrim = f(Math.sqrt(f(f(bq * bq) - f(f(4 * a) * c))));
      const denom = f(-discrim - bq);
      gain = f(f(2 * c) / denom);
      if (!(gain >= 0)) gain = f(f(2 * c) / f(denom + f(discrim * 2)));
    }
  } else {
    gain = f(s / stdMax(f(1e-10), f(dist * (style === 'log' ? 4 : 1.25))));
  }
  return [f(y + f(gain * f(r - y))), f(y + f(gain * f(g - y))), f(y + f(gain * f(b - y)))];
}
