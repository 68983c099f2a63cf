// The exact inverse of a 3D LUT, as OCIO's lossless path computes it: the tetrahedron of the (extrapolated) lattice holding the value.

import type { Lut3DOp } from './op.js';

/** OCIO widens each cell's range by this, for error in the forward evaluation. */
const RANGE_TOL = 1e-6;
/** OCIO's feasibility tolerance on the barycentric weights. */
const WEIGHT_TOL = 1e-9;
const BINS = 16;

interface Inverse {
  /** The lattice grown by one cell on each side, extrapolated outward from 0.5 by 4×, as OCIO does before inverting. */
  grid: Float32Array;
  dim: number;
  /** Per cell (indexed like the lattice's base corners): min RGB then max RGB. */
  ranges: Float32Array;
  /** Cells overlapping each of BINS³ bins of the value range, to search only those. */
  bins: Int32Array[];
  lo: number[];
  hi: number[];
}

const cache = new WeakMap<Float32Array, Inverse>();

export function applyInverseLut3D(op: Lut3DOp, rgba: Float32Array): void {
  const inverse = prepare(op);
  const { dim } = inverse;
  const scale = 1 / (dim - 3);
  const maxIndex = dim - 3;
  const found = [0, 0, 0];
  for (let i = 0; i < rgba.length; i += 4) {
    const value = [clamp01(rgba[i]!), clamp01(rgba[i + 1]!), clamp01(rgba[i + 2]!)];
    const hit = search(inverse, value, found);
    for (let c = 0; c < 3; c++) {
      const index = hit ? found[c]! - 1 : -1;
      rgba[i + c] = Math.fround(Math.fround(Math.min(Math.max(index, 0), maxIndex)) * Math.fround(scale));
    }
  }
}

/** OCIO's Clamp(v, 0, 1), std::min(std::max(0, v), 1): a NaN becomes 0. */
function clamp01(v: number): number {
  return v > 0 ? (v > 1 ? 1 : v) : 0;
}

function prepare(op: Lut3DOp): Inverse {
  const cached = cache.get(op.values);
  if (cached) return cached;
  const n = op.size,
    dim = n + 2;
  const grid = new Float32Array(dim * dim * dim * 3);
  const src = op.values;
  for (let r = 0; r < dim; r++)
    for (let g = 0; g < dim; g++)
      for (let b = 0; b < dim; b++) {
        const sr = Math.min(Math.max(r - 1, 0), n - 1),
          sg = Math.min(Math.max(g - 1, 0), n - 1),
          sb = Math.min(Math.max(b - 1, 0), n - 1);
        const outside = r === 0 || g === 0 || b === 0 || r === dim - 1 || g === dim - 1 || b === dim - 1;
        const from = ((sr * n + sg) * n + sb) * 3,
          to = ((r * dim + g) * dim + b) * 3;
        for (let c = 0; c < 3; c++) {
          const v = src[from + c]!;
          grid[to + c] = outside ? Math.fround(Math.fround(Math.fround(v - 0.5) * 4) + 0.5) : v;
        }
      }
  const cells = (dim - 1) ** 3;
  const ranges = new Float32Array(cells * 6);
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let r = 0; r < dim - 1; r++)
    for (let g = 0; g < dim - 1; g++)
      for (let b = 0; b < dim - 1; b++) {
        const cell = (r * (dim - 1) + g) * (dim - 1) + b;
        for (let c = 0; c < 3; c++) {
          let min = Infinity,
            max = -Infinity;
          for (let k = 0; k < 8; k++) {
            const v = grid[(((r + (k >> 2)) * dim + g + ((k >> 1) & 1)) * dim + b + (k & 1)) * 3 + c]!;
            min = Math.min(min, v);
            max = Math.max(max, v);
          }
          ranges[cell * 6 + c] = Math.fround(min - RANGE_TOL);
          ranges[cell * 6 + 3 + c] = Math.fround(max + RANGE_TOL);
          lo[c] = Math.min(lo[c]!, ranges[cell * 6 + c]!);
          hi[c] = Math.max(hi[c]!, ranges[cell * 6 + 3 + c]!);
        }
      }
  const lists: number[][] = Array.from({ length: BINS ** 3 }, () => []);
  const binOf = (v: number, c: number): number => binIndex(v, lo[c]!, hi[c]!);
  for (let cell = 0; cell < cells; cell++) {
    const b0 = [0, 1, 2].map((c) => binOf(ranges[cell * 6 + c]!, c)),
      b1 = [0, 1, 2].map((c) => binOf(ranges[cell * 6 + 3 + c]!, c));
    for (let x = b0[0]!; x <= b1[0]!; x++)
      for (let y = b0[1]!; y <= b1[1]!; y++) for (let z = b0[2]!; z <= b1[2]!; z++) lists[(x * BINS + y) * BINS + z]!.push(cell);
  }
  // OCIO searches the cells in the order of its range tree's hash (a Morton code, red in the lowest bit): the first cell that
  // holds the value wins, which decides between the several answers of a LUT that is not one-to-one
  const cps = dim - 1;
  const depth = Math.floor(Math.log2(n)) + 1;
  const hashOf = (cell: number): number => {
    const ind = [Math.floor(cell / (cps * cps)), Math.floor(cell / cps) % cps, cell % cps];
    let hash = 0;
    for (let level = 0; level < depth; level++) {
      const shift = depth - 1 - level;
      const key = ((ind[0]! >> shift) & 1) + 2 * ((ind[1]! >> shift) & 1) + 4 * ((ind[2]! >> shift) & 1);
      hash += key * 16 ** shift;
    }
    return hash;
  };
  const hashes = new Float64Array(cells);
  for (let cell = 0; cell < cells; cell++) hashes[cell] = hashOf(cell);
  const bins = lists.map((l) => Int32Array.from(l.sort((a, b) => hashes[a]! - hashes[b]!)));
  const inverse: Inverse = { grid, dim, ranges, bins, lo, hi };
  cache.set(op.values, inverse);
  return inverse;
}

/** The bin of `v` in [lo, hi] (a LUT of NaNs or one flat channel puts everything in bin 0). */
function binIndex(v: number, lo: number, hi: number): number {
  const at = Math.floor(((v - lo) / (hi - lo)) * BINS);
  return at > 0 ? Math.min(at, BINS - 1) : 0;
}

/** The six tetrahedra of a cell, as the axis order of their path from corner 000 to 111, in the order OCIO tries them. */
const PATHS = [
  [0, 1, 2],
  [1, 0, 2],
  [1, 2, 0],
  [2, 1, 0],
  [2, 0, 1],
  [0, 2, 1],
] as const;

/** Finds the lattice position (in extrapolated-grid index units) whose interpolated value is `value`; false when none is. */
function search(inverse: Inverse, value: number[], out: number[]): boolean {
  const { grid, dim, ranges, bins, lo, hi } = inverse;
  if (value.some(Number.isNaN)) return false;
  if (value.some((v, c) => !(v >= lo[c]! && v <= hi[c]!))) return false;
  const bin = [0, 1, 2].map((c) => binIndex(value[c]!, lo[c]!, hi[c]!));
  const list = bins[(bin[0]! * BINS + bin[1]!) * BINS + bin[2]!]!;
  const cellsPerSide = dim - 1;
  const at = (r: number, g: number, b: number): number => ((r * dim + g) * dim + b) * 3;
  for (const cell of list) {
    if (
      value[0]! < ranges[cell * 6]! ||
      value[1]! < ranges[cell * 6 + 1]! ||
      value[2]! < ranges[cell * 6 + 2]! ||
      value[0]! > ranges[cell * 6 + 3]! ||
      value[1]! > ranges[cell * 6 + 4]! ||
      value[2]! > ranges[cell * 6 + 5]!
    )
      continue;
    const base = [Math.floor(cell / (cellsPerSide * cellsPerSide)), Math.floor(cell / cellsPerSide) % cellsPerSide, cell % cellsPerSide];
    const origin = at(base[0]!, base[1]!, base[2]!);
    const rhs = [value[0]! - grid[origin]!, value[1]! - grid[origin + 1]!, value[2]! - grid[origin + 2]!];
    for (const path of PATHS) {
      // the path's vertices: 000, then one axis at a time up to 111; edges e1..e3 between them
      const corner = [base[0]!, base[1]!, base[2]!];
      let prev = origin;
      const edges: number[][] = [];
      for (const axis of path) {
        corner[axis]!++;
        const next = at(corner[0]!, corner[1]!, corner[2]!);
        edges.push([grid[next]! - grid[prev]!, grid[next + 1]! - grid[prev + 1]!, grid[next + 2]! - grid[prev + 2]!]);
        prev = next;
      }
      const s = solve3(edges, rhs) ?? solveFlat(edges, rhs);
      if (!s) continue;
      // weights of the four vertices: 1 - s1, s1 - s2, s2 - s3, s3
      const [s1, s2, s3] = s as [number, number, number];
      if (s3 < -WEIGHT_TOL || s2 - s3 < -WEIGHT_TOL || s1 - s2 < -WEIGHT_TOL || s1 > 1 + WEIGHT_TOL) continue;
      out[path[0]] = base[path[0]]! + Math.fround(s1);
      out[path[1]] = base[path[1]]! + Math.fround(s2);
      out[path[2]] = base[path[2]]! + Math.fround(s3);
      return true;
    }
  }
  return false;
}

/** Solves [e1 e2 e3]·s = rhs (columns e_k) in double; undefined when the tetrahedron is flat. */
function solve3(e: number[][], rhs: number[]): number[] | undefined {
  const [a, b, c] = e as [number[], number[], number[]];
  const det = a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) - b[0]! * (a[1]! * c[2]! - a[2]! * c[1]!) + c[0]! * (a[1]! * b[2]! - a[2]! * b[1]!);
  const norm = (v: number[]): number => Math.hypot(v[0]!, v[1]!, v[2]!);
  if (Math.abs(det) <= 1e-9 * norm(a) * norm(b) * norm(c)) return undefined;
  const solveFor = (col: 0 | 1 | 2): number => {
    const m = [a, b, c].map((v, k) => (k === col ? rhs : v)) as [number[], number[], number[]];
    const [x, y, z] = m;
    return (
      (x[0]! * (y[1]! * z[2]! - y[2]! * z[1]!) - y[0]! * (x[1]! * z[2]! - x[2]! * z[1]!) + z[0]! * (x[1]! * y[2]! - x[2]! * y[1]!)) / det
    );
  };
  return [solveFor(0), solveFor(1), solveFor(2)];
}

/**
 * A flat tetrahedron (the lattice folds, as at a LUT's gamut edge): a point of one of its faces that gives the value, as
 * OCIO's rank-revealing solve finds one. Returns the path parameters, or undefined when no face holds the value.
 */
function solveFlat(e: number[][], rhs: number[]): number[] | undefined {
  // vertex offsets from corner 000: d1 = e1, d2 = e1 + e2, d3 = e1 + e2 + e3; value - v0 = w1·d1 + w2·d2 + w3·d3
  const d1 = e[0]!,
    d2 = d1.map((v, i) => v + e[1]![i]!),
    d3 = d2.map((v, i) => v + e[2]![i]!);
  const scale = Math.max(1e-30, Math.hypot(...d1, ...d2, ...d3, ...rhs));
  const faces: [number[], number[], number[], (x: number, y: number) => number[]][] = [
    [d1, d2, rhs, (x, y) => [x, y, 0]],
    [d1, d3, rhs, (x, y) => [x, 0, y]],
    [d2, d3, rhs, (x, y) => [0, x, y]],
    // the face opposite corner 000: w1 + w2 + w3 = 1
    [d1.map((v, i) => v - d3[i]!), d2.map((v, i) => v - d3[i]!), rhs.map((v, i) => v - d3[i]!), (x, y) => [x, y, 1 - x - y]],
  ];
  for (const [p, q, r, weights] of faces) {
    // least squares in the face's two unknowns, kept only when it reproduces the value
    const pp = dot(p, p),
      pq = dot(p, q),
      qq = dot(q, q);
    const det = pp * qq - pq * pq;
    if (Math.abs(det) <= 1e-12 * pp * qq || det === 0) continue;
    const pr = dot(p, r),
      qr = dot(q, r);
    const x = (pr * qq - qr * pq) / det,
      y = (qr * pp - pr * pq) / det;
    const residual = Math.hypot(...r.map((v, i) => v - x * p[i]! - y * q[i]!));
    if (residual > 1e-7 * scale) continue;
    const [w1, w2, w3] = weights(x, y) as [number, number, number];
    if (w1 < -WEIGHT_TOL || w2 < -WEIGHT_TOL || w3 < -WEIGHT_TOL || w1 + w2 + w3 > 1 + WEIGHT_TOL) continue;
    return [w1 + w2 + w3, w2 + w3, w3];
  }
  return undefined;
}

function dot(a: number[], b: number[]): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}
