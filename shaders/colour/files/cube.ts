// `.cube` LUTs, Iridas/Adobe (1D or 3D, DOMAIN_MIN/MAX) and Resolve (LUT_1D/3D_INPUT_RANGE, a 1D shaper before a 3D LUT).

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { domainOps, interp1D, interp3D, lines, MAX_ENTRIES, numbers, redFastestToBlueFastest } from './text.js';

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
    if (key === 'LUT_1D_SIZE') size1 = numbers(rest, file, n, 1)[0]!;
    else if (key === 'LUT_3D_SIZE') size3 = numbers(rest, file, n, 1)[0]!;
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
      firstDataLine ||= n;
      data.push(...numbers(words, file, n, 3));
      if (data.length > MAX_ENTRIES * 3) throw new LutFileError(file, n, 'more than 2^26 entries: the LUT is too large to read');
    }
  }
  if (size1 === 0 && size3 === 0) throw new LutFileError(file, undefined, 'no LUT_1D_SIZE or LUT_3D_SIZE line: not a .cube LUT');
  if (size1 !== 0 && !(size1 >= 2 && size1 <= MAX_ENTRIES))
    throw new LutFileError(file, undefined, `LUT_1D_SIZE ${size1} is not allowed: the size must be 2 to ${MAX_ENTRIES}`);
  if (size3 !== 0 && !(size3 >= 2 && size3 <= 256))
    throw new LutFileError(file, undefined, `LUT_3D_SIZE ${size3} is not allowed: the size must be 2 to 256`);
  const entries = size1 + size3 ** 3;
  if (data.length !== entries * 3) {
    throw new LutFileError(
      file,
      firstDataLine,
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
