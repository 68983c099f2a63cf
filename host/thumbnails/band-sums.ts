// A thumbnail job's shared buffer: a count of bands done and a flag a band, then each band's sums.
//
// Bands write their sums into their own slots; the band that brings the count to the number of bands adds them up,
// divides and writes the half RGBA (and 8-bit RGBA) into buffers of its own that it hands over (compose.ts): done on
// the main thread, that finishing set the pace of a folder on many workers. The Atomics order every band's writes before the last
// band's reads. A band counts once, by its own flag: run again after its worker died, it finds its sums in and leaves
// them; the slots stay as they are, so the main thread can make the thumbnail from them if its maker's reply was lost.
// After the slots, a damaged file's tally: chunks that could not be read, and which thumbnail pixels they reach (hatched).

/** Where one band's sums are: channel c's at byteOffset + c * length * 8; they start at bin row tyMin. */
export interface BandSlot {
  byteOffset: number;
  tyMin: number;
  length: number;
}

export interface ThumbnailSumsLayout {
  byteLength: number;
  /** Int32 words at byte 0: bands counted in, then one flag a band. */
  countersBytes: number;
  channelCount: number;
  /** Width x height of the thumbnail. */
  pixelCount: number;
  bands: BandSlot[];
  /** Where the damage tally is: an Int32 count of chunks that could not be read, then one byte a thumbnail pixel (1: missing). */
  damageByteOffset: number;
  /** The chunks all bands read together: when none of them can be, there is no thumbnail. */
  chunksTotal: number;
}

const COUNT = 0;
const FLAGS = 1;

/** The slots for bands covering bin rows [tyMin, tyMax] each, after the counters. */
export function layoutSums(
  channelCount: number,
  widthPx: number,
  heightPx: number,
  bandRows: readonly { tyMin: number; tyMax: number; chunkIndices?: readonly number[] }[],
): ThumbnailSumsLayout {
  const pixelCount = widthPx * heightPx;
  // rounded up to 8 bytes: every Float64 array stays aligned
  const countersBytes = Math.ceil((4 * (FLAGS + bandRows.length)) / 8) * 8;
  let byteOffset = countersBytes;
  const bands = bandRows.map(({ tyMin, tyMax }) => {
    const length = (tyMax - tyMin + 1) * widthPx;
    const slot = { byteOffset, tyMin, length };
    byteOffset += channelCount * length * 8;
    return slot;
  });
  const chunksTotal = bandRows.reduce((n, b) => n + (b.chunkIndices?.length ?? 0), 0);
  // rounded up to 8 bytes: the native kernel sees the buffer as Float64
  const byteLength = byteOffset + 8 + Math.ceil(pixelCount / 8) * 8;
  return { byteLength, countersBytes, channelCount, pixelCount, bands, damageByteOffset: byteOffset, chunksTotal };
}

/** A band's sums, one Float64Array per channel. */
export function bandSums(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, band: number): Float64Array[] {
  const slot = layout.bands[band]!;
  return Array.from(
    { length: layout.channelCount },
    (_, c) => new Float64Array(buffer, slot.byteOffset + c * slot.length * 8, slot.length),
  );
}

const counters = (buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout) => new Int32Array(buffer, 0, layout.countersBytes / 4);

/** Before the first band: no band in (the buffer may be a reused one). */
export function resetCounters(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): void {
  counters(buffer, layout).fill(0);
  new Uint8Array(buffer, layout.damageByteOffset, 8 + layout.pixelCount).fill(0);
}

/** The thumbnail's pixels some chunk that could not be read falls in (1), one byte a pixel, rows top to bottom. */
export function missingMask(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Uint8Array {
  return new Uint8Array(buffer, layout.damageByteOffset + 8, layout.pixelCount);
}

/**
 * Counts a band's chunks that could not be read, before it counts itself in (countBandIn's Atomics then order this,
 * and its marks in missingMask, before the last band's reads).
 */
export function countChunksMissing(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, chunks: number): void {
  if (chunks > 0) Atomics.add(new Int32Array(buffer, layout.damageByteOffset, 1), 0, chunks);
}

/** The chunks of the thumbnail's bands that could not be read (all bands in: read by the last one). */
export function chunksMissing(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): number {
  return Atomics.load(new Int32Array(buffer, layout.damageByteOffset, 1), 0);
}

/** True when the band's sums are in its slot: a run of it after its worker died leaves them as they are. */
export function bandIsIn(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, band: number): boolean {
  return Atomics.load(counters(buffer, layout), FLAGS + band) === 1;
}

/** Counts a band in once its sums are written; true for the band that completes the set. */
export function countBandIn(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, band: number): boolean {
  const words = counters(buffer, layout);
  if (Atomics.compareExchange(words, FLAGS + band, 0, 1) !== 0) return false;
  return Atomics.add(words, COUNT, 1) + 1 === layout.bands.length;
}
