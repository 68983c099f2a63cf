// The fast binning path (PIZ planes, lines summed together) against the general one (full decompression, one line at a time).

import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lcg } from '../../testing/codec/test-layouts.js';
import { ExrReader, openFileSource, type Box2i, type PixelType } from '../../codec/index.js';
import { writeExrFile, type WriteChannel, type WritePart } from '../../codec/writer.js';
import { tempDir } from '../../testing/host/test-files.js';
import { decodeBinned, makeAxisBins, sumBins, type AxisBins, type BinKernel } from './binned-decode.js';
import { sampleCount } from '../../codec/core/sampling.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.remove());

const signal = { aborted: false };

type Kind = 'band' | 'specials' | 'dense';

/**
 * Samples drawn from a small palette, so that the codecs compress them (a chunk that does not shrink
 * is stored raw, and PIZ's planes would go untested), from a narrow band of half bit patterns (PIZ
 * stores a bitmap of the patterns in use). `band`: anywhere in the range, so PIZ's LUT is not the
 * identity; `specials`: the largest normals, ±Inf and NaNs; `dense`: the codes 0 .. 15, an identity LUT.
 */
function plane(pixelType: PixelType, count: number, next: () => number, kind: Kind): WriteChannel['data'] {
  const paletteSize = 16;
  const base = kind === 'specials' ? (next() < 0.5 ? 0x7b00 : 0xfb00) : Math.floor(next() * (0x10000 - 1024));
  const pick = <T>(palette: T[]) => palette[Math.floor(next() * paletteSize)]!;
  if (pixelType === 'half') {
    const palette = Array.from({ length: paletteSize }, (_, i) => (kind === 'dense' ? i : base + Math.floor(next() * 1024)));
    return Uint16Array.from({ length: count }, () => pick(palette));
  }
  if (pixelType === 'float') {
    const palette = Array.from({ length: paletteSize }, () => (next() < 0.1 ? NaN : (next() - 0.5) * 2 ** (next() * 40 - 20)));
    return Float32Array.from({ length: count }, () => pick(palette));
  }
  const palette = Array.from({ length: paletteSize }, () => Math.floor(next() * 2 ** 32));
  return Uint32Array.from({ length: count }, () => pick(palette));
}

interface Case {
  compression: 'none' | 'rle' | 'zips' | 'zip' | 'piz' | 'pxr24';
  widthPx: number;
  heightPx: number;
  originX: number;
  originY: number;
  types: PixelType[];
  /** One channel sampled every 2 pixels both ways (scanline files only). */
  subsampled: boolean;
  tiles: { xSizePx: number; ySizePx: number } | null;
  kind: Kind;
  thumbWidthPx: number;
  thumbHeightPx: number;
  seed: number;
}

function write(path: string, c: Case): void {
  const next = lcg(c.seed);
  const dataWindow: Box2i = { xMin: c.originX, yMin: c.originY, xMax: c.originX + c.widthPx - 1, yMax: c.originY + c.heightPx - 1 };
  const channels: WriteChannel[] = c.types.map((pixelType, i) => ({
    name: `c${i}`,
    pixelType,
    data: plane(pixelType, c.widthPx * c.heightPx, next, c.kind),
  }));
  if (c.subsampled) {
    const count = Math.ceil(c.widthPx / 2) * Math.ceil(c.heightPx / 2);
    channels.push({ name: 'sub', pixelType: 'half', xSampling: 2, ySampling: 2, data: plane('half', count, next, c.kind) });
  }
  const part: WritePart = { dataWindow, compression: c.compression, channels };
  if (c.tiles) part.tiles = { ...c.tiles, levelMode: 'oneLevel' };
  writeExrFile(path, [part]);
}

function binned(path: string, c: Case, kernel: BinKernel): Map<string, Float32Array> {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const part = reader.parts[0]!;
    return decodeBinned(
      reader,
      part,
      part.levels[0]!,
      part.channels.map((ch) => ch.name),
      c.thumbWidthPx,
      c.thumbHeightPx,
      signal,
      kernel,
    ).means;
  } finally {
    source.close();
  }
}

/** Sums in float64 in another order: equal up to their last bits. */
function expectSameBins(fast: Map<string, Float32Array>, general: Map<string, Float32Array>, what: string): void {
  expect([...fast.keys()]).toEqual([...general.keys()]);
  for (const [name, want] of general) {
    const got = fast.get(name)!;
    for (let i = 0; i < want.length; i++) {
      if (!(Math.abs(got[i]! - want[i]!) <= 1e-6 * Math.max(1, Math.abs(want[i]!))))
        throw new Error(`${what}: channel ${name} bin ${i}: ${got[i]} vs ${want[i]}`);
    }
  }
}

const arbCase: fc.Arbitrary<Case> = fc
  .record({
    compression: fc.constantFrom('none', 'rle', 'zips', 'zip', 'piz', 'piz', 'piz', 'pxr24'),
    widthPx: fc.integer({ min: 1, max: 70 }),
    heightPx: fc.integer({ min: 1, max: 70 }),
    originX: fc.integer({ min: -6, max: 6 }).map((v) => v * 2),
    originY: fc.integer({ min: -6, max: 6 }).map((v) => v * 2),
    types: fc.array(fc.constantFrom<PixelType>('half', 'half', 'float', 'uint'), { minLength: 1, maxLength: 4 }),
    layout: fc.constantFrom('scanline', 'subsampled', 'tiled'),
    tiles: fc.record({ xSizePx: fc.integer({ min: 1, max: 24 }), ySizePx: fc.integer({ min: 1, max: 24 }) }),
    kind: fc.constantFrom<Kind>('band', 'specials', 'dense'),
    thumbWidthPx: fc.integer({ min: 1, max: 80 }),
    thumbHeightPx: fc.integer({ min: 1, max: 80 }),
    seed: fc.integer(),
  })
  .map(({ layout, tiles, ...c }) => {
    // a 2x2 sampled channel needs an even-sized data window at even coordinates
    const widthPx = layout === 'subsampled' ? c.widthPx + (c.widthPx % 2) : c.widthPx;
    const heightPx = layout === 'subsampled' ? c.heightPx + (c.heightPx % 2) : c.heightPx;
    return {
      ...c,
      widthPx,
      heightPx,
      subsampled: layout === 'subsampled',
      tiles: layout === 'tiled' ? tiles : null,
      // the box filter never enlarges: the thumbnail is at most the image's size
      thumbWidthPx: Math.min(c.thumbWidthPx, widthPx),
      thumbHeightPx: Math.min(c.thumbHeightPx, heightPx),
    };
  });

describe('decodeBinned', () => {
  it('gives the same bins through the fast path as through the general one (every codec the writer has, sampling, tiles, NaN and Inf)', () => {
    let n = 0;
    fc.assert(
      fc.property(arbCase, (c) => {
        const path = join(dir.path, `case-${n++}.exr`);
        write(path, c);
        expectSameBins(binned(path, c, 'lines'), binned(path, c, 'each-line'), JSON.stringify(c));
      }),
      { numRuns: 150, seed: 20261122 },
    );
  });

  it('reads a PIZ chunk whose LUT is not the identity through the composed table, and one whose LUT is, through the plain one', () => {
    for (const kind of ['band', 'specials', 'dense'] as const) {
      const c: Case = {
        compression: 'piz',
        widthPx: 64,
        heightPx: 40,
        originX: 0,
        originY: 0,
        types: ['half', 'float'],
        subsampled: false,
        tiles: null,
        kind,
        thumbWidthPx: 9,
        thumbHeightPx: 7,
        seed: 7,
      };
      const path = join(dir.path, `piz-${kind}.exr`);
      write(path, c);
      expectSameBins(binned(path, c, 'lines'), binned(path, c, 'each-line'), kind);
    }
  });
});

describe('sumBins in bands', () => {
  /** Sums of each band, placed at its bin rows in one whole-thumbnail array per channel. */
  function bandedSums(path: string, c: Case, bands: { yMin: number; yMax: number }[]): Map<string, Float64Array> {
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      const part = reader.parts[0]!;
      const names = part.channels.map((ch) => ch.name);
      const whole = new Map(names.map((n) => [n, new Float64Array(c.thumbWidthPx * c.thumbHeightPx)]));
      for (const rows of bands) {
        const { sums } = sumBins(reader, part, part.levels[0]!, names, c.thumbWidthPx, c.thumbHeightPx, signal, 'lines', rows);
        for (const [name, acc] of sums.acc) {
          // a band holds its own bin rows only
          expect(acc.length).toBe((sums.tyMax - sums.tyMin + 1) * c.thumbWidthPx);
          const into = whole.get(name)!;
          for (let i = 0; i < acc.length; i++) into[sums.tyMin * c.thumbWidthPx + i]! += acc[i]!;
        }
      }
      return whole;
    } finally {
      source.close();
    }
  }

  it("bands of whole chunks add up to the whole level, and a band off the chunk edges holds its chunks' bin rows", () => {
    // ZIP: 16 lines a chunk; a data window off the origin
    const c: Case = {
      compression: 'zip',
      widthPx: 37,
      heightPx: 70,
      originX: -4,
      originY: 6,
      types: ['half', 'float'],
      subsampled: false,
      tiles: null,
      kind: 'dense',
      thumbWidthPx: 9,
      thumbHeightPx: 11,
      seed: 3,
    };
    const path = join(dir.path, 'bands.exr');
    write(path, c);
    const y0 = c.originY;
    const yEnd = y0 + c.heightPx - 1;
    const whole = bandedSums(path, c, [{ yMin: y0, yMax: yEnd }]);
    const edges = [
      { yMin: y0, yMax: y0 + 15 },
      { yMin: y0 + 16, yMax: y0 + 47 },
      { yMin: y0 + 48, yMax: yEnd },
    ];
    // inside the chunks at both ends: still every chunk, so every bin row
    const offEdges = [{ yMin: y0 + 3, yMax: yEnd - 2 }];
    for (const bands of [edges, offEdges]) {
      const summed = bandedSums(path, c, bands);
      for (const [name, acc] of whole) {
        const got = summed.get(name)!;
        for (let i = 0; i < acc.length; i++)
          expect(Math.abs(got[i]! - acc[i]!), `${name}[${i}]`).toBeLessThanOrEqual(Math.abs(acc[i]!) * 1e-12);
      }
    }
  });
});

/** The axis tables sample by sample, as the definition reads: the oracle for makeAxisBins' bin-by-bin runs. */
function axisBinsEachSample(first: number, levelSizePx: number, sampling: number, bins: number): AxisBins {
  const firstSample = Math.ceil(first / sampling);
  const samples = sampleCount(sampling, first, first + levelSizePx - 1);
  const binOf = new Int32Array(samples);
  const count = new Float64Array(bins);
  const runEnd = new Int32Array(bins);
  let largestCount = 0;
  for (let s = 0; s < samples; s++) {
    const px = (firstSample + s) * sampling - first;
    const bin = Math.min(bins - 1, Math.floor((px * bins) / levelSizePx));
    binOf[s] = bin;
    count[bin] = count[bin]! + 1;
    largestCount = Math.max(largestCount, count[bin]!);
    runEnd[bin] = s + 1;
  }
  return { binOf, runEnd, count, firstSample, largestCount };
}

describe('makeAxisBins', () => {
  it('gives the sample-by-sample tables for any origin, size, sampling and bin count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -300, max: 300 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 400 }),
        (first, size, sampling, bins) => {
          expect(makeAxisBins(first, size, sampling, bins)).toEqual(axisBinsEachSample(first, size, sampling, bins));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives them for large levels with few and many bins', () => {
    for (const [first, size, sampling, bins] of [
      [0, 3840, 1, 256],
      [-7, 2160, 2, 144],
      [1226, 1709, 1, 256],
      [0, 1 << 20, 1, 8192],
      [3, 16385, 3, 8192],
      [0, 100, 1, 8192],
    ] as const) {
      expect(makeAxisBins(first, size, sampling, bins)).toEqual(axisBinsEachSample(first, size, sampling, bins));
    }
  });
});
