// Finishing a thumbnail from its shared sums: the native kernel against the TypeScript, bit for bit, on random sums
// (clamped, subnormal, negative, zero), bands with shared edge rows, subsampled channels whose bins can be empty; and
// its 8-bit RGBA through a memo table against the TypeScript's lookups, up to the first value the memo lacks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../codec/compression/native.js';
import { ExrReader, memorySource } from '../../codec/index.js';
import { writeExr } from '../../codec/writer.js';
import { layoutSums, bandSums } from './band-sums.js';
import type { ThumbnailChannels } from './channels.js';
import { finishThumbnail } from './compose.js';

/** A part of 38x24 pixels off the origin: R and G on every pixel, `sub` on every other pixel and line. */
function part() {
  const dataWindow = { xMin: 4, yMin: 6, xMax: 41, yMax: 29 };
  const count = 38 * 24;
  const subCount = 19 * 12;
  const bytes = writeExr([
    {
      compression: 'none',
      dataWindow,
      channels: [
        { name: 'R', pixelType: 'half', data: new Uint16Array(count) },
        { name: 'G', pixelType: 'half', data: new Uint16Array(count) },
        { name: 'sub', pixelType: 'half', xSampling: 2, ySampling: 2, data: new Uint16Array(subCount) },
      ],
    },
  ]);
  return ExrReader.open(memorySource(bytes)).part(0);
}

const CHOICES: ThumbnailChannels[] = [
  { kind: 'rgb', r: 'R', g: 'G', b: 'sub', a: null, layer: '' },
  { kind: 'rgb', r: 'sub', g: null, b: 'R', a: 'G', layer: '' },
  { kind: 'grey', channel: 'G', a: 'sub' },
];

describe.skipIf(!nativeKernels)('finishThumbnail', () => {
  it("gives the same half RGBA natively as in TypeScript, and the memo's 8-bit values up to its first gap", () => {
    const p = part();
    const level = p.levels[0]!;
    const names = ['R', 'G', 'sub'];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(...CHOICES),
        fc.integer(),
        (widthPx, heightPx, bandCount, choice, seed) => {
          let state = seed >>> 0;
          const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
          // bands cover the bin rows in order, neighbours sharing an edge row or not
          const rows: { tyMin: number; tyMax: number }[] = [];
          let tyMin = 0;
          for (let b = 0; b < bandCount && tyMin < heightPx; b++) {
            const tyMax = b === bandCount - 1 ? heightPx - 1 : Math.min(heightPx - 1, tyMin + Math.floor(next() * 4));
            rows.push({ tyMin, tyMax });
            tyMin = next() < 0.5 ? tyMax : tyMax + 1;
          }
          if (rows.at(-1)!.tyMax < heightPx - 1) rows.push({ tyMin, tyMax: heightPx - 1 });
          const layout = layoutSums(names.length, widthPx, heightPx, rows);
          const ts = new SharedArrayBuffer(layout.byteLength);
          layout.bands.forEach((_, b) => {
            for (const sums of bandSums(ts, layout, b)) {
              for (let i = 0; i < sums.length; i++) {
                const r = next();
                // huge (clamped to 65504), tiny (subnormal halves), ordinary, negative, zero
                sums[i] = r < 0.1 ? 0 : (next() < 0.3 ? -1 : 1) * (r < 0.2 ? 1e12 * next() : r < 0.3 ? 1e-6 * next() : 100 * next());
              }
            }
          });
          const native = ts.slice(0);
          const shape = { part: p, level, choice, names, widthPx, heightPx };
          const pixels = widthPx * heightPx;
          const a = new Uint16Array(pixels * 4);
          const b = new Uint16Array(pixels * 4).fill(0xdead);
          expect(finishThumbnail(shape, ts, layout, a, null, null, false)).toBe(0);
          expect(finishThumbnail(shape, native, layout, b, null, null, true)).toBe(pixels);
          expect(Array.from(b)).toEqual(Array.from(a));
          // the slots are only read
          expect(new Float64Array(native)).toEqual(new Float64Array(ts));
          // a memo with gaps: 8-bit values up to the first pixel whose R, G or B has none, that pixel returned
          const memo = new Int16Array(65536).map((_, h) => (next() < 0.02 ? -1 : h % 251));
          const rgba8 = new Uint8Array(pixels * 4).fill(9);
          const mapped = finishThumbnail(shape, native, layout, new Uint16Array(pixels * 4), memo, rgba8, true);
          let gap = 0;
          while (gap < pixels && [0, 1, 2].every((k) => memo[a[4 * gap + k]!]! >= 0)) gap++;
          expect(mapped).toBe(gap);
          for (let i = 0; i < pixels; i++) {
            const want = i < gap ? [memo[a[4 * i]!], memo[a[4 * i + 1]!], memo[a[4 * i + 2]!], 255] : [9, 9, 9, 9];
            expect(Array.from(rgba8.subarray(4 * i, 4 * i + 4))).toEqual(want);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses band slots outside the buffer instead of reading past it', () => {
    const layout = layoutSums(1, 4, 2, [{ tyMin: 0, tyMax: 1 }]);
    // the counters and slots, without the damage tally after them
    const sums = new Float64Array(layout.damageByteOffset / 8);
    const finish = (bands: number[], outLength = 32, memo: Int16Array | null = null, rgba8: Uint8Array | null = null) =>
      nativeKernels!.finishThumbnail(
        sums,
        Int32Array.from(bands),
        1,
        4,
        2,
        new Float64Array(4),
        new Float64Array(2),
        Int32Array.from([0, 0, 0, -1]),
        new Uint16Array(outLength),
        memo,
        rgba8,
      );
    const slot = layout.bands[0]!;
    expect(() => finish([slot.byteOffset / 8, 0, 8])).not.toThrow();
    expect(() => finish([slot.byteOffset / 8 + 1, 0, 8])).toThrow(/band sums past the buffer/);
    expect(() => finish([slot.byteOffset / 8, 1, 8])).toThrow(/past the thumbnail/);
    expect(() => finish([slot.byteOffset / 8, 0, 8], 31)).toThrow(/half RGBA of the wrong size/);
    expect(() => finish([slot.byteOffset / 8, 0, 8], 32, new Int16Array(65536), new Uint8Array(31))).toThrow(
      /8-bit RGBA of the wrong size/,
    );
    expect(() => finish([slot.byteOffset / 8, 0, 8], 32, new Int16Array(100), new Uint8Array(32))).toThrow(TypeError);
  });
});
