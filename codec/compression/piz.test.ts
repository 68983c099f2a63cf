// Tests of PIZ: wavelet known answers, round trips over pixel types, sampling and block shapes, damaged input.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExrError } from '../core/errors.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Channel, type PixelType } from '../core/types.js';
import { uncompressedBytes } from '../blocks.js';
import { compress, decompress } from './index.js';
import { arbCorrupted, lcg } from '../../testing/codec/test-layouts.js';
import { compressPiz, decompressPiz, wav2Decode, wav2Encode } from './piz.js';

function channel(name: string, pixelType: PixelType, xSampling = 1, ySampling = 1): Channel {
  return { name, pixelType, pLinear: false, xSampling, ySampling };
}

type Flavor = 'random' | 'smooth' | 'constant' | 'zero' | 'sparse';

/** Raw chunk bytes in the BlockLayout order, with sample values shaped by flavor. */
function makeRaw(block: BlockLayout, flavor: Flavor, seed: number): Uint8Array {
  const raw = new Uint8Array(uncompressedBytes(block));
  const random = lcg(seed);
  let at = 0;
  for (let line = 0; line < block.heightPx; line++) {
    const y = block.y0 + line;
    for (const c of block.channels) {
      if (floorMod(y, c.ySampling) !== 0) continue;
      const width = sampleCount(c.xSampling, block.x0, block.x0 + block.widthPx - 1);
      const bytes = PIXEL_TYPE_BYTES[c.pixelType];
      for (let x = 0; x < width; x++) {
        for (let b = 0; b < bytes; b++) {
          let value = 0;
          if (flavor === 'random') value = Math.floor(random() * 256);
          else if (flavor === 'smooth') value = b === 0 ? (x * 3 + line * 5) & 255 : b === 1 ? 0x3c : 0;
          else if (flavor === 'constant') value = 0x5a ^ b;
          else if (flavor === 'sparse') value = random() < 0.05 ? Math.floor(random() * 256) : 0;
          raw[at++] = value;
        }
      }
    }
  }
  expect(at).toBe(raw.length);
  return raw;
}

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function roundTrip(block: BlockLayout, raw: Uint8Array): Uint8Array {
  const packed = compressPiz(raw, block);
  expect(firstDifference(decompressPiz(packed, block, raw.length), raw)).toBe(-1);
  return packed;
}

describe('PIZ wavelet', () => {
  it('matches hand-computed 14-bit and 16-bit transforms of a 2x2 block', () => {
    // 14-bit: rows (10,4)->(7,6), (6,0)->(3,6); columns (7,3)->(5,4), (6,6)->(6,0).
    const small = new Uint16Array([10, 4, 6, 0]);
    wav2Encode(small, 0, 2, 1, 2, 2, 10);
    expect(Array.from(small)).toEqual([5, 6, 4, 0]);
    wav2Decode(small, 0, 2, 1, 2, 2, 10);
    expect(Array.from(small)).toEqual([10, 4, 6, 0]);
    // 16-bit (modular, offset 2^15), chosen because the maximum value is >= 2^14.
    const large = new Uint16Array([40000, 1, 0, 65535]);
    wav2Encode(large, 0, 2, 1, 2, 2, 65535);
    expect(Array.from(large)).toEqual([26383, 36384, 20001, 7230]);
    wav2Decode(large, 0, 2, 1, 2, 2, 65535);
    expect(Array.from(large)).toEqual([40000, 1, 0, 65535]);
  });

  it('inverts itself on any plane shape and stride', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 2 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 1 << 30 }),
        (nx, ny, stride, wide, seed) => {
          const maxValue = wide ? 65535 : 16383;
          const random = lcg(seed);
          const plane = new Uint16Array(nx * ny * stride).map(() => Math.floor(random() * (maxValue + 1)));
          const copy = plane.slice();
          for (let word = 0; word < stride; word++) wav2Encode(plane, word, nx, stride, ny, nx * stride, maxValue);
          for (let word = 0; word < stride; word++) wav2Decode(plane, word, nx, stride, ny, nx * stride, maxValue);
          expect(firstDifference(plane, copy)).toBe(-1);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('PIZ round trips', () => {
  const rgbaHalf = ['A', 'B', 'G', 'R'].map((name) => channel(name, 'half'));

  it('round-trips a full 32-line half RGBA chunk of every flavor', () => {
    const block: BlockLayout = { channels: rgbaHalf, x0: 0, y0: 0, widthPx: 97, heightPx: 32 };
    for (const flavor of ['random', 'smooth', 'constant', 'zero', 'sparse'] as const) {
      const raw = makeRaw(block, flavor, 1);
      const packed = roundTrip(block, raw);
      if (flavor !== 'random') expect(packed.length).toBeLessThan(raw.length);
    }
  });

  it('round-trips float and uint channels (two 16-bit planes per sample)', () => {
    const block: BlockLayout = {
      channels: [channel('X', 'float'), channel('id', 'uint'), channel('y', 'half')],
      x0: -5,
      y0: 3,
      widthPx: 33,
      heightPx: 17,
    };
    for (const flavor of ['random', 'smooth', 'sparse'] as const) roundTrip(block, makeRaw(block, flavor, 2));
  });

  it('round-trips the full 16-bit range (16-bit wavelet) and a small range (14-bit wavelet)', () => {
    const block: BlockLayout = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 256, heightPx: 256 };
    const everyValue = new Uint8Array(new Uint16Array(65536).map((_, i) => (i * 40503) & 0xffff).buffer);
    roundTrip(block, everyValue);
    const fewValues = new Uint8Array(new Uint16Array(65536).map((_, i) => (i * 7) % 16000).buffer);
    roundTrip(block, fewValues);
  });

  it('round-trips subsampled channels at negative and odd coordinates', () => {
    const block: BlockLayout = {
      channels: [channel('BY', 'half', 2, 2), channel('RY', 'half', 2, 2), channel('Y', 'half'), channel('Z', 'float', 3, 1)],
      x0: -7,
      y0: -3,
      widthPx: 23,
      heightPx: 13,
    };
    for (const flavor of ['random', 'smooth', 'sparse'] as const) roundTrip(block, makeRaw(block, flavor, 3));
  });

  it('round-trips a block where a subsampled channel has no samples', () => {
    const block: BlockLayout = { channels: [channel('C', 'half', 2, 2), channel('Y', 'half')], x0: 0, y0: 1, widthPx: 9, heightPx: 1 };
    roundTrip(block, makeRaw(block, 'random', 4));
  });

  it('round-trips arbitrary channel sets, sampling and block shapes', () => {
    const channelArb = fc.record({
      pixelType: fc.constantFrom<PixelType>('half', 'float', 'uint'),
      xSampling: fc.integer({ min: 1, max: 3 }),
      ySampling: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(channelArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 1, max: 45 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom<Flavor>('random', 'smooth', 'constant', 'zero', 'sparse'),
        fc.nat(),
        (specs, x0, y0, widthPx, heightPx, flavor, seed) => {
          const channels = specs.map((spec, i) => channel(`c${i}`, spec.pixelType, spec.xSampling, spec.ySampling));
          const block: BlockLayout = { channels, x0, y0, widthPx, heightPx };
          const raw = makeRaw(block, flavor, seed);
          if (raw.length === 0) return;
          roundTrip(block, raw);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('goes through the compression dispatch, raw when not smaller', () => {
    const block: BlockLayout = { channels: rgbaHalf, x0: 0, y0: 0, widthPx: 64, heightPx: 32 };
    const smooth = makeRaw(block, 'smooth', 5);
    const packed = compress('piz', smooth, block);
    expect(packed.length).toBeLessThan(smooth.length);
    expect(firstDifference(decompress('piz', packed, block, smooth.length), smooth)).toBe(-1);
    const noise = makeRaw(block, 'random', 5);
    const stored = compress('piz', noise, block);
    expect(firstDifference(decompress('piz', stored, block, noise.length), noise)).toBe(-1);
  });
});

describe('PIZ damaged input', () => {
  const block: BlockLayout = {
    channels: [channel('B', 'half'), channel('G', 'float'), channel('R', 'half', 2, 2)],
    x0: 0,
    y0: 0,
    widthPx: 40,
    heightPx: 32,
  };
  const raw = makeRaw(block, 'sparse', 6);
  const good = compressPiz(raw, block);

  it('rejects every truncation', () => {
    for (let length = 0; length < good.length; length++) {
      expect(() => decompressPiz(good.subarray(0, length), block, raw.length)).toThrow(ExrError);
    }
  });

  it('rejects a wrong expected size, a bitmap range past 8191 and a Huffman length past the end', () => {
    expect(() => decompressPiz(good, block, raw.length + 2)).toThrow(ExrError);
    const badRange = good.slice();
    badRange[2] = 0x00;
    badRange[3] = 0x20; // maxNonZero = 8192
    expect(() => decompressPiz(badRange, block, raw.length)).toThrow(ExrError);
    const bitmapBytes = good[2]! + good[3]! * 256 - (good[0]! + good[1]! * 256) + 1;
    const badLength = good.slice();
    new DataView(badLength.buffer).setUint32(4 + bitmapBytes, good.length, true);
    expect(() => decompressPiz(badLength, block, raw.length)).toThrow(ExrError);
  });

  it('raises only ExrError on corrupted bytes, and terminates', () => {
    fc.assert(
      fc.property(arbCorrupted(good), (bad) => {
        try {
          const out = decompressPiz(bad, block, raw.length);
          expect(out.length).toBe(raw.length);
        } catch (error) {
          expect(error).toBeInstanceOf(ExrError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('raises only ExrError on random chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (bytes) => {
        try {
          decompressPiz(bytes, block, raw.length);
        } catch (error) {
          expect(error).toBeInstanceOf(ExrError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('rejects bad sampling in the block layout', () => {
    const broken: BlockLayout = { ...block, channels: [channel('B', 'half', 0, 1)] };
    expect(() => decompressPiz(good, broken, raw.length)).toThrow(ExrError);
  });
});
