// Deep scanline and deep tiled parts: sample counts and per-channel samples of any level, region and channel set.

import { checkedRegion, chunkPlace, chunksForRegion } from './blocks.js';
import { decompress } from './compression/index.js';
import { ExrError, invalid, unsupported } from './core/errors.js';
import { blockInRegion, missingChunks, type ChunkFailure, type MissingChunks } from './missing.js';
import { findLevel, type PartInfo } from './part.js';
import type { AbortSignalLike, DecodedPlace, ExrReader, PlaneData, StageTimings } from './reader.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i, type PixelType } from './core/types.js';

export interface DeepChannel {
  name: string;
  pixelType: PixelType;
  /** Every sample of every pixel of the region, pixels in row order (half as binary16 bits). */
  data: PlaneData;
}

export interface DeepImage extends DecodedPlace {
  /** Samples per pixel, widthPx × heightPx, rows top to bottom. */
  sampleCounts: Uint32Array;
  /** Where each pixel's samples start in every channel's data (length pixels + 1; the last is the total). */
  sampleOffsets: Uint32Array;
  totalSamples: number;
  channels: DeepChannel[];
  timings: StageTimings;
  /** A tolerant decode's chunks that could not be read (their pixels hold no samples); absent when every chunk was. */
  missing?: MissingChunks;
}

export interface DeepDecodeOptions {
  part?: number;
  lx?: number;
  ly?: number;
  region?: Box2i;
  channels?: readonly string[];
  signal?: AbortSignalLike;
  /** Refuse images with more samples than this (checked before the sample data is inflated). */
  maxSamples?: number;
  /**
   * Decode every chunk that can be: one that cannot be read, parsed or decompressed is listed in the result's
   * `missing` and its pixels get no samples, instead of failing the decode. Aborts still throw, and so does a decode
   * of which no chunk could be read.
   */
  tolerant?: boolean;
}

/** 2^28 samples: a few GiB of sample data at most, far beyond real deep renders of one frame. */
export const DEFAULT_MAX_DEEP_SAMPLES = 2 ** 28;

/** One decoded chunk, kept until every count is known and the output can be allocated. */
interface ChunkSamples {
  block: BlockLayout;
  /** Samples per pixel of the whole block, row-major. */
  counts: Uint32Array;
  /** Uncompressed sample data: per line, per channel, per pixel, every sample. */
  data: Uint8Array;
}

export function decodeDeep(reader: ExrReader, options: DeepDecodeOptions = {}): DeepImage {
  const partIndex = options.part ?? 0;
  const part = reader.part(partIndex);
  if (!part.isDeep) throw invalid('not a deep part: use decode', { part: partIndex });
  for (const ch of part.channels) {
    if (ch.xSampling !== 1 || ch.ySampling !== 1) throw unsupported(`deep channel "${ch.name}" is subsampled`, { part: partIndex });
  }
  const lx = options.lx ?? 0;
  const ly = options.ly ?? lx;
  const level = findLevel(part, lx, ly);
  if (!level) throw invalid(`part has no level (${lx}, ${ly})`, { part: partIndex });
  const region = checkedRegion(part, level, options.region, partIndex);
  const wanted = options.channels ? new Set(options.channels) : null;
  for (const name of wanted ?? []) {
    if (!part.channels.some((c) => c.name === name)) throw invalid(`part has no channel "${name}"`, { part: partIndex });
  }
  // offsets are 32-bit: no limit above that
  const maxSamples = Math.min(options.maxSamples ?? DEFAULT_MAX_DEEP_SAMPLES, 2 ** 32 - 1);
  const bytesPerSample = part.channels.reduce((sum, c) => sum + PIXEL_TYPE_BYTES[c.pixelType], 0);

  const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
  const chunks: ChunkSamples[] = [];
  let storedSamples = 0;
  const chunkIndices = chunksForRegion(part, level, region);
  const failures: ChunkFailure[] | null = options.tolerant ? [] : null;
  // a chunk that failed adds nothing: its pixels keep zero samples (chunks are only kept once whole)
  const onFailure = (chunkIndex: number, error: ExrError): void => {
    failures!.push({ chunk: chunkIndex, region: blockInRegion(chunkPlace(part, chunkIndex).block, region), reason: error.message });
  };
  reader.forEachChunk(
    partIndex,
    chunkIndices,
    timings,
    options.signal,
    (chunkIndex, chunk) => {
      const place = chunkPlace(part, chunkIndex);
      const block = place.block;
      if (part.isTiled) {
        if (chunk.tileX !== place.tileX || chunk.tileY !== place.tileY || chunk.levelX !== level.lx || chunk.levelY !== level.ly) {
          throw invalid(
            `tile header says (${chunk.tileX}, ${chunk.tileY}) level (${chunk.levelX}, ${chunk.levelY}), expected (${place.tileX}, ${place.tileY}) level (${level.lx}, ${level.ly})`,
          );
        }
      } else if (chunk.y !== block.y0) {
        throw invalid(`chunk starts at line ${chunk.y}, expected ${block.y0}`);
      }
      const t = performance.now();
      const pixels = block.widthPx * block.heightPx;
      const table = countTable(part, chunk.deepCounts!, block);
      const counts = sampleCountsOf(table, block);
      let blockSamples = 0;
      for (let i = 0; i < pixels; i++) blockSamples += counts[i]!;
      if (storedSamples + blockSamples > maxSamples) {
        throw invalid(`more than ${maxSamples} deep samples (the limit) in the decoded region`);
      }
      if (chunk.unpackedSampleBytes !== blockSamples * bytesPerSample) {
        throw invalid(
          `deep chunk says its samples take ${chunk.unpackedSampleBytes} bytes, its ${blockSamples} samples need ${blockSamples * bytesPerSample}`,
        );
      }
      const data = decompress(part.compression, chunk.data, block, chunk.unpackedSampleBytes);
      storedSamples += blockSamples;
      timings.decompressMs += performance.now() - t;
      chunks.push({ block, counts, data });
    },
    false,
    failures ? onFailure : undefined,
  );

  // nothing to show, and a damaged header's data window may be vast: not a single pixel is allocated
  if (failures?.length && chunks.length === 0) {
    throw new ExrError('invalid', `${failures[0]!.reason} (and no other chunk of the image could be read either)`);
  }
  const t0 = performance.now();
  const image = assemble(part, lx, ly, region, chunks, wanted, timings);
  timings.unpackMs += performance.now() - t0;
  if (failures?.length) {
    failures.sort((a, b) => a.chunk - b.chunk);
    image.missing = missingChunks(failures, chunkIndices.length, reader.incomplete);
  }
  return image;
}

/**
 * The chunk's uncompressed count table (int32 per pixel of the block). It is stored raw when it is
 * exactly the block's size (OpenEXR 3.2+ writers) or at least a whole chunk's size (OpenEXR up to
 * 3.1 writes a whole tile's table for clipped edge tiles, padded; its readers take anything smaller
 * as compressed); anything else is compressed with the part's method.
 */
function countTable(part: PartInfo, packed: Uint8Array, block: BlockLayout): Uint8Array {
  const blockBytes = block.widthPx * block.heightPx * 4;
  const fullBytes = part.isTiled ? part.tiles!.xSizePx * part.tiles!.ySizePx * 4 : part.widthPx * part.linesPerChunk * 4;
  if (packed.length === blockBytes || packed.length >= fullBytes || part.compression === 'none') {
    if (packed.length < blockBytes || packed.length > Math.max(blockBytes, fullBytes)) {
      throw invalid(`deep sample count table holds ${packed.length} bytes, expected ${blockBytes}`);
    }
    return packed.subarray(0, blockBytes);
  }
  return decompress(part.compression, packed, block, blockBytes);
}

/** Per-pixel counts from the cumulative table (int32 per pixel, restarting on each line); rejects a decreasing table. */
function sampleCountsOf(table: Uint8Array, block: BlockLayout): Uint32Array {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const counts = new Uint32Array(block.widthPx * block.heightPx);
  let i = 0;
  for (let row = 0; row < block.heightPx; row++) {
    let previous = 0;
    for (let x = 0; x < block.widthPx; x++, i++) {
      const cumulative = view.getInt32(i * 4, true);
      if (cumulative < previous) {
        throw invalid(`deep sample count table decreases (${previous} then ${cumulative}) on line ${block.y0 + row}`);
      }
      counts[i] = cumulative - previous;
      previous = cumulative;
    }
  }
  return counts;
}

function newPlane(pixelType: PixelType, count: number): PlaneData {
  return pixelType === 'half' ? new Uint16Array(count) : pixelType === 'float' ? new Float32Array(count) : new Uint32Array(count);
}

/** Gathers the region's pixels from the chunks into one counts array and one sample array per channel. */
function assemble(
  part: PartInfo,
  lx: number,
  ly: number,
  region: Box2i,
  chunks: ChunkSamples[],
  wanted: Set<string> | null,
  timings: StageTimings,
): DeepImage {
  const widthPx = region.xMax - region.xMin + 1;
  const heightPx = region.yMax - region.yMin + 1;
  const sampleCounts = new Uint32Array(widthPx * heightPx);
  for (const { block, counts } of chunks) {
    forEachRegionRow(block, region, (blockRow, y, xa, xb) => {
      const from = blockRow * block.widthPx + (xa - block.x0);
      sampleCounts.set(counts.subarray(from, from + (xb - xa + 1)), (y - region.yMin) * widthPx + (xa - region.xMin));
    });
  }
  const sampleOffsets = new Uint32Array(sampleCounts.length + 1);
  for (let i = 0; i < sampleCounts.length; i++) sampleOffsets[i + 1] = sampleOffsets[i]! + sampleCounts[i]!;
  const totalSamples = sampleOffsets[sampleCounts.length]!;

  const selected = part.channels.map((c, index) => ({ c, index })).filter(({ c }) => !wanted || wanted.has(c.name));
  const channels: DeepChannel[] = selected.map(({ c }) => ({
    name: c.name,
    pixelType: c.pixelType,
    data: newPlane(c.pixelType, totalSamples),
  }));
  const outViews = channels.map((c) => new Uint8Array(c.data.buffer));
  for (const { block, counts, data } of chunks) {
    // where each line of the block starts in `data`, and each channel's slice of a line
    let linePos = 0;
    forEachBlockRow(block, (blockRow, y) => {
      const rowCounts = counts.subarray(blockRow * block.widthPx, (blockRow + 1) * block.widthPx);
      let lineSamples = 0;
      for (const n of rowCounts) lineSamples += n;
      const xa = Math.max(block.x0, region.xMin);
      const xb = Math.min(block.x0 + block.widthPx - 1, region.xMax);
      const copying = y >= region.yMin && y <= region.yMax && xb >= xa;
      // samples of pixels left of the region come first on each channel's stretch of the line
      let skip = 0;
      let take = 0;
      if (copying) {
        for (let x = block.x0; x < xa; x++) skip += rowCounts[x - block.x0]!;
        for (let x = xa; x <= xb; x++) take += rowCounts[x - block.x0]!;
      }
      const dst = copying ? sampleOffsets[(y - region.yMin) * widthPx + (xa - region.xMin)]! : 0;
      let channelPos = linePos;
      let s = 0;
      for (let k = 0; k < part.channels.length; k++) {
        const size = PIXEL_TYPE_BYTES[part.channels[k]!.pixelType];
        if (s < selected.length && selected[s]!.index === k) {
          if (copying) {
            const src = channelPos + skip * size;
            outViews[s]!.set(data.subarray(src, src + take * size), dst * size);
          }
          s++;
        }
        channelPos += lineSamples * size;
      }
      linePos = channelPos;
    });
  }
  return { part: part.index, lx, ly, region, widthPx, heightPx, sampleCounts, sampleOffsets, totalSamples, channels, timings };
}

function forEachBlockRow(block: BlockLayout, visit: (blockRow: number, y: number) => void): void {
  for (let row = 0; row < block.heightPx; row++) visit(row, block.y0 + row);
}

function forEachRegionRow(block: BlockLayout, region: Box2i, visit: (blockRow: number, y: number, xa: number, xb: number) => void): void {
  const xa = Math.max(block.x0, region.xMin);
  const xb = Math.min(block.x0 + block.widthPx - 1, region.xMax);
  if (xb < xa) return;
  for (let row = 0; row < block.heightPx; row++) {
    const y = block.y0 + row;
    if (y >= region.yMin && y <= region.yMax) visit(row, y, xa, xb);
  }
}
