// Sony Pictures Imageworks `.spi1d`: a 1D LUT over the `From` domain, 1 or 3 components.

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { domainOps, interp1D, lines, lut1dLengthProblem, numbers } from './text.js';

export function spi1dOps(text: string, file: string, interpolation: string): Op[] {
  let from = [0, 1];
  let length = 0,
    components = 1;
  const data: number[] = [];
  let inData = false,
    firstDataLine = 0;
  for (const { n, words } of lines(text)) {
    const key = words[0];
    if (key === undefined) continue;
    if (!inData) {
      if (key === 'Version') continue;
      if (key === 'From') from = numbers(words.slice(1), file, n, 2);
      else if (key === 'Length') {
        length = numbers(words.slice(1), file, n, 1)[0]!;
        const problem = lut1dLengthProblem(length);
        if (problem) throw new LutFileError(file, n, problem);
      } else if (key === 'Components') {
        components = numbers(words.slice(1), file, n, 1)[0]!;
        if (components !== 1 && components !== 3) throw new LutFileError(file, n, `Components ${components}: only 1 or 3 are read`);
      } else if (key === '{') inData = true;
      else throw new LutFileError(file, n, `unexpected "${key}" in the .spi1d header: expected Version, From, Length, Components or {`);
      continue;
    }
    if (key === '}') break;
    if (length === 0) throw new LutFileError(file, n, 'the table starts before a Length line: declare Length in the header');
    firstDataLine ||= n;
    data.push(...numbers(words, file, n, components));
    // a table longer than its Length stops at its first extra row, however large the file
    if (data.length > length * components)
      throw new LutFileError(file, n, `more rows than the ${length} entries Length declares: fix the Length line or the table`);
  }
  if (length === 0) throw new LutFileError(file, undefined, 'no Length line: a .spi1d declares its Length before the table');
  if (data.length !== length * components) {
    throw new LutFileError(
      file,
      firstDataLine || undefined,
      `Length says ${length} entries but the table has ${data.length / components}: fix the Length line or the table`,
    );
  }
  const values = new Float32Array(length * 3);
  for (let k = 0; k < length; k++) for (let c = 0; c < 3; c++) values[k * 3 + c] = data[k * components + (components === 1 ? 0 : c)]!;
  return [
    ...domainOps([from[0]!, from[0]!, from[0]!], [from[1]!, from[1]!, from[1]!]),
    { type: 'lut1d', direction: 'forward', length, values, interpolation: interp1D(interpolation), source: file },
  ];
}
