// Autodesk Lustre/Flame `.3dl`: an optional 1D shaper line of integers, then integer RGB triples, blue fastest; bit depths inferred.

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { cubeEdge, interp3D, lut3dSizeProblem, MAX_LUT1D_LENGTH, MAX_LUT3D_SIZE } from './text.js';

/** The bit depth whose code values a table's largest value most likely uses, as OCIO guesses it (2× overshoot allowed). */
function likelyBitDepth(max: number): number {
  for (let bits = 8; bits <= 16; bits += 2) {
    if (max <= 2 ** bits * 2 - 1) return bits === 14 ? 16 : bits;
  }
  return 16;
}

/** OCIO rejects tables whose largest value is below this: they are not integer code values. */
const LOWEST_PLAUSIBLE_MAX = 128;

export function lustre3dlOps(text: string, file: string, interpolation: string): Op[] {
  let shaper: number[] | undefined;
  const lattice: number[] = [];
  let latticeMax = 0,
    firstLatticeLine: number | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const words = raw
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0 || words[0]!.startsWith('#')) return;
    if (words[0]!.startsWith('<')) throw new LutFileError(file, i + 1, 'a line starts with "<": this looks like XML, not a .3dl');
    // keywords (3DMESH, Mesh, LUT8, gamma) and other text lines are skipped, as OCIO does
    if (!words.every((w) => /^[-+]?\d+$/.test(w))) return;
    const ints = words.map(Number);
    if (ints.length > 3) {
      if (shaper) throw new LutFileError(file, i + 1, 'a second shaper line: a .3dl has at most one');
      if (ints.length > MAX_LUT1D_LENGTH) throw new LutFileError(file, i + 1, `a shaper of ${ints.length} entries: resample the LUT`);
      shaper = ints;
    } else if (ints.length === 3) {
      if (lattice.length >= MAX_LUT3D_SIZE ** 3 * 3)
        throw new LutFileError(file, i + 1, `more than ${MAX_LUT3D_SIZE}³ entries: OCIO reads 3D LUTs of 2 to ${MAX_LUT3D_SIZE} per side`);
      firstLatticeLine ??= i + 1;
      lattice.push(...ints);
      latticeMax = Math.max(latticeMax, ...ints);
    } else {
      throw new LutFileError(file, i + 1, 'a line of fewer than 3 integers: each 3D entry needs red, green and blue');
    }
  });
  if (!shaper && lattice.length === 0) throw new LutFileError(file, undefined, 'no shaper and no 3D LUT: not a .3dl LUT');
  const ops: Op[] = [];
  if (shaper) {
    const shaperMax = shaper.reduce((a, b) => Math.max(a, b), -Infinity);
    if (shaperMax < LOWEST_PLAUSIBLE_MAX)
      throw new LutFileError(file, undefined, `the shaper's largest value, ${shaperMax}, is too small for integer code values`);
    const scale = 2 ** likelyBitDepth(shaperMax) - 1;
    const step = scale / (shaper.length - 1);
    // OCIO drops a shaper within 2 code values of the identity
    const identity = shaper.every((v, k) => Math.abs(k * step - v) < 2);
    if (!identity) {
      const values = new Float32Array(shaper.length * 3);
      shaper.forEach((v, k) => values.fill(v / scale, k * 3, k * 3 + 3));
      ops.push({ type: 'lut1d', direction: 'forward', length: shaper.length, values, interpolation: 'linear', source: `${file}#shaper` });
    }
  }
  if (lattice.length > 0) {
    if (latticeMax < LOWEST_PLAUSIBLE_MAX)
      throw new LutFileError(file, undefined, `the 3D LUT's largest value, ${latticeMax}, is too small for integer code values`);
    const n = cubeEdge(lattice.length / 3);
    if (n === undefined || n < 2)
      throw new LutFileError(
        file,
        firstLatticeLine,
        `the ${lattice.length / 3} entries from here do not make a cube: the .3dl is cut short`,
      );
    const sizeProblem = lut3dSizeProblem(n);
    if (sizeProblem) throw new LutFileError(file, firstLatticeLine, sizeProblem);
    const scale = 2 ** likelyBitDepth(latticeMax) - 1;
    const values = Float32Array.from(lattice, (v) => v / scale);
    ops.push({ type: 'lut3d', direction: 'forward', size: n, values, interpolation: interp3D(interpolation), source: file });
  }
  return ops;
}
