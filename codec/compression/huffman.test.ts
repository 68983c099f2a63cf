// Tests of the OpenEXR Huffman coder: hand-made blocks, round trips, long codes, damaged input.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExrError } from '../core/errors.js';
import { huffmanCompress, huffmanDecompress } from './huffman.js';
import { arbCorrupted, lcg } from '../../testing/codec/test-layouts.js';

function header(im: number, iM: number, tableLength: number, nBits: number): number[] {
  const out: number[] = [];
  for (const value of [im, iM, tableLength, nBits, 0]) out.push(value & 255, (value >>> 8) & 255, (value >>> 16) & 255, value >>> 24);
  return out;
}

/** Index of the first difference, -1 when equal (vitest's deep equality is slow on large arrays). */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function roundTrip(values: Uint16Array): Uint8Array {
  const packed = huffmanCompress(values);
  expect(firstDifference(huffmanDecompress(packed, values.length), values)).toBe(-1);
  return packed;
}

/** Longest code length in a block's packed table (an independent reading of the table format). */
function maxCodeLength(block: Uint8Array): number {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const im = view.getUint32(0, true);
  const iM = view.getUint32(4, true);
  let pos = 20;
  let bits = 0;
  let count = 0;
  const read = (width: number): number => {
    while (count < width) {
      bits = ((bits << 8) | block[pos++]!) & 0xffffff;
      count += 8;
    }
    count -= width;
    return (bits >>> count) & ((1 << width) - 1);
  };
  let longest = 0;
  for (let symbol = im; symbol <= iM; symbol++) {
    const length = read(6);
    if (length <= 58) longest = Math.max(longest, length);
    else symbol += (length === 63 ? read(8) + 6 : length - 57) - 1;
  }
  return longest;
}

function expectExrError(action: () => unknown): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ExrError);
    return;
  }
}

describe('huffman block format', () => {
  it('decodes a hand-assembled block', () => {
    // values 3 3 4 3; code lengths 3:1, 4:2, 5 (run-length symbol):2; canonical codes with longer
    // codes numerically lower: 4 = 00, 5 = 01, 3 = 1. Table: 000001 000010 000010 -> 04 20 80.
    // Data: 1 1 00 1 -> 11001000 (5 bits).
    const block = new Uint8Array([...header(3, 5, 3, 5), 0x04, 0x20, 0x80, 0xc8]);
    expect(Array.from(huffmanDecompress(block, 4))).toEqual([3, 3, 4, 3]);
    expect(Array.from(huffmanCompress(new Uint16Array([3, 3, 4, 3])))).toEqual(Array.from(block));
  });

  it('decodes a hand-assembled run', () => {
    // twenty 7s: 7 = 0, run-length symbol 8 = 1, then 19 more copies in 8 bits: 0 1 00010011.
    const block = new Uint8Array([...header(7, 8, 2, 10), 0x04, 0x10, 0x44, 0xc0]);
    expect(Array.from(huffmanDecompress(block, 20))).toEqual(new Array(20).fill(7));
    expect(Array.from(huffmanCompress(new Uint16Array(20).fill(7)))).toEqual(Array.from(block));
  });

  it('packs runs of zero code lengths (short and long forms)', () => {
    // Symbols 0, 3 (a run of 2 zero lengths), 100 (a long run) and 500 (several long runs).
    const values = new Uint16Array([0, 0, 3, 3, 3, 100, 500, 0, 3]);
    roundTrip(values);
  });
});

describe('huffman round trips', () => {
  it('handles degenerate inputs', () => {
    expect(huffmanCompress(new Uint16Array(0)).length).toBe(0);
    expect(huffmanDecompress(new Uint8Array(0), 0).length).toBe(0);
    roundTrip(new Uint16Array([0]));
    roundTrip(new Uint16Array([65535]));
    roundTrip(new Uint16Array(100_000));
    roundTrip(new Uint16Array(1000).fill(65535));
    roundTrip(new Uint16Array([65535, 0, 65535, 65535, 0]));
    const everyValue = new Uint16Array(65536).map((_, i) => i);
    roundTrip(everyValue);
    roundTrip(everyValue.slice().reverse());
  });

  it('compresses runs well', () => {
    // Each run of 256 zeros costs 10 bits: the value, the run-length code, 8 bits of count.
    const packed = roundTrip(new Uint16Array(1 << 20));
    expect(packed.length).toBeLessThan(((1 << 20) / 256) * (10 / 8) + 64);
  });

  it('round-trips arbitrary values', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 65535 }), { maxLength: 3000 }), (list) => {
        roundTrip(Uint16Array.from(list));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips skewed values with runs', () => {
    const symbol = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 65500, max: 65535 }),
      fc.integer({ min: 0, max: 65535 }),
    );
    const run = fc.tuple(symbol, fc.integer({ min: 1, max: 600 }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 200 }), (runs) => {
        const list: number[] = [];
        for (const [value, length] of runs) for (let i = 0; i < length; i++) list.push(value);
        roundTrip(Uint16Array.from(list));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips large geometric and uniform data (fast and tail paths)', () => {
    const random = lcg(7);
    roundTrip(new Uint16Array(300_000).map(() => Math.floor(-Math.log(1 - random()) * 2000) & 0xffff));
    roundTrip(new Uint16Array(300_000).map(() => Math.floor(random() * 65536)));
  });

  it('round-trips codes longer than the lookup table and the 32-bit window', () => {
    // Fibonacci-like frequencies (1, 2, 3, 5, ...) give a chain-shaped Huffman tree: with 26
    // symbols the rarest codes are 26 bits long, beyond both the 14-bit table and the 24-bit
    // window of the fast path, so the bit-by-bit path runs inside the fast loop.
    const list: number[] = [];
    let a = 1;
    let b = 2;
    for (let symbol = 0; symbol < 26; symbol++) {
      for (let k = 0; k < a; k++) list.push(symbol * 1021);
      [a, b] = [b, a + b];
    }
    const random = lcg(3);
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    // Move the rarest symbols to the very end too (frequencies unchanged), so long codes are
    // also decoded by the tail loop.
    list.splice(list.indexOf(0), 1);
    list.splice(list.indexOf(1021), 1);
    list.push(1021, 0);
    const packed = roundTrip(Uint16Array.from(list));
    expect(maxCodeLength(packed)).toBeGreaterThan(24);
  });
});

describe('huffman damaged input', () => {
  const random = lcg(11);
  const sample = new Uint16Array(5000).map(() => Math.floor(-Math.log(1 - random()) * 50));
  for (let i = 0; i < 200; i++) sample[1000 + i] = 9;
  const good = huffmanCompress(sample);

  it('rejects every truncation', () => {
    for (let length = 0; length < good.length; length++) {
      expect(() => huffmanDecompress(good.subarray(0, length), sample.length)).toThrow(ExrError);
    }
  });

  it('rejects bad headers', () => {
    const with32 = (at: number, value: number): Uint8Array => {
      const copy = good.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    expect(() => huffmanDecompress(with32(0, 70000), sample.length)).toThrow(ExrError); // im
    expect(() => huffmanDecompress(with32(4, 65537), sample.length)).toThrow(ExrError); // iM
    expect(() => huffmanDecompress(with32(0, 65000), sample.length)).toThrow(ExrError); // im > iM
    expect(() => huffmanDecompress(with32(12, 0xffffffff), sample.length)).toThrow(ExrError); // nBits
    expect(() => huffmanDecompress(with32(12, 8), sample.length)).toThrow(ExrError); // too few bits for the output
    expect(() => huffmanDecompress(good, sample.length + 1)).toThrow(ExrError);
    expect(() => huffmanDecompress(good, 2 ** 40)).toThrow(ExrError);
    expect(() => huffmanDecompress(new Uint8Array(10), 1)).toThrow(ExrError);
  });

  it('rejects a code table that is not a prefix code', () => {
    // Lengths 1, 1, 1 for three symbols: over-subscribed.
    const block = new Uint8Array([...header(0, 2, 3, 8), 0x04, 0x10, 0x40, 0x00]);
    expect(() => huffmanDecompress(block, 1)).toThrow(ExrError);
    // Lengths 1 and 2 only (incomplete, "0" would prefix "00" in the canonical assignment).
    const prefixed = new Uint8Array([...header(0, 1, 2, 8), 0x04, 0x20, 0x00]);
    expect(() => huffmanDecompress(prefixed, 1)).toThrow(ExrError);
  });

  it('raises only ExrError on corrupted bytes, and terminates', () => {
    fc.assert(
      fc.property(arbCorrupted(good), (bad) => {
        expectExrError(() => huffmanDecompress(bad, sample.length));
      }),
      { numRuns: 500 },
    );
  });

  it('raises only ExrError on random blocks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 400 }), fc.nat(3000), (bytes, count) => {
        expectExrError(() => huffmanDecompress(bytes, count));
      }),
      { numRuns: 500 },
    );
  });
});
