// MatrixTransform: out = M·in + offset over RGBA; inverse and composition computed in double precision as OCIO does.

import type { MatrixOp } from './op.js';

export function applyMatrix(op: MatrixOp, rgba: Float32Array): void {
  const m = op.m.map(Math.fround);
  const o = op.offset.map(Math.fround);
  if (m.every((v, k) => k % 5 === 0 || v === 0)) {
    // OCIO renders a diagonal matrix as a per-channel scale, so an infinite channel does not spill NaN into the others
    for (let i = 0; i < rgba.length; i++) rgba[i] = m[(i & 3) * 5]! * rgba[i]! + o[i & 3]!;
    return;
  }
  const f = Math.fround;
  // float32 products and sums in OCIO's order, so that cancellation at large values rounds as it does
  const row = (k: number, r: number, g: number, b: number, a: number): number =>
    f(f(f(f(f(m[k]! * r) + f(m[k + 1]! * g)) + f(m[k + 2]! * b)) + f(m[k + 3]! * a)) + o[k / 4]!);
  for (let i = 0; i < rgba.length; i += 4) {
    const r = rgba[i]!,
      g = rgba[i + 1]!,
      b = rgba[i + 2]!,
      a = rgba[i + 3]!;
    rgba[i] = row(0, r, g, b, a);
    rgba[i + 1] = row(4, r, g, b, a);
    rgba[i + 2] = row(8, r, g, b, a);
    rgba[i + 3] = row(12, r, g, b, a);
  }
}

/** The op that applies `first`, then `second`. */
export function composeMatrices(first: MatrixOp, second: MatrixOp): MatrixOp {
  const m: number[] = [];
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 4; col++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += second.m[row * 4 + k]! * first.m[k * 4 + col]!;
      m.push(sum);
    }
  }
  const carried = [0, 1, 2, 3].map((row) => {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += second.m[row * 4 + k]! * first.offset[k]!;
    return sum;
  });
  const offsetScale = Math.max(...carried.map(Math.abs), ...second.offset.map(Math.abs));
  const offset = carried.map((v, row) => v + second.offset[row]!);
  // as OCIO: values within a relative 1e-7 of an integer become that integer, so that a matrix and its inverse compose to exactly I
  const snap = (values: number[], scale: number): number[] => {
    const tolerance = Math.max(scale, 1e-4) * 1e-7;
    return values.map((v) => (Math.abs(v - Math.round(v)) < tolerance ? Math.round(v) : v));
  };
  return { type: 'matrix', m: snap(m, Math.max(...m.map(Math.abs))), offset: snap(offset, offsetScale) };
}

/** The inverse, or undefined when the matrix is singular. */
export function invertMatrix(op: MatrixOp): MatrixOp | undefined {
  const a = [...op.m];
  const inv = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let row = col + 1; row < 4; row++) if (Math.abs(a[row * 4 + col]!) > Math.abs(a[pivot * 4 + col]!)) pivot = row;
    if (Math.abs(a[pivot * 4 + col]!) < 1e-300) return undefined;
    for (let k = 0; k < 4; k++) {
      [a[col * 4 + k], a[pivot * 4 + k]] = [a[pivot * 4 + k]!, a[col * 4 + k]!];
      [inv[col * 4 + k], inv[pivot * 4 + k]] = [inv[pivot * 4 + k]!, inv[col * 4 + k]!];
    }
    const p = a[col * 4 + col]!;
    for (let k = 0; k < 4; k++) {
      a[col * 4 + k] = a[col * 4 + k]! / p;
      inv[col * 4 + k] = inv[col * 4 + k]! / p;
    }
    for (let row = 0; row < 4; row++) {
      if (row === col) continue;
      const f = a[row * 4 + col]!;
      if (f === 0) continue;
      for (let k = 0; k < 4; k++) {
        a[row * 4 + k] = a[row * 4 + k]! - f * a[col * 4 + k]!;
        inv[row * 4 + k] = inv[row * 4 + k]! - f * inv[col * 4 + k]!;
      }
    }
  }
  const offset = [0, 1, 2, 3].map(
    (row) =>
      -(
        inv[row * 4]! * op.offset[0]! +
        inv[row * 4 + 1]! * op.offset[1]! +
        inv[row * 4 + 2]! * op.offset[2]! +
        inv[row * 4 + 3]! * op.offset[3]!
      ),
  );
  return { type: 'matrix', m: inv, offset };
}

/** OCIO's test: no offsets, off-diagonal exactly 0, diagonal within 1e-6 of 1. */
export function isIdentityMatrix(op: MatrixOp): boolean {
  return op.m.every((v, i) => (i % 5 === 0 ? Math.abs(v - 1) <= 1e-6 : v === 0)) && op.offset.every((v) => v === 0);
}
