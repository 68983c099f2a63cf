// The box-filter kernels against a sample-by-sample sum, and the PIZ LUT composition.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../codec/compression/native.js';
import { composeWithLut, HALF_MAX, SANE_HALF, sumHalfLines, sumHalfLinesTs } from './bins.js';

/** SANE_HALF of code * 40503 mod 2^16 (a bijection over every code, NaN and infinities included). */
const PERMUTED_TABLE = Float32Array.from({ length: 65536 }, (_, code) => SANE_HALF[(code * 40503) & 0xffff]!);

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
          const u16 = Uint16Array.from(
            { length: 2 + lineCount * stride },
            () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16,
          );
          const acc = new Float64Array(bins * 2);
          sumHalfLines(u16, 2, stride, lineCount, firstX, n, { binOf, runEnd, acc, anyOrder: true }, bins, SANE_HALF);
          const want = new Float64Array(bins * 2);
          for (let l = 0; l < lineCount; l++)
            for (let s = 0; s < n; s++) want[bins + binOf[firstX + s]!]! += SANE_HALF[u16[2 + l * stride + s]!]!;
          acc.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 6));
        },
      ),
      { numRuns: 300 },
    );
  });

  // Sums of up to 2^13 halves are exact in float64 in any order (bins.c), so the native kernel, which then adds column
  // by column, with F16C vectors when the table is SANE_HALF and AVX2 gathers from another table (a PIZ chunk's), must
  // still give the TypeScript kernel's sums to the bit.
  it.skipIf(!nativeKernels)(
    "the native kernel gives the TypeScript kernel's sums bit for bit, from the table or the CPU's conversion, NaN and infinite codes included",
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 13 }),
          fc.integer({ min: 1, max: 300 }),
          fc.integer({ min: 0, max: 7 }),
          fc.integer({ min: 1, max: 40 }),
          fc.constantFrom('any', 'finite', 'mostly-finite'),
          fc.boolean(),
          fc.boolean(),
          fc.integer(),
          (lineCount, n, firstX, bins, codes, halfBits, anyOrder, seed) => {
            const columns = firstX + n;
            const binOf = Int32Array.from({ length: columns }, (_, s) => Math.min(bins - 1, Math.floor((s * bins) / columns)));
            const runEnd = new Int32Array(bins);
            binOf.forEach((b, s) => (runEnd[b] = s + 1));
            const stride = n + (seed & 7);
            let state = seed >>> 0;
            const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16;
            // 'any': one code in 32 is NaN or infinite; 'finite': none (the vector path throughout); 'mostly-finite': a few
            const code = () => {
              const c = next();
              if (codes === 'any' || (codes === 'mostly-finite' && c % 97 === 0)) return c;
              return (c & 0x7c00) === 0x7c00 ? c & 0xbfff : c;
            };
            const u16 = Uint16Array.from({ length: 5 + lineCount * stride }, code);
            const start = new Float64Array(bins * 3).map((_, i) => i * 0.25);
            const native = start.slice();
            const ts = start.slice();
            // a table other than SANE_HALF: the values of a PIZ chunk's codes (here every code mapped to another half)
            const table = halfBits || seed & 8 ? SANE_HALF : PERMUTED_TABLE;
            // at most 13 x 300 samples a bin: exact in any order
            nativeKernels!.sumHalfLines(u16, 5, stride, lineCount, firstX, n, binOf, runEnd, native, bins, table, halfBits, anyOrder);
            sumHalfLinesTs(u16, 5, stride, lineCount, firstX, n, { binOf, runEnd, acc: ts, anyOrder }, bins, table);
            expect(native).toEqual(ts);
          },
        ),
        { numRuns: 400 },
      );
    },
  );

  it.skipIf(!nativeKernels)("the native kernel adds in the TypeScript kernel's order where bins are too large for any order", () => {
    // one bin 20000 columns wide of 65504 and 2^-24 in turn: past 2^32 the sum rounds away tiny columns, and summed
    // even and odd columns apart it would come out 2^-19 larger
    const n = 20000;
    const binOf = new Int32Array(n);
    const runEnd = new Int32Array([n]);
    const u16 = Uint16Array.from({ length: 4 * n }, (_, i) => (i % 2 === 0 ? 0x7bff : 0x0001));
    for (const halfBits of [true, false]) {
      const native = new Float64Array(1);
      const ts = new Float64Array(1);
      nativeKernels!.sumHalfLines(u16, 0, n, 4, 0, n, binOf, runEnd, native, 0, SANE_HALF, halfBits, false);
      sumHalfLinesTs(u16, 0, n, 4, 0, n, { binOf, runEnd, acc: ts, anyOrder: false }, 0, SANE_HALF);
      expect(native).toEqual(ts);
    }
  });

  it.skipIf(!nativeKernels)('the native kernel steps over a bin no column falls in (a thumbnail wider than its channel)', () => {
    // columns 0-1 in bin 0, 2-3 in bin 2; bin 1 empty (its run ends where it starts, as makeAxisBins leaves it)
    const binOf = new Int32Array([0, 0, 2, 2]);
    const runEnd = new Int32Array([2, 0, 4]);
    const u16 = Uint16Array.from([0x3c00, 0x4000, 0x4200, 0x4400]);
    const native = new Float64Array(3);
    const ts = new Float64Array(3);
    nativeKernels!.sumHalfLines(u16, 0, 4, 1, 0, 4, binOf, runEnd, native, 0, SANE_HALF, true, true);
    sumHalfLinesTs(u16, 0, 4, 1, 0, 4, { binOf, runEnd, acc: ts, anyOrder: true }, 0, SANE_HALF);
    expect(Array.from(native)).toEqual([3, 0, 7]);
    expect(native).toEqual(ts);
  });

  it.skipIf(!nativeKernels)('the native kernel refuses geometry outside its arrays instead of reading past them', () => {
    const binOf = new Int32Array([0, 0, 1, 1]);
    const runEnd = new Int32Array([2, 4]);
    const acc = new Float64Array(2);
    const u16 = new Uint16Array(8);
    const sum = (firstIndex: number, stride: number, lines: number, firstX: number, n: number, rowStart: number) =>
      nativeKernels!.sumHalfLines(u16, firstIndex, stride, lines, firstX, n, binOf, runEnd, acc, rowStart, SANE_HALF, true, true);
    expect(() => sum(0, 4, 2, 0, 4, 0)).not.toThrow();
    expect(() => sum(1, 4, 2, 0, 4, 0)).toThrow(/lines past the samples/);
    expect(() => sum(0, 4, 2, 1, 4, 0)).toThrow(/past the bin map/);
    expect(() => sum(0, 4, 1, 0, 4, 1)).toThrow(/bin outside the row/);
    expect(() => sum(0, 4, 1, 0, 4.5, 0)).toThrow(TypeError);
    // runs that do not say where the map does (bin 1's run would start at column 1, which the map puts in bin 0)
    const runsDisagree = () =>
      nativeKernels!.sumHalfLines(u16, 0, 4, 1, 0, 4, binOf, new Int32Array([1, 4]), acc, 0, SANE_HALF, true, true);
    expect(runsDisagree).toThrow(/bin map and runs disagree/);
    expect(() => nativeKernels!.sumHalfLines(u16, 0, 4, 1, 0, 4, binOf, runEnd, acc, 0, new Float32Array(10), true, true)).toThrow(
      TypeError,
    );
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

  it.skipIf(!nativeKernels)('composes natively what the TypeScript composes, every half code included', () => {
    const lut = new Uint16Array(65536);
    for (let code = 0; code < lut.length; code++) lut[code] = (code * 40503) & 0xffff;
    for (const maxCode of [65535, 4094, 1000, 17, 0]) {
      const ts = Float32Array.from(composeWithLut(lut, maxCode, false));
      const native = Float32Array.from(composeWithLut(lut, maxCode, true));
      expect(native).toEqual(ts);
    }
  });
});
