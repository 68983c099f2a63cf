// The box-filter kernels against a sample-by-sample sum, and the PIZ LUT composition.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../exr/compression/native.js';
import { composeWithLut, HALF_MAX, SANE_HALF, sumHalfLines, sumHalfLinesTs } from './bins.js';

describe('sumHalfLines', () => {
  it('adds every sample of every line to its bin, for any number of lines, stride and start column', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer(),
        (lineCount, n, firstX, bins, seed) => {
          const columns = firstX + n;
          const binOf = Int32Array.from({ length: columns }, (_, s) => Math.min(bins - 1, Math.floor((s * bins) / columns)));
          const runEnd = new Int32Array(bins);
          binOf.forEach((b, s) => (runEnd[b] = s + 1));
          const stride = n + 3;
          let state = seed >>> 0;
          const u16 = Uint16Array.from({ length: 2 + lineCount * stride }, () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16);
          const acc = new Float64Array(bins * 2);
          sumHalfLines(u16, 2, stride, lineCount, firstX, n, { binOf, runEnd, acc }, bins, SANE_HALF);
          const want = new Float64Array(bins * 2);
          for (let l = 0; l < lineCount; l++) for (let s = 0; s < n; s++) want[bins + binOf[firstX + s]!]! += SANE_HALF[u16[2 + l * stride + s]!]!;
          acc.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 6));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.skipIf(!nativeKernels)('the native kernel gives the TypeScript kernel\'s sums bit for bit, NaN and infinite codes included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (lineCount, n, firstX, bins, seed) => {
        const columns = firstX + n;
        const binOf = Int32Array.from({ length: columns }, (_, s) => Math.min(bins - 1, Math.floor((s * bins) / columns)));
        const runEnd = new Int32Array(bins);
        binOf.forEach((b, s) => (runEnd[b] = s + 1));
        const stride = n + (seed & 7);
        let state = seed >>> 0;
        const u16 = Uint16Array.from({ length: 5 + lineCount * stride }, () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16);
        const start = new Float64Array(bins * 3).map((_, i) => i * 0.25);
        const native = start.slice();
        const ts = start.slice();
        sumHalfLines(u16, 5, stride, lineCount, firstX, n, { binOf, runEnd, acc: native }, bins, SANE_HALF);
        sumHalfLinesTs(u16, 5, stride, lineCount, firstX, n, { binOf, runEnd, acc: ts }, bins, SANE_HALF);
        expect(native).toEqual(ts);
      }),
      { numRuns: 300 },
    );
  });

  it.skipIf(!nativeKernels)('the native kernel refuses geometry outside its arrays instead of reading past them', () => {
    const binOf = new Int32Array([0, 0, 1, 1]);
    const runEnd = new Int32Array([2, 4]);
    const acc = new Float64Array(2);
    const u16 = new Uint16Array(8);
    const sum = (firstIndex: number, stride: number, lines: number, firstX: number, n: number, rowStart: number) =>
      nativeKernels!.sumHalfLines(u16, firstIndex, stride, lines, firstX, n, binOf, runEnd, acc, rowStart, SANE_HALF);
    expect(() => sum(0, 4, 2, 0, 4, 0)).not.toThrow();
    expect(() => sum(1, 4, 2, 0, 4, 0)).toThrow(/lines past the samples/);
    expect(() => sum(0, 4, 2, 1, 4, 0)).toThrow(/past the bin map/);
    expect(() => sum(0, 4, 1, 0, 4, 1)).toThrow(/bin outside the row/);
    expect(() => sum(0, 4, 1, 0, 4.5, 0)).toThrow(TypeError);
    expect(() => nativeKernels!.sumHalfLines(u16, 0, 4, 1, 0, 4, binOf, runEnd, acc, 0, new Float32Array(10))).toThrow(TypeError);
  });
});

describe('SANE_HALF', () => {
  it('reads NaN as 0 and infinities as the largest half', () => {
    expect([SANE_HALF[0x7e00], SANE_HALF[0x7c00], SANE_HALF[0xfc00], SANE_HALF[0x3c00]]).toEqual([0, HALF_MAX, -HALF_MAX, 1]);
  });
});

describe('composeWithLut', () => {
  it("gives each code its value's SANE_HALF, and 0 above the chunk's largest code even after a chunk with more codes", () => {
    const lut = new Uint16Array(65536);
    lut.set([0, 0x3c00, 0x7c00, 0x7e00, 0x4000, 0xc000]);
    expect(Array.from(composeWithLut(lut, 5).subarray(0, 7))).toEqual([0, 1, HALF_MAX, 0, 2, -2, 0]);
    lut.fill(0, 3);
    expect(Array.from(composeWithLut(lut, 2).subarray(0, 7))).toEqual([0, 1, HALF_MAX, 0, 0, 0, 0]);
  });
});
