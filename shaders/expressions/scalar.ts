// What each operation does to float32 scalars: the CPU reference, and the definition the WGSL helpers follow where
// WGSL leaves a result undefined (NaN, infinities, negatives into sqrt/log/pow). Every result is rounded to float32.
import type { Fn } from './functions.js';
import { LUMA } from './functions.js';

const f = Math.fround;
const isNan = (x: number): boolean => x !== x;

/**
 * x^y: NaN if either is NaN; 1 when y is 0; |x|^y with 0^y and inf^y by the sign of y and 1^y = 1; for x < 0 an
 * integer y gives the sign of x^y by its parity, any other y NaN. (Not JavaScript's: 1^inf is 1, (-0)^-1 is +inf.)
 */
export function pow32(x: number, y: number): number {
  if (isNan(x) || isNan(y)) return NaN;
  if (y === 0) return 1;
  const ax = Math.abs(x);
  const m = ax === 0 ? (y > 0 ? 0 : Infinity) : ax === Infinity ? (y > 0 ? Infinity : 0) : ax === 1 ? 1 : f(Math.pow(ax, y));
  if (!(x < 0)) return m;
  const integer = Number.isFinite(y) && Math.floor(y) === y;
  if (!integer) return NaN;
  return Math.floor(y * 0.5) !== y * 0.5 ? -m : m;
}

export const min32 = (a: number, b: number): number => (isNan(a) || isNan(b) ? NaN : Math.min(a, b));
export const max32 = (a: number, b: number): number => (isNan(a) || isNan(b) ? NaN : Math.max(a, b));

/** Component-wise operations on float32 scalars (already broadcast); comparisons give 1 or 0, false with a NaN but !=. */
export const COMPONENTWISE: Partial<Record<Fn, (a: number, b: number, c: number) => number>> = {
  add: (a, b) => f(a + b),
  sub: (a, b) => f(a - b),
  mul: (a, b) => f(a * b),
  div: (a, b) => f(a / b),
  neg: (a) => -a,
  lt: (a, b) => (a < b ? 1 : 0),
  le: (a, b) => (a <= b ? 1 : 0),
  gt: (a, b) => (a > b ? 1 : 0),
  ge: (a, b) => (a >= b ? 1 : 0),
  eq: (a, b) => (a === b ? 1 : 0),
  ne: (a, b) => (a !== b ? 1 : 0),
  abs: (a) => Math.abs(a),
  sqrt: (a) => (a < 0 ? NaN : f(Math.sqrt(a))),
  exp: (a) => f(Math.exp(a)),
  log: (a) => f(Math.log(a)),
  floor: (a) => Math.floor(a),
  min: min32,
  max: max32,
  pow: pow32,
  clamp: (x, lo, hi) => min32(max32(x, lo), hi),
  lerp: (a, b, t) => f(a + f(f(b - a) * t)),
  // a condition holds when it is neither 0 nor NaN
  select: (c, a, b) => (c !== 0 && !isNan(c) ? a : b),
};

export const LUMA32 = LUMA.map(f) as [number, number, number];

/** Left to right, each product and sum rounded: (a0 b0 + a1 b1) + a2 b2 (+ a3 b3). */
export function dot32(a: readonly number[], b: readonly number[]): number {
  let sum = f(a[0]! * b[0]!);
  for (let k = 1; k < a.length; k++) sum = f(sum + f(a[k]! * b[k]!));
  return sum;
}
