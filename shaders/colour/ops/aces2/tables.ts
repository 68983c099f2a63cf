// ACES 2.0's per-hue tables, built once per parameter set as OCIO builds them: the reach gamut's M limit and the display gamut's cusp.

import { jmhToRgb, lerpF, rgbToAab, rgbToJMh, jToAchromatic, type JMhParams } from './cam.js';

// Every step rounds to float32 as OCIO's does: the searches below bisect on predicates that a last-bit difference can flip,
// and a flipped step moves an entry by up to the search's tolerance.
const f = Math.fround;

/** 360 nominal entries at index 1..360, one below (wrap) and two above, as OCIO lays its tables out. */
export const TABLE_SIZE = 363;
const NOMINAL = 360;
const FIRST = 1;
const UPPER_WRAP = 361;
const LAST = 360;
const CUSP_CORNERS = 6;
/** 1 + smooth_m · smooth_cusps, as OCIO's constexpr floats fold it. */
const CUSP_M_SCALE = f(1 + f(f(0.27) * f(0.12)));

export function reachMTable(p: JMhParams, limitJMax: number): Float32Array {
  const table = new Float32Array(TABLE_SIZE);
  const outside = (M: number, hue: number): boolean => jmhToRgb([limitJMax, M, hue], p).some((v) => v < 0);
  for (let i = 0; i < NOMINAL; i++) {
    let low = 0,
      high = 50,
      out = false;
    while (!out && high < 1300) {
      out = outside(high, i);
      if (!out) {
        low = high;
        high += 50;
      }
    }
    while (f(high - low) > 1e-2) {
      const mid = f(f(high + low) / 2);
      if (outside(mid, i)) high = mid;
      else low = mid;
    }
    table[i + FIRST] = high;
  }
  wrap1(table);
  return table;
}

function wrap1(t: Float32Array): void {
  t[0] = t[LAST]!;
  t[UPPER_WRAP] = t[FIRST]!;
  t[UPPER_WRAP + 1] = t[FIRST + 1]!;
}

export function reachMFromTable(h: number, table: Float32Array): number {
  const base = Math.trunc(h);
  const lo = base + FIRST;
  return lerpF(table[lo]!, table[lo + 1]!, f(h - base));
}

const unitCorner = (c: number): number[] => [(c + 1) % 6 < 3 ? 1 : 0, (c + 5) % 6 < 3 ? 1 : 0, (c + 3) % 6 < 3 ? 1 : 0];

/** Six corners sorted by hue from the lowest, with the last repeated below (hue − 360) and the first above (hue + 360). */
function sortedCorners(rgb: number[][], jmh: number[][]): { rgb: number[][]; jmh: number[][] } {
  let minIndex = 0;
  for (let i = 1; i < CUSP_CORNERS; i++) if (jmh[i]![2]! < jmh[minIndex]![2]!) minIndex = i;
  const r: number[][] = [],
    j: number[][] = [];
  for (let i = 0; i < CUSP_CORNERS; i++) {
    r[i + 1] = rgb[(i + minIndex) % CUSP_CORNERS]!;
    j[i + 1] = [...jmh[(i + minIndex) % CUSP_CORNERS]!];
  }
  r[0] = r[CUSP_CORNERS]!;
  r[CUSP_CORNERS + 1] = r[1]!;
  j[0] = [...j[CUSP_CORNERS]!];
  j[CUSP_CORNERS + 1] = [...j[1]!];
  j[0]![2] = f(j[0]![2]! - 360);
  j[CUSP_CORNERS + 1]![2] = f(j[CUSP_CORNERS + 1]![2]! + 360);
  return { rgb: r, jmh: j };
}

function reachCorners(p: JMhParams, limitJ: number, maxSource: number): number[][] {
  const limitA = jToAchromatic(limitJ, p.invCz);
  const rgb: number[][] = [],
    jmh: number[][] = [];
  for (let i = 0; i < CUSP_CORNERS; i++) {
    const v = unitCorner(i);
    let lower = 0,
      upper = f(maxSource);
    while (f(upper - lower) > f(1e-3)) {
      const test = f(f(lower + upper) / 2);
      const A = rgbToAab(
        v.map((c) => c * test),
        p,
      )[0]!;
      if (A < limitA) lower = test;
      else upper = test;
      if (A === limitA) break;
    }
    rgb.push(v.map((c) => c * upper));
    jmh.push(rgbToJMh(rgb[i]!, p));
  }
  return sortedCorners(rgb, jmh).jmh;
}

function limitingCorners(p: JMhParams, peakLuminance: number): { rgb: number[][]; jmh: number[][] } {
  const scale = f(f(peakLuminance) / 100);
  const rgb = [0, 1, 2, 3, 4, 5].map((i) => unitCorner(i).map((c) => f(c * scale)));
  return sortedCorners(
    rgb,
    rgb.map((c) => rgbToJMh(c, p)),
  );
}

function sortedCubeHues(reach: number[][], display: number[][]): number[] {
  const out: number[] = [];
  let r = 1,
    d = 1;
  while (r < CUSP_CORNERS + 1 || d < CUSP_CORNERS + 1) {
    const rh = reach[r]![2]!,
      dh = display[d]![2]!;
    if (rh === dh) {
      out.push(rh);
      r++;
      d++;
    } else if (rh < dh) {
      out.push(rh);
      r++;
    } else {
      out.push(dh);
      d++;
    }
  }
  return out;
}

function hueTable(sorted: number[]): Float32Array {
  const table = new Float32Array(TABLE_SIZE);
  const counts: number[] = new Array<number>(2 * CUSP_CORNERS + 2).fill(0);
  let lastIdx = -1;
  let minIndex = sorted[0] === 0 ? 0 : 1;
  for (let k = 0; k < sorted.length; k++) {
    let nominal = Math.min(Math.max(Math.round(sorted[k]!), minIndex), NOMINAL - 1);
    if (lastIdx === nominal) {
      if (k > 1 && counts[k - 2] !== counts[k - 1]! - 1) counts[k - 1] = counts[k - 1]! - 1;
      else nominal = nominal + 1;
    }
    counts[k] = Math.min(nominal, NOMINAL - 1);
    lastIdx = minIndex = nominal;
  }
  const interval = (samples: number, lower: number, upper: number, base: number): void => {
    const delta = f(f(upper - lower) / samples);
    for (let i = 0; i < samples; i++) table[base + i] = f(lower + f(i * delta));
  };
  let total = 0;
  interval(counts[0]!, 0, sorted[0]!, total + 1);
  total += counts[0]!;
  let k = 1;
  for (; k < sorted.length; k++) {
    const samples = counts[k]! - counts[k - 1]!;
    interval(samples, sorted[k - 1]!, sorted[k]!, total + 1);
    total += samples;
  }
  interval(NOMINAL - total, sorted[k - 1]!, 360, total + 1);
  table[0] = f(table[LAST]! - 360);
  table[UPPER_WRAP] = f(table[FIRST]! + 360);
  table[UPPER_WRAP + 1] = f(table[FIRST + 1]! + 360);
  return table;
}

function displayCusp(hue: number, corners: { rgb: number[][]; jmh: number[][] }, p: JMhParams, previous: number[]): number[] {
  let upper = 1;
  for (let i = 1; i < CUSP_CORNERS + 2; i++) {
    if (corners.jmh[i]![2]! > hue) {
      upper = i;
      break;
    }
  }
  const lower = upper - 1;
  const lowJMh = corners.jmh[lower]!,
    upJMh = corners.jmh[upper]!;
  if (lowJMh[2] === hue) return [lowJMh[0]!, lowJMh[1]!];
  const a = corners.rgb[lower]!,
    b = corners.rgb[upper]!;
  let lowerT = upper === previous[0] ? previous[1]! : 0;
  let upperT = 1;
  while (f(upperT - lowerT) > f(1e-7)) {
    const t = f(f(lowerT + upperT) / 2);
    const jmh = rgbToJMh(
      [0, 1, 2].map((c) => lerpF(a[c]!, b[c]!, t)),
      p,
    );
    if (jmh[2]! < lowJMh[2]!) upperT = t;
    else if (jmh[2]! >= upJMh[2]!) lowerT = t;
    else if (jmh[2]! > hue) upperT = t;
    else lowerT = t;
  }
  const t = f(f(lowerT + upperT) / 2);
  const jmh = rgbToJMh(
    [0, 1, 2].map((c) => lerpF(a[c]!, b[c]!, t)),
    p,
  );
  previous[0] = upper;
  previous[1] = t;
  return [jmh[0]!, jmh[1]!];
}

export interface CuspTables {
  hues: Float32Array;
  /** J, M and (once the upper hull is fitted) 1/γ of the top hull, three per entry. */
  cusp: Float32Array;
}

export function cuspTables(reach: JMhParams, limit: JMhParams, peakLuminance: number, forwardLimit: number, limitJMax: number): CuspTables {
  const reachJMh = reachCorners(reach, limitJMax, forwardLimit);
  const corners = limitingCorners(limit, peakLuminance);
  const hues = hueTable(sortedCubeHues(reachJMh, corners.jmh));
  const cusp = new Float32Array(TABLE_SIZE * 3);
  const previous = [0, 0];
  for (let i = FIRST; i < UPPER_WRAP; i++) {
    const jm = displayCusp(hues[i]!, corners, limit, previous);
    cusp[i * 3] = jm[0]!;
    cusp[i * 3 + 1] = f(jm[1]! * CUSP_M_SCALE);
    cusp[i * 3 + 2] = hues[i]!;
  }
  const copy = (to: number, from: number, hue: number): void => {
    cusp[to * 3] = cusp[from * 3]!;
    cusp[to * 3 + 1] = cusp[from * 3 + 1]!;
    cusp[to * 3 + 2] = hue;
  };
  copy(0, LAST, hues[0]!);
  copy(UPPER_WRAP, FIRST, hues[UPPER_WRAP]!);
  copy(UPPER_WRAP + 1, FIRST + 1, hues[UPPER_WRAP + 1]!);
  return { hues, cusp };
}

/** How far the table's hues stray from the uniform index, for the search in `lookupHueInterval`. */
export function hueSearchRange(cusp: Float32Array): [number, number] {
  const range: [number, number] = [0, 1];
  for (let i = FIRST; i < UPPER_WRAP; i++) {
    const delta = i - (FIRST + Math.trunc(cusp[i * 3 + 2]!));
    range[0] = Math.min(range[0], delta);
    range[1] = Math.max(range[1], delta + 1);
  }
  return range;
}

export function lookupHueInterval(h: number, hues: Float32Array, range: [number, number]): number {
  let i = FIRST + Math.trunc(h);
  let lo = Math.max(0, i + range[0]);
  let hi = Math.min(UPPER_WRAP, i + range[1]);
  while (lo + 1 < hi) {
    if (h > hues[i]!) lo = i;
    else hi = i;
    i = Math.floor((lo + hi) / 2);
  }
  return Math.max(1, hi);
}

export const TABLE_FIRST = FIRST;
export const TABLE_UPPER_WRAP = UPPER_WRAP;
export const TABLE_LAST = LAST;
