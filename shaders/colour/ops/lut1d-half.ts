// Half-domain 1D LUTs (65536 entries, one per half code), as OCIO's built-ins bake curves: forward lookup and the exact inverse.

import { floatToHalf, halfToFloat } from './half.js';
import type { HalfLut1DOp } from './op.js';

const f = Math.fround;
const HALF_MAX = 65504;
const HALF_MAX_CODE = 0x7bff;
const FLT_MAX = 3.4028234663852886e38;

/** A table of the curve `generate` at every half code (NaN codes sample 0, infinities ±HALF_MAX), as OCIO's CreateHalfLut. */
export function halfLutOf(generate: (x: number) => number, source: string): HalfLut1DOp {
  const cached = tableCache.get(source);
  if (cached) return cached;
  const values = new Float32Array(65536);
  for (let code = 0; code < 65536; code++) {
    let x = halfToFloat(code);
    if (Number.isNaN(x)) x = 0;
    else if (!Number.isFinite(x)) x = x < 0 ? -HALF_MAX : HALF_MAX;
    values[code] = generate(x);
  }
  const op: HalfLut1DOp = { type: 'lut1dHalf', direction: 'forward', values, source };
  tableCache.set(source, op);
  return op;
}

const tableCache = new Map<string, HalfLut1DOp>();

/** OCIO's lookup reads a NaN entry as 0 and an infinite one as ±FLT_MAX (its inverse sees the entries as they are). */
const readable = (v: number): number => (Number.isNaN(v) ? 0 : v === Infinity ? FLT_MAX : v === -Infinity ? -FLT_MAX : v);

export function applyHalfLut1D(op: HalfLut1DOp, rgba: Float32Array): void {
  if (op.direction === 'inverse') return applyInverse(op, rgba);
  const lut = op.values;
  for (let i = 0; i < rgba.length; i++) {
    if ((i & 3) === 3) continue;
    let x = rgba[i]!;
    let code = floatToHalf(x);
    if ((code & 0x7fff) === 0x7c00) {
      code = code & 0x8000 ? 0xfbff : HALF_MAX_CODE;
      x = halfToFloat(code);
    }
    let a: number, b: number;
    if (Math.abs(halfToFloat(code)) > Math.abs(x)) {
      b = code;
      a = code - 1;
    } else {
      a = code;
      b = code + 1;
      if ((b & 0x7fff) === 0x7c00) {
        b = b & 0x8000 ? 0xfbff : HALF_MAX_CODE;
        x = halfToFloat(b);
      }
    }
    const fa = halfToFloat(a & 0xffff),
      fb = halfToFloat(b & 0xffff);
    let fraction = f((x - fa) / (fb - fa));
    if (Number.isNaN(fraction)) fraction = 0;
    const va = readable(lut[a & 0xffff]!),
      vb = readable(lut[b & 0xffff]!);
    rgba[i] = f(f(f(va - vb) * f(1 - fraction)) + vb);
  }
}

interface Side {
  table: Float32Array;
  start: number;
  end: number;
  /** The half code of table[0]. */
  offset: number;
}

const inverseCache = new WeakMap<Float32Array, { pos: Side; neg: Side; increasing: boolean }>();

/** The monotonic halves of the table (reversals flattened), as OCIO prepares a half-domain LUT for inversion. */
function inverseTables(values: Float32Array): { pos: Side; neg: Side; increasing: boolean } {
  const cached = inverseCache.get(values);
  if (cached) return cached;
  const increasing = values[0]! < values[15360]!; // 15360 is 1.0
  const flat = values.slice();
  let prev = flat[0]!;
  for (let k = 1; k <= 0x7c00; k++) {
    if (increasing !== flat[k]! > prev) flat[k] = prev;
    else prev = flat[k]!;
  }
  prev = flat[0]!;
  for (let k = 0x8000; k <= 0xfc00; k++) {
    if (!increasing !== flat[k]! > prev) flat[k] = prev;
    else prev = flat[k]!;
  }
  const side = (first: number, last: number, sign: number): Side => {
    let end = last;
    while (end > first && flat[end - 1] === flat[last]) end--;
    let start = first;
    while (start < end && flat[start + 1] === flat[first]) start++;
    const table = new Float32Array(last - first + 1);
    for (let k = first; k <= last; k++) table[k - first] = sign * flat[k]!;
    return { table, start: start - first, end: end - first, offset: first };
  };
  const s = increasing ? 1 : -1;
  const result = { pos: side(0, HALF_MAX_CODE, s), neg: side(0x8000, 0xfbff, -s), increasing };
  inverseCache.set(values, result);
  return result;
}

function findInverse(side: Side, y: number, flip: number): number {
  const t = side.table;
  const lo = t[side.start]!,
    hi = t[side.end]!;
  // std::min(std::max(v, lo), hi) keeps a NaN, which the search below leaves at the start (and the result NaN)
  const v = y * flip;
  const cv = hi < (v < lo ? lo : v) ? hi : v < lo ? lo : v;
  // lower_bound: first entry ≥ cv in [start, end)
  let a = side.start,
    b = side.end;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (t[mid]! < cv) a = mid + 1;
    else b = mid;
  }
  let low = a;
  if (low > side.start) low--;
  const high = low < side.end ? low + 1 : low;
  const delta = t[high]! > t[low]! ? f(f(cv - t[low]!) / f(t[high]! - t[low]!)) : 0;
  const base = halfToFloat(low + side.offset);
  const next = halfToFloat(low + side.offset + 1);
  return f(base + f(delta * f(next - base)));
}

function applyInverse(op: HalfLut1DOp, rgba: Float32Array): void {
  const { pos, neg, increasing } = inverseTables(op.values);
  const bisect = op.values[0]!;
  const flip = increasing ? 1 : -1;
  for (let i = 0; i < rgba.length; i++) {
    if ((i & 3) === 3) continue;
    const y = rgba[i]!;
    rgba[i] = increasing === y >= bisect ? findInverse(pos, y, flip) : findInverse(neg, y, -flip);
  }
}
