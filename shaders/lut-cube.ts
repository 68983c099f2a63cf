// The .cube LUT format (Adobe Cube 1.0 / Resolve): parser with line-numbered errors. Pure TypeScript, no dependencies.

/** A parsed LUT: RGB triples, red fastest (then green, then blue) for 3D, one triple per entry for 1D. */
export interface Lut {
  title: string;
  kind: '1d' | '3d';
  /** Entries per axis (3D) or in all (1D). */
  size: number;
  domainMin: [number, number, number];
  domainMax: [number, number, number];
  /** size^3 * 3 (3D) or size * 3 (1D) floats. */
  data: Float32Array<ArrayBuffer>;
}

/** The largest 3D size loaded: 65^3 is what grading tools export at most, 4.4 MB on the GPU as rgba32float. */
export const MAX_LUT_3D_SIZE = 65;
export const MAX_LUT_1D_SIZE = 65536;

export class CubeParseError extends Error {
  constructor(
    readonly lineNumber: number,
    reason: string,
  ) {
    super(`line ${lineNumber}: ${reason}`);
    this.name = 'CubeParseError';
  }
}

function numbers(fields: string[], count: number, lineNumber: number, what: string): number[] {
  if (fields.length !== count)
    throw new CubeParseError(lineNumber, `${what} needs ${count} number${count > 1 ? 's' : ''}, found ${fields.length}`);
  return fields.map((f) => {
    const v = Number(f);
    if (f === '' || !Number.isFinite(v)) throw new CubeParseError(lineNumber, `"${f}" is not a number in ${what}`);
    return v;
  });
}

function sizeOf(fields: string[], lineNumber: number, keyword: string, max: number): number {
  const [n] = numbers(fields, 1, lineNumber, keyword);
  if (!Number.isInteger(n) || n! < 2 || n! > max) throw new CubeParseError(lineNumber, `${keyword} ${fields[0]} is outside 2..${max}`);
  return n!;
}

/** Parses the text of a .cube file; throws CubeParseError (with the 1-based line number) on anything malformed. */
export function parseCube(text: string): Lut {
  let title = '';
  let size3 = 0;
  let size1 = 0;
  let domainMin: [number, number, number] = [0, 0, 0];
  let domainMax: [number, number, number] = [1, 1, 1];
  let data: Float32Array<ArrayBuffer> | null = null;
  let count = 0;
  let lastLine = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNumber = i + 1;
    const raw = lines[i]!;
    const hash = raw.indexOf('#');
    // A TITLE may contain '#' inside its quotes; anything else after '#' is a comment.
    const line = (/^\s*TITLE\b/.test(raw) || hash < 0 ? raw : raw.slice(0, hash)).trim();
    if (line === '') continue;
    lastLine = lineNumber;
    const fields = line.split(/\s+/);
    const keyword = fields[0]!;
    if (/^[A-Za-z_]/.test(keyword)) {
      if (data) throw new CubeParseError(lineNumber, `keyword ${keyword} after the table started: keywords go before the data`);
      const rest = fields.slice(1);
      switch (keyword) {
        case 'TITLE': {
          const m = /^\s*TITLE\s+"([^"]*)"\s*$/.exec(raw);
          if (!m) throw new CubeParseError(lineNumber, 'TITLE needs a quoted string');
          title = m[1]!;
          break;
        }
        case 'LUT_3D_SIZE':
          size3 = sizeOf(rest, lineNumber, keyword, MAX_LUT_3D_SIZE);
          break;
        case 'LUT_1D_SIZE':
          size1 = sizeOf(rest, lineNumber, keyword, MAX_LUT_1D_SIZE);
          break;
        case 'DOMAIN_MIN':
          domainMin = numbers(rest, 3, lineNumber, keyword) as [number, number, number];
          break;
        case 'DOMAIN_MAX':
          domainMax = numbers(rest, 3, lineNumber, keyword) as [number, number, number];
          break;
        case 'LUT_1D_INPUT_RANGE':
        case 'LUT_3D_INPUT_RANGE': {
          const [lo, hi] = numbers(rest, 2, lineNumber, keyword) as [number, number];
          domainMin = [lo, lo, lo];
          domainMax = [hi, hi, hi];
          break;
        }
        default:
          break; // vendor keywords (LUT_IN_VIDEO_RANGE, ...) carry nothing this viewer uses
      }
      continue;
    }
    if (!data) {
      if (size1 && size3)
        throw new CubeParseError(
          lineNumber,
          'both LUT_1D_SIZE and LUT_3D_SIZE: a shaper + cube file is not supported, export the 3D LUT alone',
        );
      if (!size1 && !size3) throw new CubeParseError(lineNumber, 'data before LUT_3D_SIZE or LUT_1D_SIZE');
      for (let c = 0; c < 3; c++) {
        if (!(domainMin[c]! < domainMax[c]!))
          throw new CubeParseError(
            lineNumber,
            `DOMAIN_MIN must be below DOMAIN_MAX in every channel (channel ${c}: ${domainMin[c]} vs ${domainMax[c]})`,
          );
      }
      data = new Float32Array((size3 ? size3 ** 3 : size1) * 3);
    }
    if (count * 3 >= data.length)
      throw new CubeParseError(lineNumber, `more entries than the ${size3 ? `${size3}^3` : size1} the size says`);
    const rgb = numbers(fields, 3, lineNumber, 'a table entry');
    data.set(rgb, count * 3);
    count++;
  }
  if (!data) throw new CubeParseError(Math.max(lastLine, 1), 'no table: the file has no LUT entries');
  const expected = data.length / 3;
  if (count !== expected) throw new CubeParseError(lastLine, `only ${count} of ${expected} entries: the file is cut short`);
  return { title, kind: size3 ? '3d' : '1d', size: size3 || size1, domainMin, domainMax, data };
}

/** Writes a LUT as .cube text (tests make LUTs from known functions with it; a user could save one). */
export function formatCube(lut: Lut): string {
  const out: string[] = [];
  if (lut.title) out.push(`TITLE "${lut.title}"`);
  out.push(`${lut.kind === '3d' ? 'LUT_3D_SIZE' : 'LUT_1D_SIZE'} ${lut.size}`);
  out.push(`DOMAIN_MIN ${lut.domainMin.join(' ')}`, `DOMAIN_MAX ${lut.domainMax.join(' ')}`);
  for (let i = 0; i < lut.data.length; i += 3) out.push(`${lut.data[i]} ${lut.data[i + 1]} ${lut.data[i + 2]}`);
  return out.join('\n') + '\n';
}

/** A 3D LUT of size n sampling f over [0, 1]^3 (red fastest). */
export function lutFromFunction(n: number, f: (r: number, g: number, b: number) => [number, number, number], title = ''): Lut {
  const data = new Float32Array(n * n * n * 3);
  for (let b = 0; b < n; b++)
    for (let g = 0; g < n; g++)
      for (let r = 0; r < n; r++) {
        data.set(f(r / (n - 1), g / (n - 1), b / (n - 1)), ((b * n + g) * n + r) * 3);
      }
  return { title, kind: '3d', size: n, domainMin: [0, 0, 0], domainMax: [1, 1, 1], data };
}
