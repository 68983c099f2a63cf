// Decode straight into thumbnail bins: each chunk is decompressed and its samples summed into per-channel box-filter bins while still in cache (no full-size planes).

import {
  chunkPlace,
  chunksForRegion,
  uncompressedBytes,
  decompressSamples,
  decompressTransient,
  type ChunkSamples,
  applyLut,
  type PizPlanes,
  ExrError,
  type ExrReader,
  type Level,
  type PartInfo,
  type AbortSignalLike,
  floorMod,
  sampleCount,
  PIXEL_TYPE_BYTES,
  type BlockLayout,
} from '../../codec/index.js';
import { composeWithLut, EXACT_BIN_SAMPLES, HALF_MAX, SANE_HALF, sumHalfLines, type RowBins } from './bins.js';

export interface BinnedTimings {
  readMs: number;
  decompressMs: number;
  /** Summing samples into bins (the box filter). */
  resizeMs: number;
  chunks: number;
}

export type AxisBins = { binOf: Int32Array; runEnd: Int32Array; count: Float64Array; firstSample: number; largestCount: number };

/**
 * Axis tables made in this thread, by geometry: a worker sums one file in several bands, and a folder of renders has
 * one or two sizes; the tables are only read once made. Cleared when full rather than ordered (a few dozen sizes).
 */
const axisTables = new Map<string, AxisBins>();
const MAX_AXIS_TABLES = 64;

/** Which bin each sample of one axis falls in, and how many samples each bin holds (made once per geometry and thread). */
function axisBins(first: number, levelSizePx: number, sampling: number, bins: number): AxisBins {
  const key = `${first}:${levelSizePx}:${sampling}:${bins}`;
  const known = axisTables.get(key);
  if (known) return known;
  if (axisTables.size >= MAX_AXIS_TABLES) axisTables.clear();
  const made = makeAxisBins(first, levelSizePx, sampling, bins);
  axisTables.set(key, made);
  return made;
}

/**
 * The tables bin by bin: each bin's samples are one run, found by arithmetic and filled natively (sample by sample,
 * this ran in a fresh worker's interpreter for its first band, at many times the cost of the box filter). Exact: every product and quotient here is an integer below 2^53
 * whose distance from the next integer is at least 1 / its divisor.
 */
export function makeAxisBins(first: number, levelSizePx: number, sampling: number, bins: number): AxisBins {
  // samples sit at multiples of `sampling`; the data window's origin is one (the reader checks)
  const firstSample = Math.ceil(first / sampling);
  const samples = sampleCount(sampling, first, first + levelSizePx - 1);
  const binOf = new Int32Array(samples);
  const count = new Float64Array(bins);
  const runEnd = new Int32Array(bins);
  let largestCount = 0;
  let start = 0;
  for (let bin = 0; bin < bins && start < samples; bin++) {
    // sample s (at pixel (firstSample + s) * sampling - first) is in a later bin once that pixel reaches
    // ceil((bin + 1) * levelSizePx / bins); the last bin takes the rest
    const end =
      bin === bins - 1
        ? samples
        : Math.min(samples, Math.max(start, Math.ceil((Math.ceil(((bin + 1) * levelSizePx) / bins) + first) / sampling) - firstSample));
    if (end > start) {
      binOf.fill(bin, start, end);
      count[bin] = end - start;
      runEnd[bin] = end;
      largestCount = Math.max(largestCount, end - start);
    }
    start = end;
  }
  return { binOf, runEnd, count, firstSample, largestCount };
}

/** One wanted channel's bins: both axes' tables and the per-bin sums. */
interface ChannelBins {
  pixelType: BlockLayout['channels'][number]['pixelType'];
  name: string;
  xs: AxisBins;
  ys: AxisBins;
  /** Sums of the bin rows this decode covers, from its first: bin row r, column tx at (r * widthPx + tx) - rowBase. */
  row: RowBins;
  rowBase: number;
}

/**
 * How chunks are summed into bins. `lines`: PIZ chunks are read as their channel planes (no LUT pass,
 * no reordering, see decompressSamples), and the lines of a channel that share a bin row are summed
 * together wherever they lie at a fixed stride (PIZ planes; other chunks whose channels all have a
 * sample on every line, the usual case). `each-line`: the full decompression and one line at a time
 * everywhere (the general path, which tests compare the fast one to).
 */
export type BinKernel = 'lines' | 'each-line';

/** Sums of samples per bin for the named channels, over the rows of the level one decode covered. */
export interface BinSums {
  /** Bin rows the decoded rows fall in. */
  tyMin: number;
  tyMax: number;
  /** Per channel, the sums of bin rows tyMin..tyMax, widthPx each (Float64). */
  acc: Map<string, Float64Array>;
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
  kernel: BinKernel = 'lines',
): { means: Map<string, Float32Array>; timings: BinnedTimings } {
  const { sums, timings } = sumBins(reader, part, level, channelNames, widthPx, heightPx, signal, kernel);
  const t = performance.now();
  const means = binMeans(part, level, channelNames, widthPx, heightPx, sums.acc);
  timings.resizeMs += performance.now() - t;
  return { means, timings };
}

/**
 * The level's chunks that hold `rows` (default all), and the bin rows their lines fall in: a band's sums hold only
 * those (bin rows are monotonic in y), or a thumbnail summed in 15 bands would fill 15 whole-thumbnail arrays per
 * channel. The chunks' own lines count, as they can reach past rows that do not fall on chunk edges.
 */
export function bandBinRows(
  part: PartInfo,
  level: Level,
  heightPx: number,
  rows?: { yMin: number; yMax: number },
): { chunkIndices: number[]; tyMin: number; tyMax: number } {
  const x0 = part.dataWindow.xMin;
  const y0 = part.dataWindow.yMin;
  const region = { xMin: x0, yMin: rows?.yMin ?? y0, xMax: x0 + level.widthPx - 1, yMax: rows?.yMax ?? y0 + level.heightPx - 1 };
  const binRow = (y: number) => Math.min(heightPx - 1, Math.max(0, Math.floor(((y - y0) * heightPx) / level.heightPx)));
  const chunkIndices = chunksForRegion(part, level, region);
  let linesMin = region.yMin;
  let linesMax = region.yMax;
  for (const chunkIndex of chunkIndices) {
    const { block } = chunkPlace(part, chunkIndex);
    linesMin = Math.min(linesMin, block.y0);
    linesMax = Math.max(linesMax, block.y0 + block.heightPx - 1);
  }
  return { chunkIndices, tyMin: binRow(linesMin), tyMax: binRow(linesMax) };
}

/**
 * The sums behind decodeBinned, for the rows `rows` of the level (whole chunks; default all): one band of a thumbnail
 * made by several workers, whose sums are then added up (bands share at most their edge bin rows) and divided once.
 * `sumsInto`: where to put them, one array per channel of `channelNames` (bandBinRows' rows x widthPx each; zeroed
 * here), so that a worker does not make fresh arrays for every band.
 */
export function sumBins(
  reader: ExrReader,
  part: PartInfo,
  level: Level,
  channelNames: readonly string[],
  widthPx: number,
  heightPx: number,
  signal: AbortSignalLike,
  kernel: BinKernel = 'lines',
  rows?: { yMin: number; yMax: number },
  sumsInto?: readonly Float64Array[],
  /** Where chunks that cannot be read go (a damaged file's thumbnail is made of the others); without it the first throws. */
  onFailure?: (chunkIndex: number, error: ExrError) => void,
): { sums: BinSums; timings: BinnedTimings } {
  const x0 = part.dataWindow.xMin;
  const y0 = part.dataWindow.yMin;
  const wanted = new Set(channelNames);
  const { chunkIndices, tyMin, tyMax } = bandBinRows(part, level, heightPx, rows);
  const rowsLength = (tyMax - tyMin + 1) * widthPx;
  if (sumsInto && sumsInto.some((sums) => sums.length !== rowsLength))
    throw new Error(`thumbnail sums need ${rowsLength} elements a channel`);
  // The bin tables are as long as the level's sides: built only once a chunk has decompressed to the size the
  // header implies, so a tiny damaged file claiming a 2^30-pixel-wide level is refused before gigabytes are filled.
  let perChannelBins: Array<ChannelBins | null> | null = null;
  const binsOf = (): Array<ChannelBins | null> => {
    if (perChannelBins) return perChannelBins;
    // Built by a loop: built by Array.prototype.map, the binning loops compiled in the warm-up were thrown away at each
    // worker's first real thumbnails ("wrong map" in binWholeLines, on this array it seems: map's builtin and its
    // inlined form can leave the array with different elements kinds).
    const bins: Array<ChannelBins | null> = [];
    for (const ch of part.channels) {
      if (!wanted.has(ch.name)) {
        bins.push(null);
        continue;
      }
      const xs = axisBins(x0, level.widthPx, ch.xSampling, widthPx);
      const ys = axisBins(y0, level.heightPx, ch.ySampling, heightPx);
      const acc = sumsInto ? sumsInto[channelNames.indexOf(ch.name)]!.fill(0) : new Float64Array(rowsLength);
      const anyOrder = xs.largestCount * ys.largestCount <= EXACT_BIN_SAMPLES;
      bins.push({
        pixelType: ch.pixelType,
        name: ch.name,
        xs,
        ys,
        row: { binOf: xs.binOf, runEnd: xs.runEnd, acc, anyOrder },
        rowBase: tyMin * widthPx,
      });
    }
    return (perChannelBins = bins);
  };
  const timings: BinnedTimings = { readMs: 0, decompressMs: 0, resizeMs: 0, chunks: 0 };
  const stats = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
  reader.forEachChunk(
    part.index,
    chunkIndices,
    stats,
    signal,
    (chunkIndex, chunk) => {
      const place = chunkPlace(part, chunkIndex);
      const block = place.block;
      if (
        part.isTiled
          ? chunk.tileX !== place.tileX || chunk.tileY !== place.tileY || chunk.levelX !== level.lx || chunk.levelY !== level.ly
          : chunk.y !== block.y0
      ) {
        throw new ExrError('invalid', `chunk ${chunkIndex} holds the wrong tile or lines`, { part: part.index, chunk: chunkIndex });
      }
      let t = performance.now();
      const expectedBytes = uncompressedBytes(block);
      const samples: ChunkSamples =
        kernel === 'lines'
          ? decompressSamples(part.compression, chunk.data, block, expectedBytes)
          : { layout: 'lines', bytes: decompressTransient(part.compression, chunk.data, block, expectedBytes) };
      const t2 = performance.now();
      timings.decompressMs += t2 - t;
      t = t2;
      const perChannel = binsOf();
      if (samples.layout === 'planes') {
        binPizPlanes(samples, block, perChannel, widthPx);
      } else {
        const raw = samples.bytes.byteOffset % 4 === 0 ? samples.bytes : samples.bytes.slice();
        if (kernel === 'lines' && everyChannelWhole(block)) binWholeLines(raw, block, perChannel, widthPx);
        else binEachLine(raw, block, perChannel, widthPx);
      }
      timings.resizeMs += performance.now() - t;
    },
    true,
    onFailure,
  );
  timings.readMs = stats.readMs;
  timings.chunks = stats.chunks;
  const acc = new Map<string, Float64Array>();
  for (const state of binsOf()) if (state) acc.set(state.name, state.row.acc);
  return { sums: { tyMin, tyMax, acc }, timings };
}

/**
 * The thumbnail's pixels (bins) that `block`'s pixels fall in, inclusive: those a chunk that could not be read leaves
 * without all their samples. A pixel's bin is floor(offset * bins / level size), as makeAxisBins' runs.
 */
export function binsOfBlock(
  part: PartInfo,
  level: Level,
  block: BlockLayout,
  widthPx: number,
  heightPx: number,
): { txMin: number; tyMin: number; txMax: number; tyMax: number } {
  const bin = (offset: number, size: number, bins: number) => Math.min(bins - 1, Math.max(0, Math.floor((offset * bins) / size)));
  const dx = block.x0 - part.dataWindow.xMin;
  const dy = block.y0 - part.dataWindow.yMin;
  return {
    txMin: bin(dx, level.widthPx, widthPx),
    txMax: bin(dx + block.widthPx - 1, level.widthPx, widthPx),
    tyMin: bin(dy, level.heightPx, heightPx),
    tyMax: bin(dy + block.heightPx - 1, level.heightPx, heightPx),
  };
}

/** Each channel's samples per bin column (widthPx each, channel after channel) and per bin row (heightPx each). */
export function binCounts(
  part: PartInfo,
  level: Level,
  channelNames: readonly string[],
  widthPx: number,
  heightPx: number,
): { countX: Float64Array; countY: Float64Array } {
  const countX = new Float64Array(channelNames.length * widthPx);
  const countY = new Float64Array(channelNames.length * heightPx);
  channelNames.forEach((name, c) => {
    const ch = part.channels.find((p) => p.name === name);
    if (!ch) throw new Error(`no channel ${name} in the part`);
    countX.set(axisBins(part.dataWindow.xMin, level.widthPx, ch.xSampling, widthPx).count, c * widthPx);
    countY.set(axisBins(part.dataWindow.yMin, level.heightPx, ch.ySampling, heightPx).count, c * heightPx);
  });
  return { countX, countY };
}

/** Sums to means: each bin divided by its sample count; a bin no sample falls in takes its left, else upper, neighbour's value. */
export function binMeans(
  part: PartInfo,
  level: Level,
  channelNames: readonly string[],
  widthPx: number,
  heightPx: number,
  acc: ReadonlyMap<string, Float64Array>,
): Map<string, Float32Array> {
  const means = new Map<string, Float32Array>();
  for (const ch of part.channels) {
    const sums = acc.get(ch.name);
    if (!sums || !channelNames.includes(ch.name)) continue;
    const xs = axisBins(part.dataWindow.xMin, level.widthPx, ch.xSampling, widthPx);
    const ys = axisBins(part.dataWindow.yMin, level.heightPx, ch.ySampling, heightPx);
    const out = new Float32Array(widthPx * heightPx);
    for (let ty = 0; ty < heightPx; ty++) {
      for (let tx = 0; tx < widthPx; tx++) {
        const i = ty * widthPx + tx;
        const count = ys.count[ty]! * xs.count[tx]!;
        out[i] = count > 0 ? sums[i]! / count : tx > 0 ? out[i - 1]! : ty > 0 ? out[i - widthPx]! : 0;
      }
    }
    means.set(ch.name, out);
  }
  return means;
}

/** True when every channel of the block has a sample on every line and column, so all its lines are laid out alike. */
function everyChannelWhole(block: BlockLayout): boolean {
  return block.channels.every((ch) => ch.xSampling === 1 && ch.ySampling === 1);
}

/** Chunks in the scanline layout whose channels all have a sample on every line: each channel's lines lie at one stride. */
function binWholeLines(raw: Uint8Array, block: BlockLayout, perChannel: ReadonlyArray<ChannelBins | null>, widthPx: number): void {
  const n = block.widthPx;
  let lineWords = 0;
  for (const ch of block.channels) lineWords += (PIXEL_TYPE_BYTES[ch.pixelType] >> 1) * n;
  const u16 = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let channelWord = 0;
  for (let c = 0; c < block.channels.length; c++) {
    const state = perChannel[c];
    if (state) {
      const lines: ChannelLines = {
        startWord: channelWord,
        strideWords: lineWords,
        count: block.heightPx,
        firstLine: block.y0 - state.ys.firstSample,
        firstX: block.x0 - state.xs.firstSample,
        n,
      };
      binLines(u16, view, lines, state, SANE_HALF, widthPx);
    }
    channelWord += (PIXEL_TYPE_BYTES[block.channels[c]!.pixelType] >> 1) * n;
  }
}

/** PIZ chunks as their channel planes: half codes go through SANE_HALF composed with the LUT; float and uint planes get the LUT first. */
function binPizPlanes(pizPlanes: PizPlanes, block: BlockLayout, perChannel: ReadonlyArray<ChannelBins | null>, widthPx: number): void {
  const { words, planes, lut, maxCode } = pizPlanes;
  const view = new DataView(words.buffer, words.byteOffset, words.byteLength);
  let halfTable: Float32Array | null = null;
  for (let c = 0; c < planes.length; c++) {
    const state = perChannel[c];
    if (!state) continue;
    const plane = planes[c]!;
    const ch = block.channels[c]!;
    if (lut && state.pixelType !== 'half') applyLut(words.subarray(plane.start, plane.start + plane.rowWords * plane.heightSamples), lut);
    const table = lut && state.pixelType === 'half' ? (halfTable ??= composeWithLut(lut, maxCode)) : SANE_HALF;
    const lines: ChannelLines = {
      startWord: plane.start,
      strideWords: plane.rowWords,
      count: plane.heightSamples,
      firstLine: Math.ceil(block.y0 / ch.ySampling) - state.ys.firstSample,
      firstX: Math.ceil(block.x0 / ch.xSampling) - state.xs.firstSample,
      n: plane.widthSamples,
    };
    binLines(words, view, lines, state, table, widthPx);
  }
}

/** Where one channel's lines of a chunk lie: line l at word startWord + l * strideWords, holding samples firstX .. firstX + n - 1 of sample row firstLine + l. */
interface ChannelLines {
  startWord: number;
  strideWords: number;
  count: number;
  firstLine: number;
  firstX: number;
  n: number;
}

/** Sums a channel's lines into their bins, the lines that share a bin row together. */
function binLines(u16: Uint16Array, view: DataView, lines: ChannelLines, state: ChannelBins, table: Float32Array, widthPx: number): void {
  const rowOf = state.ys.binOf;
  const { startWord, strideWords, count, firstLine, firstX, n } = lines;
  let l = 0;
  while (l < count) {
    const binRow = rowOf[firstLine + l]!;
    let together = 1;
    while (l + together < count && rowOf[firstLine + l + together] === binRow) together++;
    const word = startWord + l * strideWords;
    if (state.pixelType === 'half') {
      sumHalfLines(u16, word, strideWords, together, firstX, n, state.row, binRow * widthPx - state.rowBase, table);
    } else {
      for (let k = 0; k < together; k++)
        addWordLine(view, 2 * (word + k * strideWords), state, firstX, n, binRow * widthPx - state.rowBase);
    }
    l += together;
  }
}

/** The general path: one line of one channel at a time, for any sampling. */
function binEachLine(raw: Uint8Array, block: BlockLayout, perChannel: ReadonlyArray<ChannelBins | null>, widthPx: number): void {
  const u16 = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const bx1 = block.x0 + block.widthPx - 1;
  let pos = 0;
  for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
    for (let c = 0; c < block.channels.length; c++) {
      const ch = block.channels[c]!;
      if (ch.ySampling !== 1 && floorMod(y, ch.ySampling) !== 0) continue;
      const n = sampleCount(ch.xSampling, block.x0, bx1);
      const state = perChannel[c];
      if (state) {
        const rowStart = state.ys.binOf[Math.floor(y / ch.ySampling) - state.ys.firstSample]! * widthPx - state.rowBase;
        const firstX = Math.ceil(block.x0 / ch.xSampling) - state.xs.firstSample;
        if (ch.pixelType === 'half') sumHalfLines(u16, pos >> 1, 0, 1, firstX, n, state.row, rowStart, SANE_HALF);
        else addWordLine(view, pos, state, firstX, n, rowStart);
      }
      pos += n * PIXEL_TYPE_BYTES[ch.pixelType];
    }
  }
}

/** Adds one line of float (clamped to the half range, NaN as 0) or uint samples to its bins, sample by sample. */
function addWordLine(view: DataView, byteStart: number, state: ChannelBins, firstX: number, n: number, rowStart: number): void {
  const { binOf, acc } = state.row;
  if (state.pixelType === 'float') {
    for (let s = 0; s < n; s++) {
      const v = view.getFloat32(byteStart + 4 * s, true);
      acc[rowStart + binOf[firstX + s]!]! += v === v ? (v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v) : 0;
    }
  } else {
    for (let s = 0; s < n; s++) acc[rowStart + binOf[firstX + s]!]! += view.getUint32(byteStart + 4 * s, true);
  }
}
