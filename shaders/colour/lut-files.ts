// LUT files → ops: `.cube` (1D/3D, with domains), `.spi1d`, `.spi3d`, `.spimtx`. Each error names the file and line.

import { ColourConfigError } from './errors.js';
import type { Op } from './ops/op.js';

/** The ops a LUT file stands for, in the forward direction; `interpolation` is the FileTransform's. */
export function opsOfLutFile(text: string, file: string, interpolation: string): Op[] {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'cube') return cubeOps(text, file, interpolation);
  if (ext === 'spi1d') return spi1dOps(text, file, interpolation);
  if (ext === 'spi3d') return spi3dOps(text, file, interpolation);
  if (ext === 'spimtx') return spimtxOps(text, file);
  throw new ColourConfigError(file, undefined, `LUT format ".${ext}" is not read yet: use .cube, .spi1d, .spi3d or .spimtx`);
}

const MAX_ENTRIES = 1 << 26;

function lines(text: string): { n: number; words: string[] }[] {
  return text.split(/\r?\n/).map((line, i) => ({
    n: i + 1,
    words: line
      .trim()
      .split(/\s+/)
      .filter((w) => w !== ''),
  }));
}

function numbers(words: string[], file: string, line: number, count: number): number[] {
  if (words.length < count)
    throw new ColourConfigError(file, line, `expected ${count} numbers, found ${words.length}: the LUT is cut short or malformed`);
  return words.slice(0, count).map((w) => {
    const v = Number(w);
    if (Number.isNaN(v) && !/^nan$/i.test(w)) throw new ColourConfigError(file, line, `"${w}" is not a number: the LUT is malformed`);
    return v;
  });
}

/** A matrix op mapping [min, max] per channel to [0, 1], or nothing when the domain is already [0, 1]. */
function domainOps(min: number[], max: number[]): Op[] {
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

function interp1D(interpolation: string): 'linear' | 'nearest' {
  return interpolation === 'nearest' ? 'nearest' : 'linear';
}

function interp3D(interpolation: string): 'linear' | 'tetrahedral' | 'nearest' {
  if (interpolation === 'nearest') return 'nearest';
  return interpolation === 'tetrahedral' || interpolation === 'best' ? 'tetrahedral' : 'linear';
}

function cubeOps(text: string, file: string, interpolation: string): Op[] {
  let size1 = 0,
    size3 = 0;
  let min = [0, 0, 0],
    max = [1, 1, 1];
  const data: number[] = [];
  let firstDataLine = 0;
  for (const { n, words } of lines(text)) {
    const key = words[0];
    if (key === undefined || key.startsWith('#')) continue;
    if (key === 'TITLE') continue;
    if (key === 'LUT_1D_SIZE') size1 = numbers(words.slice(1), file, n, 1)[0]!;
    else if (key === 'LUT_3D_SIZE') size3 = numbers(words.slice(1), file, n, 1)[0]!;
    else if (key === 'DOMAIN_MIN') min = numbers(words.slice(1), file, n, 3);
    else if (key === 'DOMAIN_MAX') max = numbers(words.slice(1), file, n, 3);
    else if (/^[A-Z_]+$/.test(key))
      throw new ColourConfigError(
        file,
        n,
        `unknown .cube keyword "${key}": this reader knows LUT_1D_SIZE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX`,
      );
    else {
      firstDataLine ||= n;
      data.push(...numbers(words, file, n, 3));
    }
  }
  if (size1 === 0 && size3 === 0) throw new ColourConfigError(file, undefined, 'no LUT_1D_SIZE or LUT_3D_SIZE line: not a .cube LUT');
  const entries = size3 ? size3 ** 3 : size1;
  if (!(entries >= 2 && entries <= MAX_ENTRIES))
    throw new ColourConfigError(file, undefined, `a LUT of ${entries} entries is not allowed: the size must be 2 to 256³`);
  if (data.length !== entries * 3) {
    throw new ColourConfigError(
      file,
      firstDataLine,
      `the LUT declares ${entries} entries but has ${data.length / 3}: regenerate it or fix its size line`,
    );
  }
  const ops = domainOps(min, max);
  if (size3) {
    // .cube lists red fastest; OCIO's tables are blue fastest
    const n = size3;
    const values = new Float32Array(entries * 3);
    for (let b = 0; b < n; b++)
      for (let g = 0; g < n; g++)
        for (let r = 0; r < n; r++) {
          const src = ((b * n + g) * n + r) * 3,
            dst = ((r * n + g) * n + b) * 3;
          values[dst] = data[src]!;
          values[dst + 1] = data[src + 1]!;
          values[dst + 2] = data[src + 2]!;
        }
    ops.push({ type: 'lut3d', direction: 'forward', size: n, values, interpolation: interp3D(interpolation), source: file });
  } else {
    ops.push({
      type: 'lut1d',
      direction: 'forward',
      length: size1,
      values: Float32Array.from(data),
      interpolation: interp1D(interpolation),
      source: file,
    });
  }
  return ops;
}

function spi1dOps(text: string, file: string, interpolation: string): Op[] {
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
      else if (key === 'Length') length = numbers(words.slice(1), file, n, 1)[0]!;
      else if (key === 'Components') components = numbers(words.slice(1), file, n, 1)[0]!;
      else if (key === '{') inData = true;
      else
        throw new ColourConfigError(file, n, `unexpected "${key}" in the .spi1d header: expected Version, From, Length, Components or {`);
      continue;
    }
    if (key === '}') break;
    firstDataLine ||= n;
    data.push(...numbers(words, file, n, components));
  }
  if (!(length >= 2 && length <= MAX_ENTRIES))
    throw new ColourConfigError(file, undefined, `Length ${length} is not allowed: a .spi1d needs 2 to ${MAX_ENTRIES} entries`);
  if (components !== 1 && components !== 3) throw new ColourConfigError(file, undefined, `Components ${components}: only 1 or 3 are read`);
  if (data.length !== length * components) {
    throw new ColourConfigError(
      file,
      firstDataLine,
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

function spi3dOps(text: string, file: string, interpolation: string): Op[] {
  const all = lines(text).filter((l) => l.words.length > 0);
  if (all[0]?.words[0] !== 'SPILUT') throw new ColourConfigError(file, 1, 'the first line is not "SPILUT 1.0": not a .spi3d LUT');
  const sizeLine = all[2];
  if (!sizeLine) throw new ColourConfigError(file, undefined, 'no size line: the .spi3d is cut short');
  const [nr, ng, nb] = numbers(sizeLine.words, file, sizeLine.n, 3) as [number, number, number];
  if (nr !== ng || ng !== nb || !(nr >= 2 && nr <= 256))
    throw new ColourConfigError(file, sizeLine.n, `size ${nr} ${ng} ${nb}: a .spi3d must be a cube of 2 to 256 per side`);
  const n = nr;
  const values = new Float32Array(n * n * n * 3);
  const filled = new Uint8Array(n * n * n);
  for (const { n: lineNo, words } of all.slice(3)) {
    const [r, g, b, vr, vg, vb] = numbers(words, file, lineNo, 6) as [number, number, number, number, number, number];
    if (![r, g, b].every((k) => Number.isInteger(k) && k >= 0 && k < n))
      throw new ColourConfigError(file, lineNo, `index ${r} ${g} ${b} is outside the ${n}³ lattice`);
    const at = (r * n + g) * n + b;
    values.set([vr, vg, vb], at * 3);
    filled[at] = 1;
  }
  const missing = filled.indexOf(0);
  if (missing >= 0)
    throw new ColourConfigError(file, undefined, `the lattice misses entries (the first at index ${missing}): the .spi3d is cut short`);
  return [{ type: 'lut3d', direction: 'forward', size: n, values, interpolation: interp3D(interpolation), source: file }];
}

function spimtxOps(text: string, file: string): Op[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const v = numbers(words, file, 1, 12);
  return [
    {
      type: 'matrix',
      m: [v[0]!, v[1]!, v[2]!, 0, v[4]!, v[5]!, v[6]!, 0, v[8]!, v[9]!, v[10]!, 0, 0, 0, 0, 1],
      offset: [v[3]! / 65535, v[7]! / 65535, v[11]! / 65535, 0],
    },
  ];
}
