// The geometry of one level of a flat part, and how it is cut into bands of whole chunks for the pool.

import {
  ExrError,
  type Box2i,
  type DecodedChannel,
  type PartInfo,
  type PixelType,
  type PlaneData,
  findLevel,
  sampleCount,
  PIXEL_TYPE_BYTES,
} from '../../codec/index.js';

/** A plane's geometry, before it has pixels. */
export type PlaneLayout = Omit<DecodedChannel, 'data'>;

export interface LevelLayout {
  part: number;
  lx: number;
  ly: number;
  /** The whole level, absolute coordinates (a level's pixels start at the data window's origin). */
  frame: Box2i;
  /** The planes a decode fills: the selected channels, header order. */
  planes: PlaneLayout[];
  /** Rows one chunk covers (lines per chunk, or the tile height): bands are cut on multiples of it so no chunk is decoded twice. */
  rowsPerChunk: number;
  /** The least common multiple of the planes' y sampling: bands start on rows every plane samples. */
  rowAlignment: number;
  /** Uncompressed bytes of one full row of every channel (what decompression produces, whatever is selected). */
  rowBytes: number;
  /** Bytes of the level's decompressed chunks, kept as a chunk store (see the codec's chunkStoreLayout). */
  chunkStoreBytes: number;
}

/** The layout of level (lx, ly) of a flat part for the channels asked for (every channel when null). */
export function levelLayout(part: PartInfo, lx: number, ly: number, channels: readonly string[] | null): LevelLayout {
  if (part.isDeep) throw new ExrError('unsupported', 'deep parts are decoded whole, not in bands', { part: part.index });
  const level = findLevel(part, lx, ly);
  if (!level) throw new ExrError('invalid', `part has no level (${lx}, ${ly})`, { part: part.index });
  for (const name of channels ?? []) {
    if (!part.channels.some((c) => c.name === name)) throw new ExrError('invalid', `part has no channel "${name}"`, { part: part.index });
  }
  const frame: Box2i = {
    xMin: part.dataWindow.xMin,
    yMin: part.dataWindow.yMin,
    xMax: part.dataWindow.xMin + level.widthPx - 1,
    yMax: part.dataWindow.yMin + level.heightPx - 1,
  };
  const selected = part.channels.filter((c) => !channels || channels.includes(c.name));
  const planes = selected.map((c) => ({
    name: c.name,
    pixelType: c.pixelType,
    xSampling: c.xSampling,
    ySampling: c.ySampling,
    widthSamples: sampleCount(c.xSampling, frame.xMin, frame.xMax),
    heightSamples: sampleCount(c.ySampling, frame.yMin, frame.yMax),
  }));
  const rowBytes = part.channels.reduce(
    (sum, c) => sum + (sampleCount(c.xSampling, frame.xMin, frame.xMax) * PIXEL_TYPE_BYTES[c.pixelType]) / c.ySampling,
    0,
  );
  // the chunks cut the level into rows or tiles, and a channel's samples in each add up to its samples in the level:
  // so the store holds every channel's whole plane (chunkStoreLayout's total, without a walk over the chunks)
  const chunkStoreBytes = part.channels.reduce((sum, c) => sum + frameSamples(c, frame) * PIXEL_TYPE_BYTES[c.pixelType], 0);
  return {
    part: part.index,
    lx,
    ly,
    frame,
    planes,
    rowsPerChunk: part.isTiled ? part.tiles!.ySizePx : part.linesPerChunk,
    rowAlignment: planes.reduce((l, p) => lcm(l, p.ySampling), 1),
    rowBytes,
    chunkStoreBytes,
  };
}

/** Bytes of a plane's samples: what a decode fills at the start of its buffer (a decoded plane's own bytes). */
export function planeByteLength(plane: Pick<PlaneLayout, 'pixelType' | 'widthSamples' | 'heightSamples'>): number {
  return plane.widthSamples * plane.heightSamples * PIXEL_TYPE_BYTES[plane.pixelType];
}

/** Row bands of the frame, each a whole number of chunks and starting on a row every channel samples. */
export function planBands(
  layout: Pick<LevelLayout, 'frame' | 'rowsPerChunk' | 'rowAlignment'>,
  bandCount: number,
): { yMin: number; yMax: number }[] {
  const { frame } = layout;
  const step = lcm(layout.rowsPerChunk, layout.rowAlignment);
  const rows = frame.yMax - frame.yMin + 1;
  const units = Math.ceil(rows / step);
  const perBand = Math.max(1, Math.ceil(units / Math.max(1, bandCount)));
  const bands: { yMin: number; yMax: number }[] = [];
  for (let u = 0; u < units; u += perBand) {
    const yMin = frame.yMin + u * step;
    bands.push({ yMin, yMax: Math.min(frame.yMax, yMin + perBand * step - 1) });
  }
  return bands;
}

/** A band's uncompressed size is kept under this: a few milliseconds of work, so the queue stays fair and cancels fast. */
const MAX_BAND_BYTES = 4 << 20;
/** ...and over this where possible: below it the cost of handing out a task starts to show. */
const MIN_BAND_BYTES = 256 << 10;
/** Bands per worker for a level alone in the queue: a little more than one evens out bands that cost more than others. */
const BANDS_PER_WORKER = 3;

/**
 * How many bands a level is cut into for `workers` workers, with `otherJobs` other jobs in the queue. Behind or beside
 * other jobs one band per worker is enough (the other jobs' bands even the workers out), and each band costs the main
 * thread a message each way, and a folder cut finely keeps the main thread busy while the workers wait on it.
 */
export function bandCountFor(layout: LevelLayout, workers: number, otherJobs = 0): number {
  const rows = layout.frame.yMax - layout.frame.yMin + 1;
  const totalBytes = rows * layout.rowBytes;
  const perWorker = otherJobs > 0 ? 1 : BANDS_PER_WORKER;
  return Math.max(1, Math.ceil(totalBytes / MAX_BAND_BYTES), Math.min(workers * perWorker, Math.floor(totalBytes / MIN_BAND_BYTES)));
}

/** A typed view of a plane's `samples` samples at the start of its buffer (which may be longer: see PlaneMemory). */
export function planeView(pixelType: PixelType, buffer: ArrayBufferLike, samples: number): PlaneData {
  return pixelType === 'half'
    ? new Uint16Array(buffer, 0, samples)
    : pixelType === 'float'
      ? new Float32Array(buffer, 0, samples)
      : new Uint32Array(buffer, 0, samples);
}

/** A channel's sample count over `frame`. */
export function frameSamples(channel: { xSampling: number; ySampling: number }, frame: Box2i): number {
  return sampleCount(channel.xSampling, frame.xMin, frame.xMax) * sampleCount(channel.ySampling, frame.yMin, frame.yMax);
}

export function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}

/**
 * The layout of a crop of a level (absolute, inside its frame): planes of the crop's size, laid out over it, so a
 * decode reads only the chunks the crop touches. Its rows are cut into bands as a level's are.
 */
export function cropLayout(layout: LevelLayout, crop: Box2i): LevelLayout {
  const f = layout.frame;
  if (
    crop.xMin < f.xMin ||
    crop.yMin < f.yMin ||
    crop.xMax > f.xMax ||
    crop.yMax > f.yMax ||
    crop.xMax < crop.xMin ||
    crop.yMax < crop.yMin
  )
    throw new ExrError(
      'invalid',
      `the crop ${crop.xMin},${crop.yMin}..${crop.xMax},${crop.yMax} is not inside the level (${f.xMin},${f.yMin}..${f.xMax},${f.yMax})`,
      { part: layout.part },
    );
  const planes = layout.planes.map((p) => ({
    ...p,
    widthSamples: sampleCount(p.xSampling, crop.xMin, crop.xMax),
    heightSamples: sampleCount(p.ySampling, crop.yMin, crop.yMax),
  }));
  // a row's decompressed bytes are the whole chunk's, whatever part of it the crop keeps
  return { ...layout, frame: { ...crop }, planes, chunkStoreBytes: 0 };
}
