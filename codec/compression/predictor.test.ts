import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { interleaveAndPredict, unpredictAndInterleave } from './predictor.js';

/** A copy of bytes at a chosen byte offset of its buffer (offset 1 forces the byte-at-a-time path). */
function copyAt(bytes: Uint8Array, byteOffset: number): Uint8Array {
  const view = new Uint8Array(new ArrayBuffer(bytes.length + 8), byteOffset, bytes.length);
  view.set(bytes);
  return view;
}

describe('predictor', () => {
  it('splits even and odd bytes and codes differences with a +128 bias', () => {
    // Reordered: 1 3 5 | 2 4 6; differences: 3-1, 5-3, 2-5, 4-2, 6-4, plus 128.
    expect([...interleaveAndPredict(new Uint8Array([1, 2, 3, 4, 5, 6]))]).toEqual([1, 130, 130, 125, 130, 130]);
    expect([...unpredictAndInterleave(new Uint8Array([1, 130, 130, 125, 130, 130]))]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('wraps modulo 256 and handles odd lengths', () => {
    // Reordered: 250 5 7 | 10 0; differences wrap.
    expect([...interleaveAndPredict(new Uint8Array([250, 10, 5, 0, 7]))]).toEqual([250, 139, 130, 131, 118]);
    expect([...unpredictAndInterleave(new Uint8Array([250, 139, 130, 131, 118]))]).toEqual([250, 10, 5, 0, 7]);
  });

  it('handles empty and single-byte input', () => {
    expect(unpredictAndInterleave(new Uint8Array(0)).length).toBe(0);
    expect([...unpredictAndInterleave(new Uint8Array([77]))]).toEqual([77]);
    expect([...interleaveAndPredict(new Uint8Array([77]))]).toEqual([77]);
  });

  it('round-trips any bytes, on both the word and the byte path', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(0, 1, 2, 4), (raw, byteOffset) => {
        const coded = copyAt(interleaveAndPredict(raw), byteOffset);
        expect(unpredictAndInterleave(coded)).toEqual(raw);
      }),
      { numRuns: 300 },
    );
  });

  it('word path (multiple of 8, aligned) equals the byte path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.uint8Array({ minLength: 512, maxLength: 512 }), (words, pool) => {
        const coded = pool.subarray(0, words * 8);
        const viaWords = unpredictAndInterleave(copyAt(coded, 0));
        const viaBytes = unpredictAndInterleave(copyAt(coded, 1));
        expect(viaWords).toEqual(viaBytes);
      }),
      { numRuns: 200 },
    );
  });
});
