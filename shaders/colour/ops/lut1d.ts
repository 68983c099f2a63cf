// 1D LUTs: OCIO's linear interpolation on [0, 1] (NaN → first entry), and the exact inverse by searching the monotonic table.

import type { Lut1DOp } from './op.js';

const f = Math.fround;

export function applyLut1D(op: Lut1DOp, rgba: Float32Array): void {
  if (op.hueAdjust) return applyHueAdjusted(op, rgba);
  if (op.direction === 'inverse') return applyInverseLut1D(op, rgba);
  const n = op.length;
  const step = f(n - 1);
  const last = f(n - 1);
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      let idx = f(step * rgba[i + c]!);
      idx = Math.min(0 < idx ? idx : 0, last);
      const low = Math.floor(idx);
      const high = Math.ceil(idx);
      const hiValue = op.values[high * 3 + c]!;
      const loValue = op.values[low * 3 + c]!;
      if (op.interpolation === 'nearest') {
        rgba[i + c] = op.values[Math.round(idx) * 3 + c]!;
        continue;
      }
      // interpolate from the high entry, as OCIO does, so that an infinite entry is never multiplied by 0
      const delta = f(high - idx);
      rgba[i + c] = f(hiValue + f(delta * f(loValue - hiValue)));
    }
  }
}

/** The exact inverse of a monotonic 1D LUT: inputs outside its range clamp to the ends; flat spans give their first input. */
function applyInverseLut1D(op: Lut1DOp, rgba: Float32Array): void {
  const n = op.length;
  for (let c = 0; c < 3; c++) {
    const table = new Float64Array(n);
    for (let k = 0; k < n; k++) table[k] = op.values[k * 3 + c]!;
    const increasing = table[n - 1]! >= table[0]!;
    // reversals become flat, as OCIO's inverse does
    for (let k = 1; k < n; k++) {
      if (increasing ? table[k]! < table[k - 1]! : table[k]! > table[k - 1]!) table[k] = table[k - 1]!;
    }
    const lo = Math.min(table[0]!, table[n - 1]!),
      hi = Math.max(table[0]!, table[n - 1]!);
    for (let i = c; i < rgba.length; i += 4) {
      let y = rgba[i]!;
      if (Number.isNaN(y)) continue; // OCIO's inverse passes NaN through
      y = Math.min(Math.max(y, lo), hi);
      rgba[i] = findInverse(table, increasing ? y : -y, increasing) / (n - 1);
    }
  }
}

/** The fractional index where the (made monotonic) table reaches y: past the end of a flat start, at the start of a flat end. */
function findInverse(table: Float64Array, y: number, increasing: boolean): number {
  const n = table.length;
  const at = (k: number): number => (increasing ? table[k]! : -table[k]!);
  const top = at(n - 1);
  if (y >= top) {
    let k = n - 1;
    while (k > 0 && at(k - 1) >= top) k--;
    return k;
  }
  // the last entry ≤ y
  let a = 0,
    b = n - 1;
  while (b - a > 1) {
    const mid = (a + b) >> 1;
    if (at(mid) <= y) a = mid;
    else b = mid;
  }
  const ya = at(a),
    yb = at(a + 1);
  return a + (yb === ya ? 0 : (y - ya) / (yb - ya));
}

/** CLF's hueAdjust (dw3): the curves on each channel, then the middle channel placed where the input's hue puts it. */
function applyHueAdjusted(op: Lut1DOp, rgba: Float32Array): void {
  const plain = { ...op, hueAdjust: false };
  const pixel = new Float32Array(4);
  for (let i = 0; i < rgba.length; i += 4) {
    const rgb = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    const [min, mid, max] = order3(rgb);
    const chroma = f(rgb[max]! - rgb[min]!);
    const hueFactor = chroma === 0 ? 0 : f(f(rgb[mid]! - rgb[min]!) / chroma);
    pixel.set(rgb);
    applyLut1D(plain, pixel);
    const newChroma = f(pixel[max]! - pixel[min]!);
    pixel[mid] = f(f(hueFactor * newChroma) + pixel[min]!);
    rgba[i] = pixel[0]!;
    rgba[i + 1] = pixel[1]!;
    rgba[i + 2] = pixel[2]!;
  }
}

/** The indices of the smallest, middle and largest of three, as OCIO's Order3 picks them (NaN included). */
function order3(rgb: number[]): [number, number, number] {
  const table = [2, 1, 0, 2, 1, 0, 2, 1, 2, 0, 1, 2];
  const val = Number(rgb[0]! > rgb[1]!) * 5 + Number(rgb[1]! > rgb[2]!) * 4 - Number(rgb[0]! > rgb[2]!) * 3 + 3;
  return [table[val + 2]!, table[val + 1]!, table[val]!];
}
