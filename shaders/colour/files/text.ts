// What the text LUT readers share: lines split into words, numbers read with the line they are on, domain scaling, interpolation names.

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';

/** OCIO's largest 1D LUT (1024² entries): a longer one fails at its size line, before its table is allocated. */
export const MAX_LUT1D_LENGTH = 1 << 20;
/** OCIO's largest 3D LUT edge: a bigger cube fails at its size line, before its table is allocated. */
export const MAX_LUT3D_SIZE = 129;

/** Why a declared size is refused, the same words for every format. */
export function lut1dLengthProblem(length: number): string | undefined {
  if (Number.isInteger(length) && length >= 2 && length <= MAX_LUT1D_LENGTH) return undefined;
  return `a 1D LUT of ${length} entries: OCIO reads 2 to ${MAX_LUT1D_LENGTH} (1024²); resample the LUT`;
}

export function lut3dSizeProblem(size: number): string | undefined {
  if (Number.isInteger(size) && size >= 2 && size <= MAX_LUT3D_SIZE) return undefined;
  return `a 3D LUT of ${size} per side: OCIO reads 2 to ${MAX_LUT3D_SIZE}; resample the LUT`;
}

export interface Line {
  n: number;
  words: string[];
}

/** The lines of a text, each split into words, one at a time: a reader that stops early never holds a huge file's lines. */
export function* lines(text: string): Generator<Line> {
  let start = 0;
  for (let n = 1; start <= text.length; n++) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    yield { n, words: line.split(/\s+/).filter((w) => w !== '') };
    if (end < 0) return;
    start = end + 1;
  }
}

export function numbers(words: string[], file: string, line: number | undefined, count: number): number[] {
  if (words.length < count)
    throw new LutFileError(file, line, `expected ${count} numbers, found ${words.length}: the LUT is cut short or malformed`);
  return words.slice(0, count).map((w) => {
    const v = Number(w);
    if (Number.isNaN(v) && !/^nan$/i.test(w)) throw new LutFileError(file, line, `"${w}" is not a number: the LUT is malformed`);
    return v;
  });
}

/** A matrix op mapping [min, max] per channel to [0, 1], or nothing when the domain is already [0, 1] (OCIO's MinMax op). */
export function domainOps(min: number[], max: number[]): Op[] {
  if (min.every((v) => v === 0) && max.every((v) => v === 1)) return [];
  const scale = [0, 1, 2].map((c) => 1 / (max[c]! - min[c]!));
  return [
    {
      type: 'matrix',
      m: [scale[0]!, 0, 0, 0, 0, scale[1]!, 0, 0, 0, 0, scale[2]!, 0, 0, 0, 0, 1],
      offset: [-min[0]! * scale[0]!, -min[1]! * scale[1]!, -min[2]! * scale[2]!, 0],
    },
  ];
}

export function interp1D(interpolation: string): 'linear' | 'nearest' {
  return interpolation === 'nearest' ? 'nearest' : 'linear';
}

export function interp3D(interpolation: string): 'linear' | 'tetrahedral' | 'nearest' {
  if (interpolation === 'nearest') return 'nearest';
  return interpolation === 'tetrahedral' || interpolation === 'best' ? 'tetrahedral' : 'linear';
}

/** A table listed red fastest (.cube, .csp) reordered blue fastest, as the 3D LUT op holds it. */
export function redFastestToBlueFastest(data: ArrayLike<number>, n: number): Float32Array {
  const values = new Float32Array(n * n * n * 3);
  for (let b = 0; b < n; b++)
    for (let g = 0; g < n; g++)
      for (let r = 0; r < n; r++) {
        const src = ((b * n + g) * n + r) * 3,
          dst = ((r * n + g) * n + b) * 3;
        values[dst] = data[src]!;
        values[dst + 1] = data[src + 1]!;
        values[dst + 2] = data[src + 2]!;
      }
  return values;
}

/** The edge length of a cube of `entries` lattice points, or undefined when `entries` is not a cube. */
export function cubeEdge(entries: number): number | undefined {
  const n = Math.round(Math.cbrt(entries));
  return n * n * n === entries ? n : undefined;
}
