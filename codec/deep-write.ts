// Deep chunks for the writer: the per-line cumulative sample count table and the sample data of one block.

import { ByteWriter } from './byte-writer.js';
import { invalid } from './core/errors.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i, type PixelType } from './core/types.js';

export interface DeepSamples {
  /** Samples per pixel over the data window, rows top to bottom. */
  sampleCounts: Uint32Array;
  /** Header order; each holds every sample of every pixel, pixels in row order. */
  channels: readonly { name: string; pixelType: PixelType; data: Uint16Array | Float32Array | Uint32Array }[];
}

const offsetCache = new WeakMap<Uint32Array, Float64Array>();

/** Where each pixel's samples start (length pixels + 1). */
export function sampleOffsets(sampleCounts: Uint32Array): Float64Array {
  let offsets = offsetCache.get(sampleCounts);
  if (!offsets) {
    offsets = new Float64Array(sampleCounts.length + 1);
    for (let i = 0; i < sampleCounts.length; i++) offsets[i + 1] = offsets[i]! + sampleCounts[i]!;
    offsetCache.set(sampleCounts, offsets);
  }
  return offsets;
}

/** The block's uncompressed count table (int32 per pixel, cumulative within each line) and sample data (per line, per channel, per pixel). */
export function encodeDeepChunk(
  deep: DeepSamples,
  dataWindow: Box2i,
  widthPx: number,
  block: BlockLayout,
): { counts: Uint8Array; samples: Uint8Array } {
  const offsets = sampleOffsets(deep.sampleCounts);
  const counts = new ByteWriter(block.widthPx * block.heightPx * 4);
  const xStart = block.x0 - dataWindow.xMin;
  let total = 0;
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    const row = (y - dataWindow.yMin) * widthPx;
    let cumulative = 0;
    for (let x = 0; x < block.widthPx; x++) {
      cumulative += deep.sampleCounts[row + xStart + x]!;
      counts.i32(cumulative);
    }
    if (cumulative > 0x7fffffff) throw invalid('more than 2^31 samples on one line of a chunk');
    total += cumulative;
  }
  const bytesPerSample = deep.channels.reduce((sum, c) => sum + PIXEL_TYPE_BYTES[c.pixelType], 0);
  const samples = new Uint8Array(total * bytesPerSample);
  const views = deep.channels.map((c) => new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength));
  let pos = 0;
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    const first = (y - dataWindow.yMin) * widthPx + xStart;
    const start = offsets[first]!;
    const end = offsets[first + block.widthPx]!;
    deep.channels.forEach((c, i) => {
      const size = PIXEL_TYPE_BYTES[c.pixelType];
      // one line's samples of a channel are contiguous in pixel order
      samples.set(views[i]!.subarray(start * size, end * size), pos);
      pos += (end - start) * size;
    });
  }
  return { counts: counts.finish(), samples };
}
