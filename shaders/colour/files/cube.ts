// `.cube` LUTs, Iridas/Adobe (1D or 3D, DOMAIN_MIN/MAX) and Resolve (LUT_1D/3D_INPUT_RANGE, a 1D shaper before a 3D LUT).

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { domainOps, interp1D, interp3D, lines, lut1dLengthProblem, lut3dSizeProblem, numbers, redFastestToBlueFastest } from './text.js';

export function cubeOps(text: string, file: string, interpolation: string): Op[] {
  let size1 = 0,
    size3 = 0;
  let domainMin = [0, 0, 0],
    domainMax = [1, 1, 1];
  let range1: number[] | undefined, range3: number[] | undefined;
  const data: number[] = [];
  let firstDataLine = 0;
  for (const { n, words } of lines(text)) {
    const key = words[0]?.toUpperCase();
    if (key === undefined || key.startsWith('#')) continue;
    if (key === 'TITLE') continue;
    const rest = words.slice(1);
    if (key === 'LUT_1D_SIZE') size1 = checkedSize(numbers(rest, file, n, 1)[0]!, lut1dLengthProblem, file, n);
    else if (key === 'LUT_3D_SIZE') size3 = checkedSize(numbers(rest, file, n, 1)[0]!, lut3dSizeProblem, file, n);
    else if (key === 'DOMAIN_MIN') domainMin = numbers(rest, file, n, 3);
    else if (key === 'DOMAIN_MAX') domainMax = numbers(rest, file, n, 3);
    else if (key === 'LUT_1D_INPUT_RANGE') range1 = numbers(rest, file, n, 2);
    else if (key === 'LUT_3D_INPUT_RANGE') range3 = numbers(rest, file, n, 2);
    else if (/^[A-Z_]+$/.test(key))
      throw new LutFileError(
        file,
        n,
        `unknown .cube keyword "${words[0]}": this reader knows TITLE, LUT_1D_SIZE, LUT_3D_SIZE, DOMAIN_MIN/MAX and LUT_1D/3D_INPUT_RANGE`,
      );
    else {
      // the size lines come first: the table may not run past what they declare, so a huge file stops at its first extra line
      if (size1 === 0 && size3 === 0) throw new LutFileError(file, n, 'a table row before LUT_1D_SIZE or LUT_3D_SIZE: not a .cube LUT');
      firstDataLine ||= n;
      data.push(...numbers(words, file, n, 3));
      if (data.length > (size1 + size3 ** 3) * 3)
        throw new LutFileError(file, n, `more rows than the ${size1 + size3 ** 3} entries the size lines declare: fix the size line`);
    }
  }
  if (size1 === 0 && size3 === 0) throw new LutFileError(file, undefined, 'no LUT_1D_SIZE or LUT_3D_SIZE line: not a .cube LUT');
  const entries = size1 + size3 ** 3;
  if (data.length !== entries * 3) {
    throw new LutFileError(
      file,
      firstDataLine || undefined,
      `the LUT declares ${entries} entries but has ${data.length / 3}: regenerate it or fix its size line`,
    );
  }
  const ops: Op[] = [];
  const domain = (range: number[] | undefined): Op[] =>
    range ? domainOps([range[0]!, range[0]!, range[0]!], [range[1]!, range[1]!, range[1]!]) : domainOps(domainMin, domainMax);
  if (size1) {
    // a Resolve shaper comes first; an Iridas 1D LUT is the whole file
    ops.push(...domain(range1), {
      type: 'lut1d',
      direction: 'forward',
      length: size1,
      values: Float32Array.from(data.slice(0, size1 * 3)),
      interpolation: interp1D(interpolation),
      source: `${file}#1d`,
    });
  }
  if (size3) {
    ops.push(...domain(range3), {
      type: 'lut3d',
      direction: 'forward',
      size: size3,
      values: redFastestToBlueFastest(data.slice(size1 * 3), size3),
      interpolation: interp3D(interpolation),
      source: `${file}#3d`,
    });
  }
  return ops;
}

function checkedSize(size: number, problem: (size: number) => string | undefined, file: string, line: number): number {
  const reason = problem(size);
  if (reason) throw new LutFileError(file, line, reason);
  return size;
}
