// Luminance/chroma to RGBA: bit for bit what OpenEXR's RgbaInputFile gives, on the corpus and on generated edge cases.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSource } from './file-source.js';
import { floatToHalf } from './core/half.js';
import { lumaChromaKind, lumaChromaToRgba, luminanceWeights } from './luma-chroma.js';
import { planeOf, patternValue } from '../testing/codec/oracle/images.js';
import { findOracles, sharedDir } from '../testing/codec/oracle/tools.js';
import { ExrReader } from './reader.js';
import { memorySource } from './source.js';
import type { Box2i, PixelType } from './core/types.js';
import { writeExr, writeExrFile, type WriteChannel, type WritePart } from './writer.js';

const box = (xMin: number, yMin: number, w: number, h: number): Box2i => ({ xMin, yMin, xMax: xMin + w - 1, yMax: yMin + h - 1 });

describe('luminance weights and detection', () => {
  it('gives the Rec. 709 weights for the default chromaticities', () => {
    const [r, g, b] = luminanceWeights(null);
    expect(r).toBeCloseTo(0.2126, 3);
    expect(g).toBeCloseTo(0.7152, 3);
    expect(b).toBeCloseTo(0.0722, 3);
  });

  it('tells luminance/chroma, luminance only and RGB apart (with a layer prefix)', () => {
    expect(lumaChromaKind(['BY', 'RY', 'Y'])).toBe('luminanceChroma');
    expect(lumaChromaKind(['A', 'Y'])).toBe('luminance');
    expect(lumaChromaKind(['B', 'G', 'R'])).toBeNull();
    expect(lumaChromaKind(['left.RY', 'left.Y'], 'left.')).toBe('luminanceChroma');
  });

  it('keeps grey pixels exact: zero chroma gives R = G = B = Y, and Y alone is grey', () => {
    const y = Uint16Array.from([0x3c00, 0x4000, 0x3555, 0]);
    const file = writeExr([
      {
        dataWindow: box(0, 0, 2, 2),
        channels: [
          { name: 'Y', pixelType: 'half', data: y },
          { name: 'RY', pixelType: 'half', xSampling: 2, ySampling: 2, data: new Uint16Array(1) },
          { name: 'BY', pixelType: 'half', xSampling: 2, ySampling: 2, data: new Uint16Array(1) },
        ],
      },
    ]);
    const rgba = lumaChromaToRgba(ExrReader.open(memorySource(file)).decode(), null);
    for (const c of ['R', 'G', 'B']) expect(Array.from(rgba.channels.find((p) => p.name === c)!.data)).toEqual(Array.from(y));
    expect(Array.from(rgba.channels.find((p) => p.name === 'A')!.data)).toEqual([0x3c00, 0x3c00, 0x3c00, 0x3c00]);
    const grey = writeExr([
      { dataWindow: box(0, 0, 2, 2), channels: [{ name: 'Y', pixelType: 'float', data: Float32Array.from([1, 2, 1 / 3, 70000]) }] },
    ]);
    const greyRgba = lumaChromaToRgba(ExrReader.open(memorySource(grey)).decode(), null);
    expect(Array.from(greyRgba.channels[0]!.data)).toEqual([0x3c00, 0x4000, floatToHalf(1 / 3), 0x7c00]);
  });
});

/** Y/RY/BY (and A) over `dataWindow`, chroma 2x2 subsampled. */
function ycPart(
  dataWindow: Box2i,
  types: { Y?: PixelType; C?: PixelType; A?: PixelType; without?: string[] },
  extra: Partial<WritePart> = {},
): WritePart {
  const w = dataWindow.xMax - dataWindow.xMin + 1;
  const h = dataWindow.yMax - dataWindow.yMin + 1;
  const channels: WriteChannel[] = [];
  const add = (name: string, pixelType: PixelType, sampling: number, value: (x: number, y: number) => number) => {
    if (!types.without?.includes(name))
      channels.push({
        name,
        pixelType,
        xSampling: sampling,
        ySampling: sampling,
        data: planeOf(pixelType, w / sampling, h / sampling, value),
      });
  };
  add('Y', types.Y ?? 'half', 1, (x, y) => Math.abs(patternValue(0, x, y, 0)) + (x === 3 && y === 2 ? 70000 : 0));
  add('RY', types.C ?? 'half', 2, (x, y) => Math.sin(x * 0.7 + y) * 0.9);
  add('BY', types.C ?? 'half', 2, (x, y) => Math.cos(x * 0.3 - y * 0.5) * 0.8);
  add('A', types.A ?? 'half', 1, (x, y) => ((x + y) % 5) / 4);
  return { compression: 'zip', dataWindow, channels, ...extra };
}

const found = findOracles();
const skipReason = 'reason' in found ? found.reason : null;

describe.skipIf(skipReason !== null)('luminance/chroma: equal to OpenEXR RgbaInputFile', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'exrview-yc-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Number of RGBA halves that differ from RgbaInputFile's, and the first difference. */
  function compare(path: string): { differing: number; first: string; total: number } {
    const oracles = 'oracles' in found ? found.oracles : null;
    const out = join(dir, 'rgba.bin');
    execFileSync(oracles!.rgbaRef, [path, out], { stdio: 'ignore' });
    const bin = readFileSync(out);
    const [xMin, yMin, w, h] = Array.from(new Int32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + 16)));
    const want = new Uint16Array(bin.buffer.slice(bin.byteOffset + 16));
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      const image = reader.decode();
      expect([image.region.xMin, image.region.yMin, image.widthPx, image.heightPx]).toEqual([xMin, yMin, w, h]);
      const rgba = lumaChromaToRgba(image, reader.parts[0]!.chromaticities);
      let differing = 0;
      let first = '';
      for (let i = 0; i < w! * h!; i++) {
        for (let c = 0; c < 4; c++) {
          const got = rgba.channels[c]!.data[i]!;
          if (got !== want[i * 4 + c]) {
            differing++;
            first ||= `pixel (${i % w!}, ${Math.floor(i / w!)}) ${'RGBA'[c]}: 0x${got.toString(16)}, OpenEXR 0x${want[i * 4 + c]!.toString(16)}`;
          }
        }
      }
      return { differing, first, total: w! * h! * 4 };
    } finally {
      source.close();
    }
  }

  const corpus = join(sharedDir, 'corpus/openexr-images');
  const corpusFiles = existsSync(corpus)
    ? [
        ...readdirSync(join(corpus, 'LuminanceChroma'))
          .filter((f) => f.endsWith('.exr'))
          .map((f) => join(corpus, 'LuminanceChroma', f)),
        ...readdirSync(join(corpus, 'Chromaticities'))
          .filter((f) => f.endsWith('_YC.exr'))
          .map((f) => join(corpus, 'Chromaticities', f)),
        ...readdirSync(join(corpus, 'TestImages'))
          .filter((f) => f.startsWith('Gray'))
          .map((f) => join(corpus, 'TestImages', f)),
      ]
    : [];
  for (const file of corpusFiles) {
    it(`${file.slice(corpus.length + 1)} is bit-exact`, () => {
      const result = compare(file);
      expect(result.differing, result.first).toBe(0);
    });
  }

  const generated: [string, () => WritePart][] = [
    [
      'negative origin, custom chromaticities',
      () =>
        ycPart(
          box(-6, -4, 38, 26),
          {},
          { chromaticities: { red: [0.7, 0.29], green: [0.17, 0.8], blue: [0.13, 0.05], white: [0.32, 0.34] } },
        ),
    ],
    [
      'float luminance and chroma (converted to half), decreasing y, values beyond half',
      () => ycPart(box(2, 0, 30, 40), { Y: 'float', C: 'float', A: 'float' }, { lineOrder: 'decreasingY', compression: 'piz' }),
    ],
    ['uint luminance, RY without BY, no alpha', () => ycPart(box(0, 0, 20, 34), { Y: 'uint', without: ['BY', 'A'] })],
    ['chroma without luminance', () => ycPart(box(0, 0, 16, 16), { without: ['Y'] })],
    ['2x2 pixels', () => ycPart(box(0, 0, 2, 2), {})],
    ['one chroma sample column, 60 lines', () => ycPart(box(-2, -10, 2, 60), {})],
  ];
  for (const [name, make] of generated) {
    it(`generated: ${name} is bit-exact`, () => {
      const path = join(dir, 'yc.exr');
      writeExrFile(path, [make()]);
      const result = compare(path);
      expect(result.differing, result.first).toBe(0);
    });
  }
});

if (skipReason !== null) {
  describe('luminance/chroma: equal to OpenEXR RgbaInputFile', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
}
