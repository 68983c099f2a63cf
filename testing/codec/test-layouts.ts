// Test support for the compression modules: random chunk layouts and chunk contents (fast-check).

import fc from 'fast-check';
import { expect } from 'vitest';
import { ExrError } from '../../codec/core/errors.js';
import { floorMod, sampleCount } from '../../codec/core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Channel, type PixelType } from '../../codec/core/types.js';

/** One channel's samples on one line of a chunk, where they sit in the uncompressed layout. */
export interface LineRun {
  channel: Channel;
  channelIndex: number;
  samples: number;
  byteOffset: number;
}

/** The uncompressed layout of a chunk, line by line, channel by channel (see BlockLayout). */
export function lineRuns(block: BlockLayout): { runs: LineRun[]; totalBytes: number } {
  const runs: LineRun[] = [];
  let byteOffset = 0;
  const xLast = block.x0 + block.widthPx - 1;
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    block.channels.forEach((channel, channelIndex) => {
      if (floorMod(y, channel.ySampling) !== 0) return;
      const samples = sampleCount(channel.xSampling, block.x0, xLast);
      runs.push({ channel, channelIndex, samples, byteOffset });
      byteOffset += samples * PIXEL_TYPE_BYTES[channel.pixelType];
    });
  }
  return { runs, totalBytes: byteOffset };
}

export function chunkBytes(block: BlockLayout): number {
  return lineRuns(block).totalBytes;
}

export function channel(name: string, pixelType: PixelType, xSampling = 1, ySampling = 1, pLinear = false): Channel {
  return { name, pixelType, pLinear, xSampling, ySampling };
}

const arbChannel = (pixelTypes: readonly PixelType[]): fc.Arbitrary<Channel> =>
  fc.record({
    name: fc.constantFrom('A', 'B', 'G', 'R', 'Z'),
    pixelType: fc.constantFrom(...pixelTypes),
    pLinear: fc.boolean(),
    xSampling: fc.constantFrom(1, 1, 2, 3),
    ySampling: fc.constantFrom(1, 1, 2, 3),
  });

/** Random chunk geometry: 1..4 channels, subsampling, negative origins, widths that are not multiples of 4. */
export function arbBlock(pixelTypes: readonly PixelType[] = ['half', 'float', 'uint'], maxHeightPx = 20): fc.Arbitrary<BlockLayout> {
  return fc.record({
    channels: fc.array(arbChannel(pixelTypes), { minLength: 1, maxLength: 4 }),
    x0: fc.integer({ min: -20, max: 20 }),
    y0: fc.integer({ min: -20, max: 20 }),
    widthPx: fc.integer({ min: 1, max: 40 }),
    heightPx: fc.integer({ min: 1, max: maxHeightPx }),
  });
}

/** Chunk contents of exactly byteCount bytes: noise, long runs, or a mix, so both literal and run paths get used. */
export function arbContents(byteCount: number): fc.Arbitrary<Uint8Array> {
  const noise = fc.uint8Array({ minLength: byteCount, maxLength: byteCount });
  const runs = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 30 })
    .map((pieces) => {
      const out = new Uint8Array(byteCount);
      let pos = 0;
      for (let i = 0; pos < byteCount; i = (i + 1) % pieces.length) {
        const [value, length] = pieces[i]!;
        const end = Math.min(byteCount, pos + length);
        // Odd-indexed pieces are noise-like (value + position) to break runs up.
        for (let p = pos; p < end; p++) out[p] = i % 2 === 0 ? value : (value + p * 37) & 0xff;
        pos = end;
      }
      return out;
    });
  return fc.oneof(noise, runs);
}

/** A block together with contents that fill its layout. */
export function arbChunk(pixelTypes?: readonly PixelType[], maxHeightPx?: number): fc.Arbitrary<{ block: BlockLayout; raw: Uint8Array }> {
  return arbBlock(pixelTypes, maxHeightPx).chain((block) => arbContents(chunkBytes(block)).map((raw) => ({ block, raw })));
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** Runs `run` and expects the codec's typed `invalid` error (damaged input), nothing else. */
export function expectInvalid(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ExrError);
  expect((thrown as ExrError).kind).toBe('invalid');
}

/** `bytes` with one to six of its bytes XORed with a non-zero mask: corrupted input for decoders. */
export function arbCorrupted(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 6 }).map((flips) => {
    const bad = bytes.slice();
    for (const [at, mask] of flips) bad[at]! ^= mask;
    return bad;
  });
}

/** Deterministic pseudo-random numbers in [0, 1) for large inputs (fast-check drives the small ones). */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
