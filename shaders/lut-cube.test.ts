// The .cube parser on good and malformed files, and the CPU LUT reference on identity and known functions.
import { describe, expect, it } from 'vitest';
import { CubeParseError, formatCube, lutFromFunction, parseCube } from './lut-cube.js';
import { applyLut, logShaper, LOG_MAX_EV, LOG_MIN_EV } from './lut-apply.js';
import { DEFAULT_DISPLAY } from './display-params.js';
import { srgbOetf, toneMapPixel } from './tonemap-cpu.js';

const IDENTITY_2 = `# identity
TITLE "tiny # id"
LUT_3D_SIZE 2
0 0 0
1 0 0
0 1 0
1 1 0
0 0 1   # comment after data
1 0 1
0 1 1

1 1 1
`;

function errorOf(text: string): CubeParseError {
  try {
    parseCube(text);
  } catch (e) {
    if (e instanceof CubeParseError) return e;
    throw e;
  }
  throw new Error('parsed without error');
}

describe('parseCube', () => {
  it('reads TITLE, size, comments, blank lines and the red-fastest table', () => {
    const lut = parseCube(IDENTITY_2);
    expect(lut.title).toBe('tiny # id');
    expect(lut.kind).toBe('3d');
    expect(lut.size).toBe(2);
    expect(lut.domainMin).toEqual([0, 0, 0]);
    expect(Array.from(lut.data.slice(3, 6))).toEqual([1, 0, 0]);
    expect(Array.from(lut.data.slice(21, 24))).toEqual([1, 1, 1]);
  });

  it('reads a 1D LUT with DOMAIN_MIN/MAX and CRLF line ends', () => {
    const lut = parseCube('LUT_1D_SIZE 3\r\nDOMAIN_MIN -1 -1 -1\r\nDOMAIN_MAX 3 3 3\r\n0 0 0\r\n0.5 0.5 0.5\r\n1 1 1\r\n');
    expect(lut.kind).toBe('1d');
    expect(lut.domainMin).toEqual([-1, -1, -1]);
    expect(lut.domainMax).toEqual([3, 3, 3]);
    expect(applyLut(lut, 0, 1, 2)[0]).toBeCloseTo(0.25, 6); // 0 sits a quarter of the way through [-1, 3]
    expect(applyLut(lut, 0, 1, 2)[1]).toBeCloseTo(0.5, 6);
  });

  it('reads Resolve LUT_3D_INPUT_RANGE and skips vendor keywords', () => {
    const lut = parseCube(`LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0 4\nLUT_IN_VIDEO_RANGE\n${IDENTITY_2.split('\n').slice(3).join('\n')}`);
    expect(lut.domainMax).toEqual([4, 4, 4]);
  });

  it('round-trips through formatCube', () => {
    const lut = lutFromFunction(5, (r, g, b) => [r * r, g, 1 - b], 'sq');
    const back = parseCube(formatCube(lut));
    expect(back.title).toBe('sq');
    expect(Array.from(back.data)).toEqual(Array.from(lut.data));
  });

  it.each([
    ['LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 x\n', 4, /"x" is not a number/],
    ['LUT_3D_SIZE 66\n0 0 0\n', 1, /outside 2\.\.65/],
    ['LUT_3D_SIZE 2.5\n', 1, /outside/],
    ['0 0 0\n', 1, /before LUT_3D_SIZE/],
    ['LUT_3D_SIZE 2\n0 0 0\n1 0 0\n', 3, /only 2 of 8 entries/],
    ['LUT_1D_SIZE 2\n0 0 0\n1 1 1\n1 1 1\n', 4, /more entries/],
    ['LUT_1D_SIZE 2\n0 0\n1 1 1\n', 2, /needs 3 numbers, found 2/],
    ['LUT_1D_SIZE 2\nDOMAIN_MIN 1 0 0\nDOMAIN_MAX 1 1 1\n0 0 0\n1 1 1\n', 4, /DOMAIN_MIN must be below DOMAIN_MAX/],
    ['LUT_1D_SIZE 2\n0 0 0\nTITLE "late"\n1 1 1\n', 3, /after the table started/],
    ['TITLE untitled\n', 1, /quoted/],
    ['# nothing\n\n', 1, /no table/],
    ['LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n0 0 0\n', 3, /both LUT_1D_SIZE and LUT_3D_SIZE/],
  ])('rejects malformed input with its line number: %j', (text, line, reason) => {
    const e = errorOf(text);
    expect(e.lineNumber).toBe(line);
    expect(e.message).toMatch(reason);
    expect(e.message).toMatch(new RegExp(`^line ${line}: `));
  });
});

describe('applyLut (CPU reference)', () => {
  it('an identity LUT leaves values unchanged, and clamps outside the domain', () => {
    const id = lutFromFunction(17, (r, g, b) => [r, g, b]);
    for (const v of [
      [0, 0, 0],
      [0.1, 0.5, 0.9],
      [1, 1, 1],
      [0.333, 0.77, 0.01],
    ] as const) {
      const o = applyLut(id, v[0], v[1], v[2]);
      for (let c = 0; c < 3; c++) expect(o[c]).toBeCloseTo(v[c]!, 6);
    }
    expect(applyLut(id, -1, 2, 0.5)).toEqual([0, 1, expect.closeTo(0.5, 6)]);
  });

  it('reproduces a known smooth function within trilinear interpolation error', () => {
    const f = (r: number, g: number, b: number): [number, number, number] => [
      Math.sqrt(r * 0.7 + g * 0.3),
      (g + b) / 2,
      Math.sin(b * 1.5) * 0.8 + r * 0.2,
    ];
    const lut = lutFromFunction(33, f);
    let s = 7;
    const rnd = (): number => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    let worst = 0;
    for (let i = 0; i < 2000; i++) {
      const r = rnd() * 0.9 + 0.1,
        g = rnd(),
        b = rnd(); // sqrt's slope is unbounded at 0: keep r away from it
      const want = f(r, g, b),
        got = applyLut(lut, r, g, b);
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(want[c]! - got[c]!));
    }
    // trilinear error <= h^2/8 * sum of |d2f/dx_i^2| with h = 1/32; for sqrt(u), u = 0.7r + 0.3g >= 0.07, that sum is
    // (0.49 + 0.09) / 4 * 0.07^-1.5 = 7.8, so the bound is 7.8 / 8 / 1024 = 9.5e-4; the other channels' is smaller
    expect(worst).toBeLessThan(9.5e-4);
    expect(worst).toBeGreaterThan(0); // a LUT is not exact between its nodes: the check can fail
  });

  it('applies after the view transform, or on the log shaper instead of it', () => {
    const invert = lutFromFunction(9, (r, g, b) => [1 - r, 1 - g, 1 - b]);
    const plain = toneMapPixel(0.18, 0.18, 0.18, 1, 0, 0, DEFAULT_DISPLAY);
    const after = toneMapPixel(0.18, 0.18, 0.18, 1, 0, 0, { ...DEFAULT_DISPLAY, lut: { lut: invert, shaper: 'display', name: 'inv' } });
    expect(plain[0]).toBeCloseTo(srgbOetf(0.18), 6);
    expect(after[0]).toBeCloseTo(1 - plain[0], 6);
    const onLog = toneMapPixel(0.18, 0.18, 0.18, 1, 0, 0, { ...DEFAULT_DISPLAY, lut: { lut: invert, shaper: 'log', name: 'inv' } });
    expect(onLog[0]).toBeCloseTo(1 - (0 - LOG_MIN_EV) / (LOG_MAX_EV - LOG_MIN_EV), 6);
    expect(logShaper(0.18 * 2 ** LOG_MAX_EV * 4)).toBe(1);
    expect(logShaper(-3)).toBe(0);
  });
});
