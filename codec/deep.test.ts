// Deep parts: decoding what the writer wrote (any size, compression, tiling, region, channel set), damage, flattening.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenDeep } from './deep-flatten.js';
import { decodeDeep, type DeepChannel, type DeepImage } from './deep.js';
import { ExrError } from './core/errors.js';
import { openFileSource } from './file-source.js';
import { floatToHalf, HALF_TO_FLOAT } from './core/half.js';
import { deepSource } from '../testing/codec/oracle/images.js';
import { chunkSpans } from '../testing/codec/damage.js';
import { findImageTools, sharedDir } from '../testing/codec/oracle/tools.js';
import { ExrReader } from './reader.js';
import { memorySource } from './source.js';
import type { Box2i, Compression } from './core/types.js';
import { writeExr, type WriteChannel } from './writer.js';

const box = (xMin: number, yMin: number, w: number, h: number): Box2i => ({ xMin, yMin, xMax: xMin + w - 1, yMax: yMin + h - 1 });
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function writeDeep(
  dataWindow: Box2i,
  deep: { sampleCounts: Uint32Array; channels: WriteChannel[] },
  compression: Compression,
  tiles?: { xSizePx: number; ySizePx: number },
): Uint8Array {
  return writeExr([{ compression, dataWindow, channels: deep.channels, deepSampleCounts: deep.sampleCounts, ...(tiles ? { tiles } : {}) }]);
}

/** The samples of pixel (x, y) of `channel` in a written deep source. */
function samplesOf(
  deep: { sampleCounts: Uint32Array; channels: WriteChannel[] },
  widthPx: number,
  name: string,
  x: number,
  y: number,
): number[] {
  let start = 0;
  const p = y * widthPx + x;
  for (let i = 0; i < p; i++) start += deep.sampleCounts[i]!;
  const data = deep.channels.find((c) => c.name === name)!.data;
  return Array.from(data.subarray(start, start + deep.sampleCounts[p]!));
}

describe('decodeDeep', () => {
  it('reads back what the writer wrote, for any size, compression, tiling, region and channel subset (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          w: fc.integer({ min: 1, max: 30 }),
          h: fc.integer({ min: 1, max: 30 }),
          x0: fc.integer({ min: -20, max: 20 }),
          y0: fc.integer({ min: -20, max: 20 }),
          maxSamples: fc.integer({ min: 0, max: 6 }),
          compression: fc.constantFrom<Compression>('none', 'rle', 'zips'),
          tiles: fc.option(fc.record({ xSizePx: fc.integer({ min: 1, max: 16 }), ySizePx: fc.integer({ min: 1, max: 16 }) })),
          seed: fc.integer({ min: 1, max: 1e6 }),
          region: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
          subset: fc.subarray(['A', 'B', 'G', 'R', 'Z', 'id'], { minLength: 1 }),
        }),
        ({ w, h, x0, y0, maxSamples, compression, tiles, seed, region, subset }) => {
          const deep = deepSource(w, h, maxSamples, seed);
          const reader = ExrReader.open(memorySource(writeDeep(box(x0, y0, w, h), deep, compression, tiles ?? undefined)));
          const all = decodeDeep(reader);
          expect(bytesOf(all.sampleCounts).equals(bytesOf(deep.sampleCounts))).toBe(true);
          for (const c of deep.channels)
            expect(bytesOf(all.channels.find((d) => d.name === c.name)!.data).equals(bytesOf(c.data))).toBe(true);

          const rx0 = region[0] % w;
          const ry0 = region[1] % h;
          const rw = 1 + (region[2] % (w - rx0));
          const rh = 1 + (region[3] % (h - ry0));
          const part = decodeDeep(reader, { region: box(x0 + rx0, y0 + ry0, rw, rh), channels: subset });
          expect(part.channels.map((c) => c.name)).toEqual(['A', 'B', 'G', 'R', 'Z', 'id'].filter((n) => subset.includes(n)));
          for (let y = 0; y < rh; y++) {
            for (let x = 0; x < rw; x++) {
              const p = y * rw + x;
              expect(part.sampleCounts[p]).toBe(deep.sampleCounts[(ry0 + y) * w + rx0 + x]);
              for (const c of part.channels) {
                const got = Array.from(c.data.subarray(part.sampleOffsets[p]!, part.sampleOffsets[p + 1]!));
                expect(got).toEqual(samplesOf(deep, w, c.name, rx0 + x, ry0 + y));
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('damaged deep files fail with an ExrError, never another exception (property)', () => {
    const deep = deepSource(23, 17, 3, 11);
    const files = (['none', 'rle', 'zips'] as const).flatMap((c) => [
      writeDeep(box(-2, 5, 23, 17), deep, c),
      writeDeep(box(-2, 5, 23, 17), deep, c, { xSizePx: 8, ySizePx: 5 }),
    ]);
    fc.assert(
      fc.property(fc.nat(files.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 8 }), (which, edits) => {
        const bytes = files[which]!.slice();
        for (const [at, value] of edits) bytes[at % bytes.length] = value;
        try {
          decodeDeep(ExrReader.open(memorySource(bytes)), { maxSamples: 1e6 });
        } catch (error) {
          expect(error).toBeInstanceOf(ExrError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses more samples than the limit before inflating them', () => {
    const deep = deepSource(10, 10, 4, 3);
    const reader = ExrReader.open(memorySource(writeDeep(box(0, 0, 10, 10), deep, 'zips')));
    expect(() => decodeDeep(reader, { maxSamples: 50 })).toThrow(/more than 50 deep samples/);
  });

  it('rejects a count table that decreases', () => {
    const deep = deepSource(6, 2, 3, 5);
    deep.sampleCounts.fill(2);
    const bytes = writeDeep(
      box(0, 0, 6, 2),
      {
        sampleCounts: deep.sampleCounts,
        channels: deep.channels.map((c) => ({
          ...c,
          data: c.pixelType === 'half' ? new Uint16Array(24) : c.pixelType === 'float' ? new Float32Array(24) : new Uint32Array(24),
        })),
      },
      'none',
    );
    const reader = ExrReader.open(memorySource(bytes));
    // chunk 0: y (4), three u64 sizes (24), then the table: make entry 3 smaller than entry 2
    const table = reader.offsets[0]![0]! + 4 + 24;
    new DataView(bytes.buffer).setInt32(table + 3 * 4, 1, true);
    expect(() => decodeDeep(ExrReader.open(memorySource(bytes)))).toThrow(/count table decreases/);
  });

  it('rejects a chunk whose unpacked size disagrees with its counts', () => {
    const deep = deepSource(6, 2, 3, 5);
    const bytes = writeDeep(box(0, 0, 6, 2), deep, 'none');
    const reader = ExrReader.open(memorySource(bytes));
    const unpackedField = reader.offsets[0]![0]! + 4 + 16;
    const view = new DataView(bytes.buffer);
    view.setUint32(unpackedField, view.getUint32(unpackedField, true) + 1, true);
    expect(() => decodeDeep(ExrReader.open(memorySource(bytes)))).toThrow(/samples take .* bytes/);
  });

  it('refuses flat parts, and decode refuses deep parts', () => {
    const flat = writeExr([{ dataWindow: box(0, 0, 2, 2), channels: [{ name: 'Y', pixelType: 'half', data: new Uint16Array(4) }] }]);
    expect(() => decodeDeep(ExrReader.open(memorySource(flat)))).toThrow(/not a deep part/);
    const deep = ExrReader.open(memorySource(writeDeep(box(0, 0, 3, 3), deepSource(3, 3, 2), 'rle')));
    expect(() => deep.decode()).toThrow(/deep part/);
  });

  it('the writer refuses ZIP in deep parts (OpenEXR reads NONE, RLE and ZIPS only)', () => {
    expect(() => writeDeep(box(0, 0, 3, 3), deepSource(3, 3, 2), 'zip')).toThrow(/cannot use ZIP/);
  });
});

function deepImage(samples: { Z?: number[]; A: number[]; R: number[] }[]): DeepImage {
  const sampleCounts = Uint32Array.from(samples, (s) => s.A.length);
  const sampleOffsets = new Uint32Array(samples.length + 1);
  samples.forEach((s, i) => (sampleOffsets[i + 1] = sampleOffsets[i]! + s.A.length));
  const half = (values: number[]) => Uint16Array.from(values, floatToHalf);
  const channels: DeepChannel[] = [
    { name: 'A', pixelType: 'half' as const, data: half(samples.flatMap((s) => s.A)) },
    { name: 'R', pixelType: 'half' as const, data: half(samples.flatMap((s) => s.R)) },
  ];
  if (samples.some((s) => s.Z))
    channels.push({ name: 'Z', pixelType: 'float' as const, data: Float32Array.from(samples.flatMap((s) => s.Z ?? [])) });
  return {
    part: 0,
    lx: 0,
    ly: 0,
    region: box(0, 0, samples.length, 1),
    widthPx: samples.length,
    heightPx: 1,
    sampleCounts,
    sampleOffsets,
    totalSamples: sampleOffsets[samples.length]!,
    channels,
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 },
  };
}

describe('flattenDeep', () => {
  it('composites front to back with "over", nearest Z first whatever the file order', () => {
    const flat = flattenDeep(
      deepImage([
        { Z: [5, 1], A: [0.5, 0.5], R: [0.5, 0.25] }, // front sample is the second: 0.25 + 0.5 * 0.5
        { A: [], R: [] },
        { Z: [2], A: [1], R: [0.75] },
      ]),
    );
    const value = (name: string, i: number) => HALF_TO_FLOAT[flat.channels.find((c) => c.name === name)!.data[i]!]!;
    expect(value('R', 0)).toBeCloseTo(0.5, 3);
    expect(value('A', 0)).toBeCloseTo(0.75, 3);
    expect(flat.channels.find((c) => c.name === 'Z')!.data[0]).toBe(1);
    expect(value('R', 1)).toBe(0);
    expect(value('R', 2)).toBe(0.75);
  });

  const tools = findImageTools();
  const balls = join(sharedDir, 'corpus/openexr-images/v2/LowResLeftView/Balls.exr');
  const reason = !existsSync(balls) ? `${balls} is absent` : !tools.oiiotool ? 'oiiotool is not installed' : null;
  it.skipIf(reason !== null)(`RGBA equals oiiotool --flatten on the corpus's deep file${reason ? ` (skipped: ${reason})` : ''}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-flatten-'));
    try {
      const reference = join(dir, 'flat.exr');
      execFileSync(tools.oiiotool!, [balls, '--flatten', '-o', reference], { stdio: 'ignore' });
      const source = openFileSource(balls);
      const refSource = openFileSource(reference);
      try {
        const flat = flattenDeep(decodeDeep(ExrReader.open(source)));
        const want = ExrReader.open(refSource).decode();
        for (const name of ['R', 'G', 'B', 'A']) {
          const got = flat.channels.find((c) => c.name === name)!.data;
          expect(bytesOf(got).equals(bytesOf(want.channels.find((c) => c.name === name)!.data)), name).toBe(true);
        }
      } finally {
        source.close();
        refSource.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tolerant decodeDeep', () => {
  const W = 9;
  const H = 6;
  const deep = deepSource(W, H, 4, 7);
  // ZIPS: one line a chunk
  const whole = writeDeep(box(2, 3, W, H), deep, 'zips');
  const spans = chunkSpans(whole);
  const decode = (bytes: Uint8Array, tolerant: boolean) => decodeDeep(ExrReader.open(memorySource(bytes)), { tolerant });

  /** Lines [yMin, yMax] (from 0) of `got` hold no samples; the others are `want`'s, sample for sample. */
  function expectLinesMissing(got: DeepImage, want: DeepImage, yMin: number, yMax: number): void {
    for (let y = 0; y < H; y++) {
      const counts = got.sampleCounts.subarray(y * W, (y + 1) * W);
      if (y >= yMin && y <= yMax) {
        expect(counts.every((n) => n === 0)).toBe(true);
        continue;
      }
      expect(counts).toEqual(want.sampleCounts.subarray(y * W, (y + 1) * W));
      for (let c = 0; c < want.channels.length; c++) {
        const from = (image: DeepImage) => image.channels[c]!.data.subarray(image.sampleOffsets[y * W]!, image.sampleOffsets[(y + 1) * W]!);
        expect(from(got)).toEqual(from(want));
      }
    }
  }

  it('a file cut short: the lines before the cut decoded, the rest listed with the reason; strict still throws', () => {
    const cut = whole.subarray(0, spans[3]!.start + 6);
    expect(() => decode(cut, false)).toThrow(ExrError);
    const got = decode(cut, true);
    expect(got.missing).toMatchObject({ chunksRead: 3, chunksTotal: 6 });
    expect(got.missing!.failures.map((f) => f.chunk)).toEqual([3, 4, 5]);
    expect(got.missing!.failures[0]!.reason).toMatch(/^part 0, chunk 3: /);
    expect(got.missing!.failures[0]!.region).toEqual(box(2, 6, W, 1));
    expectLinesMissing(got, decode(whole, false), 3, 5);
    // flattened: the missing lines are zero, and the image still says what is missing
    const flat = flattenDeep(got);
    expect(flat.missing).toBe(got.missing);
    for (const c of flat.channels) expect(Array.from(c.data.subarray(3 * W))).toEqual(new Array(3 * W).fill(0));
  });

  it('one zeroed chunk between good ones: only its line missing; a whole file has nothing missing', () => {
    const damaged = whole.slice();
    damaged.fill(0, spans[2]!.start, spans[2]!.end);
    expect(() => decode(damaged, false)).toThrow(/chunk 2/);
    const got = decode(damaged, true);
    expect(got.missing).toMatchObject({ chunksRead: 5, chunksTotal: 6 });
    expectLinesMissing(got, decode(whole, false), 2, 2);
    expect(decode(whole, true).missing).toBeUndefined();
  });

  it('a file of which no chunk can be read fails, saying so, with nothing allocated', () => {
    const none = whole.slice();
    for (const span of spans) none.fill(0, span.start, span.end);
    expect(() => decode(none, true)).toThrow(/^part 0, chunk \d+: .*\(and no other chunk of the image could be read either\)$/);
  });

  it('a deep tiled file with a zeroed tile: that tile has no samples, its neighbours decode', () => {
    const tiled = writeDeep(box(0, 0, W, H), deep, 'zips', { xSizePx: 4, ySizePx: 4 });
    const tileSpans = chunkSpans(tiled);
    const damaged = tiled.slice();
    damaged.fill(0, tileSpans[1]!.start, tileSpans[1]!.end); // tile (1, 0): x 4-7, y 0-3
    const got = decode(damaged, true);
    expect(got.missing).toMatchObject({ chunksRead: 5, chunksTotal: 6 });
    expect(got.missing!.failures[0]!.region).toEqual(box(4, 0, 4, 4));
    const want = decode(tiled, false);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const inTile = x >= 4 && x < 8 && y < 4;
        expect(got.sampleCounts[y * W + x], `${x}, ${y}`).toBe(inTile ? 0 : want.sampleCounts[y * W + x]);
      }
  });

  const trunks = join(sharedDir, 'corpus', 'openexr-images', 'v2', 'LowResLeftView', 'Trunks.exr');
  it.skipIf(!existsSync(trunks))("OpenEXR's Trunks.exr cut short at test time: its first chunks read, the rest listed", () => {
    const bytes = new Uint8Array(readFileSync(trunks));
    const sorted = [...ExrReader.open(memorySource(bytes)).offsets[0]!].sort((a, b) => a - b);
    const cut = bytes.subarray(0, sorted[Math.floor(sorted.length * 0.6)]! + 12);
    const got = decode(cut, true);
    expect(got.missing!.chunksRead).toBe(Math.floor(sorted.length * 0.6));
    expect(got.missing!.chunksTotal).toBe(sorted.length);
    expect(got.totalSamples).toBeGreaterThan(0);
  });
});
