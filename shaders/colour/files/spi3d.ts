// Sony Pictures Imageworks `.spi3d`: a 3D LUT listed as index triples with their values.

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { interp3D, lines, lut3dSizeProblem, numbers } from './text.js';

export function spi3dOps(text: string, file: string, interpolation: string): Op[] {
  const rows = (function* () {
    for (const line of lines(text)) if (line.words.length > 0) yield line;
  })();
  const header = [rows.next().value, rows.next().value, rows.next().value];
  if (header[0]?.words[0] !== 'SPILUT') throw new LutFileError(file, 1, 'the first line is not "SPILUT 1.0": not a .spi3d LUT');
  const sizeLine = header[2];
  if (!sizeLine) throw new LutFileError(file, undefined, 'no size line: the .spi3d is cut short');
  const [nr, ng, nb] = numbers(sizeLine.words, file, sizeLine.n, 3) as [number, number, number];
  if (nr !== ng || ng !== nb) throw new LutFileError(file, sizeLine.n, `size ${nr} ${ng} ${nb}: a .spi3d must be a cube`);
  const sizeProblem = lut3dSizeProblem(nr);
  if (sizeProblem) throw new LutFileError(file, sizeLine.n, sizeProblem);
  const n = nr;
  const values = new Float32Array(n * n * n * 3);
  const filled = new Uint8Array(n * n * n);
  let count = 0;
  for (const { n: lineNo, words } of rows) {
    // OCIO reads as many rows as the lattice holds and ignores the rest
    if (++count > n * n * n) break;
    const [r, g, b, vr, vg, vb] = numbers(words, file, lineNo, 6) as [number, number, number, number, number, number];
    if (![r, g, b].every((k) => Number.isInteger(k) && k >= 0 && k < n))
      throw new LutFileError(file, lineNo, `index ${r} ${g} ${b} is outside the ${n}³ lattice`);
    const at = (r * n + g) * n + b;
    values.set([vr, vg, vb], at * 3);
    filled[at] = 1;
  }
  const missing = filled.indexOf(0);
  if (missing >= 0)
    throw new LutFileError(
      file,
      sizeLine.n,
      `the ${n}³ lattice this line declares misses entries (the first at index ${missing}): the .spi3d is cut short`,
    );
  return [{ type: 'lut3d', direction: 'forward', size: n, values, interpolation: interp3D(interpolation), source: file }];
}
