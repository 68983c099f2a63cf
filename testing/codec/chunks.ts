// Test support for the codec's kernels: B44 chunks of random blocks (the codec writes no B44) and PIZ chunks wide
// enough for the 16-bit wavelet, for the tiers' comparisons with the TypeScript codecs.

import fc from 'fast-check';
import { uncompressedBytes } from '../../codec/blocks.js';
import type { BlockLayout } from '../../codec/core/types.js';
import { arbBlock, channel, chunkBytes, lcg } from './test-layouts.js';

/** A B44 chunk of random blocks for a layout: 3-byte flat or 14-byte blocks for half planes, raw samples for the others. */
export function arbB44Chunk(): fc.Arbitrary<{ block: BlockLayout; src: Uint8Array }> {
  return arbBlock().chain((block) => {
    const blockCount = block.channels.reduce((sum, c) => {
      const widthSamples = Math.ceil(
        chunkBytes({ ...block, channels: [{ ...c, pixelType: 'half', ySampling: 1 }], y0: 0, heightPx: 1 }) / 2,
      );
      return sum + Math.ceil(widthSamples / 4) * block.heightPx;
    }, 0);
    return fc
      .tuple(fc.array(fc.boolean(), { minLength: blockCount, maxLength: blockCount }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))
      .map(([flat, seed]) => ({
        block,
        src: b44Stream(block, flat, seed),
      }));
  });
}

/** Builds the stream plane by plane exactly as b44.ts reads it (sample counts from the same layout helpers). */
export function b44Stream(block: BlockLayout, flatBlocks: boolean[], seed: number): Uint8Array {
  const random = lcg(seed);
  const bytes: number[] = [];
  let k = 0;
  for (const c of block.channels) {
    const one = { ...block, channels: [c] };
    const total = uncompressedBytes(one);
    if (total === 0) continue;
    if (c.pixelType !== 'half') {
      for (let i = 0; i < total; i++) bytes.push(Math.floor(random() * 256));
      continue;
    }
    const heightSamples = uncompressedBytes({ ...one, channels: [{ ...c, xSampling: 1, pixelType: 'half' }], widthPx: 1, x0: 0 }) / 2;
    const widthSamples = total / 2 / heightSamples;
    for (let by = 0; by < heightSamples; by += 4) {
      for (let bx = 0; bx < widthSamples; bx += 4) {
        const flat = flatBlocks[k++ % flatBlocks.length]!;
        const first = [Math.floor(random() * 256), Math.floor(random() * 256)];
        // byte 2: shift << 2 (shift <= 12) for a 14-byte block, 13 << 2 or more for a flat one
        if (flat) bytes.push(...first, 52 + Math.floor(random() * 204));
        else
          bytes.push(
            ...first,
            (Math.floor(random() * 13) << 2) | Math.floor(random() * 4),
            ...Array.from({ length: 11 }, () => Math.floor(random() * 256)),
          );
      }
    }
  }
  return new Uint8Array(bytes);
}

/** A PIZ chunk of one uint channel whose words take about 18K distinct values: the 16-bit wavelet. */
export function wideValueChunk(seed: number): { block: BlockLayout; raw: Uint8Array } {
  const block: BlockLayout = { channels: [channel('U', 'uint'), channel('H', 'half', 2, 1)], x0: -3, y0: 5, widthPx: 131, heightPx: 80 };
  const raw = new Uint8Array(uncompressedBytes(block));
  const random = lcg(seed);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
  return { block, raw };
}
