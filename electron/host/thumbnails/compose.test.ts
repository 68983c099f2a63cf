// Finishing a thumbnail from its shared sums: the native kernel against the TypeScript, bit for bit, on random sums
// (clamped, subnormal, negative, zero), bands with shared edge rows, subsampled channels whose bins can be empty.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../exr/compression/native.js';
import { ExrReader, memorySource } from '../../exr/index.js';
import { writeExr } from '../../exr/writer.js';
import { layoutSums, bandSums } from './band-sums.js';
import type { ThumbnailChannels } from './channels.js';
import { finishInBuffer } from './compose.js';

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

describe.skipIf(!nativeKernels)('finishInBuffer', () => {
  it('gives the same whole sums and half RGBA natively as in TypeScript', () => {
    const p = part();
    const level = p.levels[0]!;
    const names = ['R', 'G', 'sub'];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 5 }), fc.constantFrom(...CHOICES), fc.integer(), (widthPx, heightPx, bandCount, choice, seed) => {
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
        new Float64Array(native).fill(NaN, layout.countersBytes / 8, layout.countersBytes / 8 + names.length * widthPx * heightPx);
        const shape = { part: p, level, choice, names, widthPx, heightPx };
        const a = finishInBuffer(shape, ts, layout, false);
        const b = finishInBuffer(shape, native, layout, true);
        expect(Array.from(b)).toEqual(Array.from(a));
        expect(new Float64Array(native)).toEqual(new Float64Array(ts));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses band slots outside the buffer instead of reading past it', () => {
    const layout = layoutSums(1, 4, 2, [{ tyMin: 0, tyMax: 1 }]);
    const sums = new Float64Array(layout.byteLength / 8);
    const finish = (bands: number[], widthPx = 4) =>
      nativeKernels!.finishThumbnail(sums, layout.countersBytes / 8, Int32Array.from(bands), 1, widthPx, 2, new Float64Array(widthPx), new Float64Array(2), Int32Array.from([0, 0, 0, -1]), new Uint16Array(widthPx * 8));
    const slot = layout.bands[0]!;
    expect(() => finish([slot.byteOffset / 8, 0, 8])).not.toThrow();
    expect(() => finish([slot.byteOffset / 8 + 1, 0, 8])).toThrow(/band sums past the buffer/);
    expect(() => finish([slot.byteOffset / 8, 1, 8])).toThrow(/past the thumbnail/);
    expect(() => finish([slot.byteOffset / 8, 0, 8], 20)).toThrow(/whole sums past the buffer/);
  });
});
