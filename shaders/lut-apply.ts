// CPU reference of applying a LUT (trilinear 3D, linear 1D) and of the shapers: the oracle for lut.wgsl, and the export path.
import type { Lut } from './lut-cube.js';

/**
 * Where the LUT sits in the display path: 'display' after the view transform (it takes display-encoded values),
 * 'log' on a log2 shaper of the exposed scene-linear values, 'linear' on those values as they are (clamped to
 * the LUT's domain). With a shaper the LUT replaces the view transform: its output is what the display gets.
 */
export const LUT_SHAPERS = ['display', 'log', 'linear'] as const;
export type LutShaper = (typeof LUT_SHAPERS)[number];

export interface LutApplication {
  lut: Lut;
  shaper: LutShaper;
  /** What the user loaded, shown in the toolbar. */
  name: string;
}

/** The log shaper: log2 of value / 0.18 from LOG_MIN_EV to LOG_MAX_EV onto [0, 1] (an ACEScct-like range). */
export const LOG_MIN_EV = -10;
export const LOG_MAX_EV = 6.5;
const MIDDLE_GREY = 0.18;
const TINY = 2 ** -24;

/** Codes of the shapers in the `lutMode` word of the Display uniform: 0 means no LUT. */
export function lutModeCode(a: LutApplication | null | undefined): number {
  return a ? LUT_SHAPERS.indexOf(a.shaper) + 1 : 0;
}

export function logShaper(v: number): number {
  const ev = Math.log2(Math.max(v, TINY) / MIDDLE_GREY);
  return Math.min(Math.max((ev - LOG_MIN_EV) / (LOG_MAX_EV - LOG_MIN_EV), 0), 1);
}

/** Position on one axis: input through the domain onto [0, size-1], clamped. */
function axis(v: number, min: number, max: number, size: number): number {
  const t = (v - min) / (max - min);
  return Math.min(Math.max(t, 0), 1) * (size - 1);
}

/** Looks `rgb` up in the LUT (inputs outside the domain clamp to its edge); output as the LUT gives it. */
export function applyLut(lut: Lut, r: number, g: number, b: number): [number, number, number] {
  const n = lut.size;
  const d = lut.data;
  const pr = axis(r, lut.domainMin[0], lut.domainMax[0], n);
  const pg = axis(g, lut.domainMin[1], lut.domainMax[1], n);
  const pb = axis(b, lut.domainMin[2], lut.domainMax[2], n);
  if (lut.kind === '1d') {
    const one = (p: number, c: number): number => {
      const i = Math.min(Math.floor(p), n - 2);
      const f = p - i;
      return d[i * 3 + c]! + (d[(i + 1) * 3 + c]! - d[i * 3 + c]!) * f;
    };
    return [one(pr, 0), one(pg, 1), one(pb, 2)];
  }
  const ir = Math.min(Math.floor(pr), n - 2),
    ig = Math.min(Math.floor(pg), n - 2),
    ib = Math.min(Math.floor(pb), n - 2);
  const fr = pr - ir,
    fg = pg - ig,
    fb = pb - ib;
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const at = (x: number, y: number, z: number): number => d[(((ib + z) * n + ig + y) * n + ir + x) * 3 + c]!;
    const c00 = at(0, 0, 0) + (at(1, 0, 0) - at(0, 0, 0)) * fr;
    const c10 = at(0, 1, 0) + (at(1, 1, 0) - at(0, 1, 0)) * fr;
    const c01 = at(0, 0, 1) + (at(1, 0, 1) - at(0, 0, 1)) * fr;
    const c11 = at(0, 1, 1) + (at(1, 1, 1) - at(0, 1, 1)) * fr;
    const c0 = c00 + (c10 - c00) * fg;
    const c1 = c01 + (c11 - c01) * fg;
    out[c] = c0 + (c1 - c0) * fb;
  }
  return out;
}
