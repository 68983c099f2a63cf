// Rising Sun Research `.csp` (cineSpace): a per-channel prelut (resampled as OCIO does) then a 1D or 3D LUT.

import { LutFileError } from './lut-error.js';
import type { Op } from '../ops/op.js';
import { domainOps, interp1D, interp3D, lut3dSizeProblem, MAX_LUT1D_LENGTH, numbers, redFastestToBlueFastest } from './text.js';

const f = Math.fround;
/** OCIO resamples the prelut's spline into a 1D LUT of this many entries. */
const PRELUT_SAMPLES = 65536;

export function cspOps(text: string, file: string, interpolation: string): Op[] {
  const rows = text.split(/\r?\n/).map((line, i) => ({ n: i + 1, text: line.trim() }));
  // blank lines are skipped everywhere, as OCIO's reader does
  const content = rows.filter((r) => r.text !== '');
  let at = 0;
  const next = (what: string): { n: number; text: string } => {
    const row = content[at++];
    if (!row) throw new LutFileError(file, content.at(-1)?.n, `the file ends before ${what}: the .csp is cut short`);
    return row;
  };
  const words = (row: { text: string }): string[] => row.text.split(/\s+/).filter((w) => w !== '');
  if (!next('the header').text.toUpperCase().startsWith('CSPLUTV100'))
    throw new LutFileError(file, 1, 'the first line is not "CSPLUTV100": not a .csp LUT');
  const typeRow = next('the LUT type');
  const type = typeRow.text.toUpperCase().slice(0, 2);
  if (type !== '1D' && type !== '3D') throw new LutFileError(file, typeRow.n, `LUT type "${typeRow.text}": a .csp is 1D or 3D`);
  if (content[at]?.text.toUpperCase().startsWith('BEGIN METADATA')) {
    while (at < content.length && !content[at]!.text.toUpperCase().startsWith('END METADATA')) at++;
    at++;
  }
  const prelut: { inputs: number[]; outputs: number[]; used: boolean }[] = [];
  for (let c = 0; c < 3; c++) {
    const countRow = next('a prelut');
    const count = Number(countRow.text);
    if (!Number.isInteger(count) || count < 0) throw new LutFileError(file, countRow.n, `"${countRow.text}" is not a prelut size`);
    if (count < 2) {
      prelut.push({ inputs: [0, 1], outputs: [0, 1], used: false });
      continue;
    }
    const inRow = next('the prelut inputs'),
      outRow = next('the prelut outputs');
    const inputs = numbers(words(inRow), file, inRow.n, count).map(f),
      outputs = numbers(words(outRow), file, outRow.n, count).map(f);
    if (words(inRow).length !== count || words(outRow).length !== count)
      throw new LutFileError(file, inRow.n, `the prelut lists a number of points other than ${count}: fix its size line`);
    const used = inputs.some((v, i) => Math.abs(v - outputs[i]!) > 1e-6 * Math.max(Math.abs(v), Math.abs(outputs[i]!)));
    prelut.push({ inputs, outputs, used });
  }
  const ops: Op[] = [];
  if (prelut.some((p) => p.used)) {
    const values = new Float32Array(PRELUT_SAMPLES * 3);
    for (let c = 0; c < 3; c++) {
      const { inputs, outputs } = prelut[c]!;
      const spline = cineSpaceSpline(inputs, outputs);
      const lo = inputs[0]!,
        hi = inputs[inputs.length - 1]!;
      for (let i = 0; i < PRELUT_SAMPLES; i++) {
        const t = f(i / (PRELUT_SAMPLES - 1));
        values[i * 3 + c] = spline(f(f(f(hi - lo) * t) + lo));
      }
    }
    const min = prelut.map((p) => p.inputs[0]!),
      max = prelut.map((p) => p.inputs[p.inputs.length - 1]!);
    ops.push(...domainOps(min, max), {
      type: 'lut1d',
      direction: 'forward',
      length: PRELUT_SAMPLES,
      values,
      interpolation: 'linear',
      source: `${file}#prelut`,
    });
  }
  if (type === '1D') {
    const lengthRow = next('the 1D LUT size');
    const length = Number(lengthRow.text);
    if (!(Number.isInteger(length) && length > 0 && length <= MAX_LUT1D_LENGTH))
      throw new LutFileError(file, lengthRow.n, `1D LUT size "${lengthRow.text}" is not 1 to ${MAX_LUT1D_LENGTH}: resample the LUT`);
    // the table is allocated only when the file holds that many rows
    if (content.length - at < length)
      throw new LutFileError(file, lengthRow.n, `the file ends before the ${length} rows this line declares: the .csp is cut short`);
    const values = new Float32Array(length * 3);
    for (let i = 0; i < length; i++) {
      const row = next('the end of the 1D LUT');
      values.set(numbers(words(row), file, row.n, 3), i * 3);
    }
    ops.push({ type: 'lut1d', direction: 'forward', length, values, interpolation: interp1D(interpolation), source: file });
  } else {
    const sizeRow = next('the 3D LUT size');
    const [r, g, b] = numbers(words(sizeRow), file, sizeRow.n, 3);
    if (r !== g || g !== b) throw new LutFileError(file, sizeRow.n, `3D LUT size ${sizeRow.text}: a .csp 3D LUT must be a cube`);
    const sizeProblem = lut3dSizeProblem(r!);
    if (sizeProblem) throw new LutFileError(file, sizeRow.n, sizeProblem);
    const n = r!;
    if (content.length - at < n * n * n)
      throw new LutFileError(file, sizeRow.n, `the file ends before the ${n}³ rows this line declares: the .csp is cut short`);
    const data = new Float32Array(n * n * n * 3);
    for (let i = 0; i < n * n * n; i++) {
      const row = next('the end of the 3D LUT');
      data.set(numbers(words(row), file, row.n, 3), i * 3);
    }
    ops.push({
      type: 'lut3d',
      direction: 'forward',
      size: n,
      values: redFastestToBlueFastest(data, n),
      interpolation: interp3D(interpolation),
      source: file,
    });
  }
  return ops;
}

/** cineSpace's prelut curve: a cubic per segment with slopes from the neighbours, held at the end values outside (float32 steps). */
function cineSpaceSpline(x: number[], y: number[]): (v: number) => number {
  const n = x.length;
  const params: number[][] = [];
  for (let i = 0; i < n - 1; i++) {
    const f0 = y[i]!,
      f1 = y[i + 1]!;
    const invDelta = f(1 / f(x[i + 1]! - x[i]!));
    const delta = f(x[i + 1]! - x[i]!);
    if (n === 2) {
      params.push([invDelta, f0, f(f1 - f0), 0, 0]);
    } else if (i === 0) {
      const delta2 = f(f(x[i + 2]! - x[i + 1]!) / delta);
      const d1 = f(f(y[i + 2]! - f0) / f(1 + delta2));
      params.push([invDelta, f0, f(f(f(-2 * f0) + f(2 * f1)) - d1), f(f(f0 - f1) + d1), 0]);
    } else if (i === n - 2) {
      const delta1 = f(f(x[i]! - x[i - 1]!) / delta);
      const d0 = f(f(f1 - y[i - 1]!) / f(1 + delta1));
      params.push([invDelta, f0, d0, f(f(-f0 + f1) - d0), 0]);
    } else {
      const delta1 = f(f(x[i]! - x[i - 1]!) / delta);
      const delta2 = f(f(x[i + 2]! - x[i + 1]!) / delta);
      const d0 = f(f(f1 - y[i - 1]!) / f(1 + delta1));
      const d1 = f(f(y[i + 2]! - f0) / f(1 + delta2));
      params.push([invDelta, f0, d0, f(f(f(f(-3 * f0) - f(2 * d0)) + f(3 * f1)) - d1), f(f(f(f(2 * f0) + d0) - f(2 * f1)) + d1)]);
    }
  }
  return (v: number): number => {
    if (Number.isNaN(v)) return v;
    if (v < x[0]!) return y[0]!;
    if (v > x[n - 1]!) return y[n - 1]!;
    let lo = 0,
      hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (v < x[mid]!) hi = mid;
      else lo = mid;
    }
    const [invDelta, a, b, c, d] = params[lo] as [number, number, number, number, number];
    const z = f(f(v - x[lo]!) * invDelta);
    return f(a + f(z * f(b + f(z * f(c + f(d * z))))));
  };
}
