// Decode straight into thumbnail bins: each chunk is decompressed and its samples summed into per-channel box-filter bins while still in cache (no full-size planes).

import { chunkPlace, uncompressedBytes } from '../exr/blocks.js';
import { decompress } from '../exr/compression/index.js';
import { ExrError, HALF_TO_FLOAT, type ExrReader, type Level, type PartInfo } from '../exr/index.js';
import { chunksForRegion, type AbortSignalLike } from '../exr/reader.js';
import { floorMod, sampleCount } from '../exr/sampling.js';
import { PIXEL_TYPE_BYTES } from '../exr/types.js';

export const HALF_MAX = 65504;

/** HALF_TO_FLOAT with NaN as 0 and ±Inf as ±HALF_MAX, so one bad pixel does not poison its whole thumbnail pixel. */
export const SANE_HALF: Float32Array = (() => {
  const table = Float32Array.from(HALF_TO_FLOAT);
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (Number.isNaN(v)) table[i] = 0;
    else if (!Number.isFinite(v)) table[i] = v > 0 ? HALF_MAX : -HALF_MAX;
  }
  return table;
})();

/** SANE_HALF as float32 bit patterns, for the rare halves the arithmetic path leaves to a table (zero, subnormal, Inf, NaN). */
const SANE_HALF_BITS = new Int32Array(SANE_HALF.buffer);

let scratchF32 = new Float32Array(4096);
let scratchI32 = new Int32Array(scratchF32.buffer);

/**
 * Half bits to sanitised floats for `n` samples from `src[start]`. Normal halves are converted by
 * shifting bits (no table: on real images a 256 KiB table lookup per sample misses the cache and
 * costs more than the whole box filter); zero, subnormals, Inf and NaN go through SANE_HALF.
 */
export function halfRow(src: Uint16Array, start: number, n: number): Float32Array {
  if (scratchF32.length < n) {
    scratchF32 = new Float32Array(n);
    scratchI32 = new Int32Array(scratchF32.buffer);
  }
  const bits = scratchI32;
  for (let s = 0; s < n; s++) {
    const h = src[start + s]!;
    const e = h & 0x7c00;
    bits[s] = e !== 0 && e !== 0x7c00 ? ((h & 0x8000) << 16) | (((h & 0x7fff) << 13) + 0x38000000) : SANE_HALF_BITS[h]!;
  }
  return scratchF32;
}

export interface BinnedTimings {
  readMs: number;
  decompressMs: number;
  /** Summing samples into bins (the box filter). */
  resizeMs: number;
  chunks: number;
}

/** Which bin each sample of one axis falls in, and how many samples each bin holds. */
function axisBins(first: number, levelSizePx: number, sampling: number, bins: number): { binOf: Int32Array; runEnd: Int32Array; count: Float64Array; firstSample: number } {
  // samples sit at multiples of `sampling`; the data window's origin is one (the reader checks)
  const firstSample = Math.ceil(first / sampling);
  const samples = sampleCount(sampling, first, first + levelSizePx - 1);
  const binOf = new Int32Array(samples);
  const count = new Float64Array(bins);
  const runEnd = new Int32Array(bins);
  for (let s = 0; s < samples; s++) {
    const px = (firstSample + s) * sampling - first;
    const bin = Math.min(bins - 1, Math.floor((px * bins) / levelSizePx));
    binOf[s] = bin;
    count[bin] = count[bin]! + 1;
    runEnd[bin] = s + 1;
  }
  return { binOf, runEnd, count, firstSample };
}

/**
 * Box-filters the named channels of one level to widthPx × heightPx, in linear light, reading the
 * level chunk by chunk. NaN counts as 0 and ±Inf as ±65504. A bin no sample falls in (a subsampled
 * channel smaller than the thumbnail) takes its left, else upper, neighbour's value.
 */
export function decodeBinned(
  reader: ExrReader,
  part: PartInfo,
  level: Level,
  channelNames: readonly string[],
  widthPx: number,
  heightPx: number,
  signal: AbortSignalLike,
): { means: Map<string, Float32Array>; timings: BinnedTimings } {
  const x0 = part.dataWindow.xMin;
  const y0 = part.dataWindow.yMin;
  const wanted = new Set(channelNames);
  // The bin tables are as long as the level's sides: built only once a chunk has decompressed to the size the
  // header implies, so a tiny damaged file claiming a 2^30-pixel-wide level is refused before gigabytes are filled.
  type ChannelBins = { ch: (typeof part.channels)[number]; xs: ReturnType<typeof axisBins>; ys: ReturnType<typeof axisBins>; acc: Float64Array };
  let perChannelBins: Array<ChannelBins | null> | null = null;
  const binsOf = (): Array<ChannelBins | null> =>
    (perChannelBins ??= part.channels.map((ch) => {
      if (!wanted.has(ch.name)) return null;
      const xs = axisBins(x0, level.widthPx, ch.xSampling, widthPx);
      const ys = axisBins(y0, level.heightPx, ch.ySampling, heightPx);
      return { ch, xs, ys, acc: new Float64Array(widthPx * heightPx) };
    }));
  const timings: BinnedTimings = { readMs: 0, decompressMs: 0, resizeMs: 0, chunks: 0 };
  const stats = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
  const region = { xMin: x0, yMin: y0, xMax: x0 + level.widthPx - 1, yMax: y0 + level.heightPx - 1 };
  reader.forEachChunk(part.index, chunksForRegion(part, level, region), stats, signal, (chunkIndex, chunk) => {
    const place = chunkPlace(part, chunkIndex);
    const block = place.block;
    if (part.isTiled ? chunk.tileX !== place.tileX || chunk.tileY !== place.tileY || chunk.levelX !== level.lx || chunk.levelY !== level.ly : chunk.y !== block.y0) {
      throw new ExrError('invalid', `chunk ${chunkIndex} holds the wrong tile or lines`, { part: part.index, chunk: chunkIndex });
    }
    let t = performance.now();
    let raw = decompress(part.compression, chunk.data, block, uncompressedBytes(block));
    const perChannel = binsOf();
    const t2 = performance.now();
    timings.decompressMs += t2 - t;
    t = t2;
    if (raw.byteOffset % 4 !== 0) raw = raw.slice();
    const u16 = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const bx1 = block.x0 + block.widthPx - 1;
    let pos = 0;
    for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
      for (let c = 0; c < block.channels.length; c++) {
        const ch = block.channels[c]!;
        if (ch.ySampling !== 1 && floorMod(y, ch.ySampling) !== 0) continue;
        const size = PIXEL_TYPE_BYTES[ch.pixelType];
        const n = sampleCount(ch.xSampling, block.x0, bx1);
        const state = perChannel[c];
        if (state) {
          const row = state.ys.binOf[Math.floor(y / ch.ySampling) - state.ys.firstSample]! * widthPx;
          const firstX = Math.ceil(block.x0 / ch.xSampling) - state.xs.firstSample;
          const binOf = state.xs.binOf;
          const acc = state.acc;
          if (ch.pixelType === 'half') {
            // bins are runs of neighbouring samples: sum each run in a register, store once
            const runEnd = state.xs.runEnd;
            const table = SANE_HALF;
            let s = firstX;
            let i = pos >> 1;
            const last = firstX + n;
            while (s < last) {
              const tx = binOf[s]!;
              const end = Math.min(runEnd[tx]!, last);
              let sum = 0;
              // one load per sample from the sanitised half table: measured faster than decoding the bits
              // arithmetically (4K ZIP file: 75 vs 112 ms), real images touch few of its 256 KiB lines
              for (; s < end; s++, i++) sum += table[u16[i]!]!;
              acc[row + tx]! += sum;
            }
          } else if (ch.pixelType === 'float') {
            for (let s = 0; s < n; s++) {
              const v = view.getFloat32(pos + 4 * s, true);
              acc[row + binOf[firstX + s]!]! += v === v ? (v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v) : 0;
            }
          } else {
            for (let s = 0; s < n; s++) acc[row + binOf[firstX + s]!]! += view.getUint32(pos + 4 * s, true);
          }
        }
        pos += n * size;
      }
    }
    timings.resizeMs += performance.now() - t;
  });
  const t = performance.now();
  const means = new Map<string, Float32Array>();
  for (const state of binsOf()) {
    if (!state) continue;
    const out = new Float32Array(widthPx * heightPx);
    for (let ty = 0; ty < heightPx; ty++) {
      for (let tx = 0; tx < widthPx; tx++) {
        const i = ty * widthPx + tx;
        const count = state.ys.count[ty]! * state.xs.count[tx]!;
        out[i] = count > 0 ? state.acc[i]! / count : tx > 0 ? out[i - 1]! : ty > 0 ? out[i - widthPx]! : 0;
      }
    }
    means.set(state.ch.name, out);
  }
  timings.resizeMs += performance.now() - t;
  timings.readMs = stats.readMs;
  timings.chunks = stats.chunks;
  return { means, timings };
}
