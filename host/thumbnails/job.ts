// The thumbnail worker job: cheapest correct source (smallest sufficient MIP level, else level 0), box filter in linear light, half RGBA out.

import {
  chunkPlace,
  ExrError,
  ExrReader,
  openFileSource,
  type DecodedChannel,
  type Level,
  type PartInfo,
  type StageTimings,
  type AbortSignalLike,
} from '../../codec/index.js';
import { channelsOf, chooseThumbnailChannels, type ThumbnailChannels } from './channels.js';
import { SANE_HALF } from './bins.js';
import { binsOfBlock, decodeBinned, sumBins } from './binned-decode.js';
import { bandIsIn, bandSums, countBandIn, countChunksMissing, missingMask, type ThumbnailSumsLayout } from './band-sums.js';
import { clampHalf, makeThumbnail, sourceOfLevel, toRgbaHalf, type ThumbnailOutputs } from './compose.js';
import type { ThumbnailFilesWritten } from './files.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';
import type { ThumbnailMissing } from '../../contract/host-api.js';

export interface ThumbnailJobArgs {
  path: string;
  /** Long side of the result in pixels; images smaller than this are not enlarged. */
  longSidePx: number;
}

export interface ThumbnailJobResult {
  widthPx: number;
  heightPx: number;
  /** Linear half RGBA, interleaved, rows top to bottom. */
  rgbaHalf: ArrayBuffer;
  source: 'mip-level' | 'full-decode';
  part: number;
  lx: number;
  ly: number;
  channels: ThumbnailChannels;
  /** 8-bit RGBA through the view the job was asked to tone-map with, when it was. */
  rgba8?: ArrayBuffer;
  /** That as a PNG, when asked for and the native kernels loaded. */
  png?: ArrayBuffer;
  /** What came of the files the job was asked to write. */
  written?: ThumbnailFilesWritten;
  /** A damaged file's thumbnail, made of the chunks that could be read: what it lacks (hatched in its pixels). */
  missing?: ThumbnailMissing;
  timings: ThumbnailTimings;
}

/** The stages of a thumbnail job, summed over its bands. */
export type ThumbnailTimings = StageTimings & { resizeMs: number; toneMapMs: number; encodeMs: number; writeMs: number };

const NO_TIMINGS: ThumbnailTimings = {
  readMs: 0,
  decompressMs: 0,
  unpackMs: 0,
  bytesRead: 0,
  chunks: 0,
  resizeMs: 0,
  toneMapMs: 0,
  encodeMs: 0,
  writeMs: 0,
};

/** Thumbnail size for an image: the long side scaled to longSidePx (never enlarged), at least 1 pixel. */
export function thumbnailSize(widthPx: number, heightPx: number, longSidePx: number): { widthPx: number; heightPx: number } {
  const scale = Math.min(1, longSidePx / Math.max(widthPx, heightPx));
  return { widthPx: Math.max(1, Math.round(widthPx * scale)), heightPx: Math.max(1, Math.round(heightPx * scale)) };
}

/**
 * Which chunks of a file still being written are there: its offset tables as rebuilt by walking the chunks (a negative
 * entry: not written yet). Tiled writers lay level 0 down before the small MIP levels.
 */
export type ChunksThere = readonly ArrayLike<number>[];

/**
 * The smallest level at least as large as the thumbnail in both directions (level 0 when the part has no others). Of a
 * file still being written (`there`), the smallest such level whose chunks are all there, else level 0: its chunks so
 * far make the thumbnail until a smaller level is whole.
 */
export function chooseLevel(part: PartInfo, widthPx: number, heightPx: number, there?: ChunksThere): Level {
  let best = part.levels[0]!;
  for (const level of part.levels) {
    if (level.widthPx >= widthPx && level.heightPx >= heightPx && level.widthPx * level.heightPx < best.widthPx * best.heightPx)
      if (!there || levelWhole(part, level, there)) best = level;
  }
  return best;
}

function levelWhole(part: PartInfo, level: Level, there: ChunksThere): boolean {
  const table = there[part.index];
  if (!table) return false;
  const end = level.firstChunk + (part.isTiled ? level.tilesX * level.tilesY : part.chunkCount);
  for (let c = level.firstChunk; c < end; c++) if (!(table[c]! >= 0)) return false;
  return true;
}

/** The part a thumbnail is made from: the first flat (non-deep) part with a channel (a deep-only file's: deep-thumbnail.ts). */
export function thumbnailPart(parts: readonly PartInfo[]): PartInfo {
  const flat = parts.filter((p) => !p.isDeep);
  if (flat.length === 0) throw new Error('the file holds only deep parts: its thumbnail is made by the deep thumbnail task');
  const part = flat.find((p) => p.channels.length > 0);
  if (!part) throw new ExrError('unsupported', 'no part of the file has any channels: there is no image to show');
  return part;
}

export function thumbnailJob(
  args: ThumbnailJobArgs,
  ctx: { signal: AbortSignalLike },
): { result: ThumbnailJobResult; transfer: ArrayBuffer[] } {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const { part, level, choice, ...size } = planThumbnail(reader.parts, args.longSidePx, reader.incomplete ? reader.offsets : undefined);
    const { means, timings: binned } = decodeBinned(reader, part, level, channelsOf(choice), size.widthPx, size.heightPx, ctx.signal);
    const t0 = performance.now();
    const rgbaHalf = toRgbaHalf(choice, (name) => (name ? (means.get(name) ?? null) : null), size.widthPx * size.heightPx)
      .buffer as ArrayBuffer;
    const timings = {
      readMs: source.stats.readMs,
      decompressMs: binned.decompressMs,
      // no unpack stage: samples go from the decompressed chunk straight into the bins
      unpackMs: 0,
      bytesRead: source.stats.bytesRead,
      chunks: binned.chunks,
      resizeMs: binned.resizeMs + (performance.now() - t0),
      toneMapMs: 0,
      encodeMs: 0,
      writeMs: 0,
    };
    return {
      result: {
        ...size,
        rgbaHalf,
        source: sourceOfLevel(level),
        part: part.index,
        lx: level.lx,
        ly: level.ly,
        channels: choice,
        timings,
      },
      transfer: [rgbaHalf],
    };
  } finally {
    source.close();
  }
}

/**
 * One band of a thumbnail made by several workers: the sums of its rows' samples per bin (see sumBins); and what the
 * band that makes the thumbnail makes of it besides its half RGBA (the job's ThumbnailOutputs: view, PNG, files).
 */
export interface ThumbnailBandArgs extends ThumbnailOutputs {
  path: string;
  part: number;
  lx: number;
  ly: number;
  channels: string[];
  widthPx: number;
  heightPx: number;
  rows: { yMin: number; yMax: number };
  /**
   * The job's shared buffer (band-sums.ts), reused from thumbnail to thumbnail: the band's sums go in its slot, and
   * the last band in makes the thumbnail from the slots (for which it needs the channel choice).
   */
  sums: { buffer: SharedArrayBuffer; layout: ThumbnailSumsLayout; band: number; choice: ThumbnailChannels };
  /** The main thread's parse of the file, where it has one: the worker then does not parse it (header-handoff.ts). */
  handoff?: HeaderHandoff;
}

export interface ThumbnailBandResult {
  /** This band was the last in and made the thumbnail. */
  made: boolean;
  /** The band's chunks that could not be read (their pixels are hatched in the thumbnail), and the first one's reason. */
  missing?: { chunks: number; reason: string };
  /** The thumbnail it made, in buffers of its own: the main thread takes them as they are, no copy. */
  output?: ThumbnailOutput;
  timings: ThumbnailTimings;
}

export function thumbnailBand(reader: ExrReader, args: ThumbnailBandArgs, signal: AbortSignalLike): ThumbnailBandResult {
  const part = reader.part(args.part);
  const level = part.levels.find((l) => l.lx === args.lx && l.ly === args.ly);
  if (!level) throw new ExrError('invalid', `part has no level (${args.lx}, ${args.ly})`, { part: args.part });
  const { buffer, layout, band } = args.sums;
  if (bandIsIn(buffer, layout, band)) {
    // run again after its worker died: its sums are in, and the last band may be reading them
    return { made: false, timings: { ...NO_TIMINGS } };
  }
  // a chunk that cannot be read leaves its pixels' bins short: they are marked, hatched once the thumbnail is made
  const mask = missingMask(buffer, layout);
  let missing: { chunks: number; reason: string } | undefined;
  const onFailure = (chunkIndex: number, error: ExrError): void => {
    const bins = binsOfBlock(part, level, chunkPlace(part, chunkIndex).block, args.widthPx, args.heightPx);
    for (let ty = bins.tyMin; ty <= bins.tyMax; ty++) mask.fill(1, ty * args.widthPx + bins.txMin, ty * args.widthPx + bins.txMax + 1);
    missing = { chunks: (missing?.chunks ?? 0) + 1, reason: missing?.reason ?? error.message };
  };
  const { timings } = sumBins(
    reader,
    part,
    level,
    args.channels,
    args.widthPx,
    args.heightPx,
    signal,
    'lines',
    args.rows,
    bandSums(buffer, layout, band),
    onFailure,
  );
  countChunksMissing(buffer, layout, missing?.chunks ?? 0);
  const result: ThumbnailBandResult = {
    made: false,
    ...(missing ? { missing } : {}),
    timings: {
      ...NO_TIMINGS,
      readMs: timings.readMs,
      decompressMs: timings.decompressMs,
      chunks: timings.chunks,
      resizeMs: timings.resizeMs,
    },
  };
  if (countBandIn(buffer, layout, band)) {
    // tone-mapped (encoded, written) here rather than in a task of its own: no message, no copy, no wait for a worker
    const shape = { part, level, choice: args.sums.choice, names: args.channels, widthPx: args.widthPx, heightPx: args.heightPx };
    const { finishMs, toneMapMs, encodeMs, writeMs, ...output } = makeThumbnail(shape, buffer, layout, args, undefined, missing?.reason);
    result.made = true;
    result.output = output;
    result.timings.resizeMs += finishMs;
    result.timings.toneMapMs = toneMapMs;
    result.timings.encodeMs = encodeMs;
    result.timings.writeMs = writeMs;
  }
  return result;
}

/** A finished thumbnail in buffers of its own, transferred to the main thread. */
export interface ThumbnailOutput {
  rgbaHalf: ArrayBuffer;
  rgba8?: ArrayBuffer;
  png?: ArrayBuffer;
  written?: ThumbnailFilesWritten;
}

/** What a thumbnail is made of, chosen from the header on the main thread: the part, its size, the level and the channels. */
export interface ThumbnailPlan {
  part: PartInfo;
  level: Level;
  widthPx: number;
  heightPx: number;
  choice: ThumbnailChannels;
}

/** `there`: of a file still being written, the chunks that are (see chooseLevel). */
export function planThumbnail(parts: readonly PartInfo[], longSidePx: number, there?: ChunksThere): ThumbnailPlan {
  const part = thumbnailPart(parts);
  const size = thumbnailSize(part.widthPx, part.heightPx, longSidePx);
  return {
    part,
    level: chooseLevel(part, size.widthPx, size.heightPx, there),
    ...size,
    choice: chooseThumbnailChannels(part.channels.map((c) => c.name)),
  };
}

/**
 * The job's result around its half RGBA (and 8-bit RGBA, PNG, files written), with its bands' timings added up (and
 * `finishMs`, `toneMapMs`, `encodeMs` and `writeMs` of making them here).
 */
export function thumbnailResult(
  plan: ThumbnailPlan,
  bands: readonly ThumbnailBandResult[],
  made: ThumbnailOutput & { finishMs: number; toneMapMs: number; encodeMs: number; writeMs: number },
  missing?: ThumbnailMissing,
): ThumbnailJobResult {
  const timings = { ...NO_TIMINGS, resizeMs: made.finishMs, toneMapMs: made.toneMapMs, encodeMs: made.encodeMs, writeMs: made.writeMs };
  for (const band of bands) {
    timings.readMs += band.timings.readMs;
    timings.decompressMs += band.timings.decompressMs;
    timings.bytesRead += band.timings.bytesRead;
    timings.chunks += band.timings.chunks;
    timings.resizeMs += band.timings.resizeMs;
    timings.toneMapMs += band.timings.toneMapMs;
    timings.encodeMs += band.timings.encodeMs;
    timings.writeMs += band.timings.writeMs;
  }
  const { level } = plan;
  return {
    widthPx: plan.widthPx,
    heightPx: plan.heightPx,
    rgbaHalf: made.rgbaHalf,
    ...(made.rgba8 ? { rgba8: made.rgba8 } : {}),
    ...(made.png ? { png: made.png } : {}),
    ...(made.written ? { written: made.written } : {}),
    ...(missing ? { missing } : {}),
    source: sourceOfLevel(level),
    part: plan.part.index,
    lx: level.lx,
    ly: level.ly,
    channels: plan.choice,
    timings,
  };
}

/** SANE_HALF as float32 bit patterns, for the rare halves the arithmetic path leaves to a table (zero, subnormal, Inf, NaN). */
const SANE_HALF_BITS = new Int32Array(SANE_HALF.buffer);

let scratchF32 = new Float32Array(4096);
let scratchI32 = new Int32Array(scratchF32.buffer);

/**
 * Half bits to sanitised floats for `n` samples from `src[start]`, for the box filter over whole planes.
 * Normal halves are converted by shifting bits; zero, subnormals, Inf and NaN go through SANE_HALF.
 */
function halfRow(src: Uint16Array, start: number, n: number): Float32Array {
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

/**
 * The same box filter over a decoded plane (for planes already in memory, and the benches'
 * reference): each sample adds to the bin its pixel falls in, bins are divided by their counts.
 * A target larger than the plane takes the nearest sample. NaN counts as 0 and ±Inf as ±65504.
 */
export function boxFilter(plane: DecodedChannel, widthPx: number, heightPx: number): Float32Array {
  const ws = plane.widthSamples;
  const hs = plane.heightSamples;
  const out = new Float32Array(widthPx * heightPx);
  const data = plane.data;
  const value = (i: number): number => {
    const v = data[i]!;
    if (plane.pixelType === 'half') return SANE_HALF[v]!;
    return v === v ? clampHalf(v) : 0;
  };
  if (widthPx > ws || heightPx > hs) {
    for (let ty = 0; ty < heightPx; ty++) {
      const sy = Math.min(hs - 1, Math.floor(((ty + 0.5) * hs) / heightPx));
      for (let tx = 0; tx < widthPx; tx++)
        out[ty * widthPx + tx] = value(sy * ws + Math.min(ws - 1, Math.floor(((tx + 0.5) * ws) / widthPx)));
    }
    return out;
  }
  const binX = new Int32Array(ws);
  const countX = new Float64Array(widthPx);
  for (let x = 0; x < ws; x++) {
    const bin = Math.floor((x * widthPx) / ws);
    binX[x] = bin;
    countX[bin] = countX[bin]! + 1;
  }
  const countY = new Float64Array(heightPx);
  const acc = new Float64Array(widthPx * heightPx);
  const half = plane.pixelType === 'half';
  for (let sy = 0; sy < hs; sy++) {
    const ty = Math.floor((sy * heightPx) / hs);
    countY[ty] = countY[ty]! + 1;
    const row = ty * widthPx;
    if (half) {
      const values = halfRow(data as Uint16Array, sy * ws, ws);
      for (let x = 0; x < ws; x++) acc[row + binX[x]!]! += values[x]!;
    } else {
      for (let x = 0, i = sy * ws; x < ws; x++, i++) acc[row + binX[x]!]! += value(i);
    }
  }
  for (let ty = 0; ty < heightPx; ty++) {
    for (let tx = 0; tx < widthPx; tx++) out[ty * widthPx + tx] = acc[ty * widthPx + tx]! / (countY[ty]! * countX[tx]!);
  }
  return out;
}
