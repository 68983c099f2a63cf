// A thumbnail job's shared buffer: a count of bands done, the whole thumbnail's sums and half RGBA (and its 8-bit RGBA
// through a view, when one was asked for), then each band's sums.
//
// Bands write their sums into their own slots; the band that brings the count to the number of bands adds them up,
// divides and writes the half RGBA, so that the main thread only copies the finished thumbnail out. (Adding up, means
// and halves for every file on the main thread took ~10 ms a 4K thumbnail: with 16 workers, more than the workers'
// time per file, so the main thread set the pace.) The Atomics order every band's writes before the last band's reads.
// A band counts once, by its own flag: run again after its worker died, it finds its sums in and leaves them.

/** Where one band's sums are: channel c's at byteOffset + c * length * 8; they start at bin row tyMin. */
export interface BandSlot {
  byteOffset: number;
  tyMin: number;
  length: number;
}

export interface ThumbnailSumsLayout {
  byteLength: number;
  /** Int32 words at byte 0: bands counted in, 1 once a worker has made the thumbnail, then one flag a band. */
  countersBytes: number;
  channelCount: number;
  /** Width x height of the thumbnail. */
  pixelCount: number;
  /** Where the 8-bit RGBA is, when the job tone-maps too; else null. */
  rgba8ByteOffset: number | null;
  bands: BandSlot[];
}

const COUNT = 0;
const MADE = 1;
const FLAGS = 2;

/**
 * The slots for bands covering bin rows [tyMin, tyMax] each, after the counters, the whole sums, the half RGBA and
 * (`withRgba8`) the 8-bit RGBA.
 */
export function layoutSums(channelCount: number, widthPx: number, heightPx: number, bandRows: readonly { tyMin: number; tyMax: number }[], withRgba8 = false): ThumbnailSumsLayout {
  const pixelCount = widthPx * heightPx;
  // rounded up to 8 bytes, and the half RGBA is 8 bytes a pixel: every Float64 array stays aligned
  const countersBytes = Math.ceil((4 * (FLAGS + bandRows.length)) / 8) * 8;
  let byteOffset = countersBytes + channelCount * pixelCount * 8 + pixelCount * 8;
  const rgba8ByteOffset = withRgba8 ? byteOffset : null;
  if (withRgba8) byteOffset += Math.ceil((pixelCount * 4) / 8) * 8;
  const bands = bandRows.map(({ tyMin, tyMax }) => {
    const length = (tyMax - tyMin + 1) * widthPx;
    const slot = { byteOffset, tyMin, length };
    byteOffset += channelCount * length * 8;
    return slot;
  });
  return { byteLength: byteOffset, countersBytes, channelCount, pixelCount, rgba8ByteOffset, bands };
}

/** A band's sums, one Float64Array per channel. */
export function bandSums(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, band: number): Float64Array[] {
  const slot = layout.bands[band]!;
  return Array.from({ length: layout.channelCount }, (_, c) => new Float64Array(buffer, slot.byteOffset + c * slot.length * 8, slot.length));
}

/** The whole thumbnail's sums, one Float64Array per channel. */
export function wholeSums(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Float64Array[] {
  return Array.from({ length: layout.channelCount }, (_, c) => new Float64Array(buffer, layout.countersBytes + c * layout.pixelCount * 8, layout.pixelCount));
}

/** The finished thumbnail's half RGBA. */
export function rgbaHalfOf(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Uint16Array {
  return new Uint16Array(buffer, layout.countersBytes + layout.channelCount * layout.pixelCount * 8, layout.pixelCount * 4);
}

/** The finished thumbnail's 8-bit RGBA, in a layout made with it. */
export function rgba8Of(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Uint8ClampedArray {
  if (layout.rgba8ByteOffset === null) throw new Error('this thumbnail job was not asked for 8-bit RGBA');
  return new Uint8ClampedArray(buffer, layout.rgba8ByteOffset, layout.pixelCount * 4);
}

const counters = (buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout) => new Int32Array(buffer, 0, layout.countersBytes / 4);

/** Before the first band: no band in, no thumbnail made (the buffer may be a reused one). */
export function resetCounters(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): void {
  counters(buffer, layout).fill(0);
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

export function markMade(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): void {
  Atomics.store(counters(buffer, layout), MADE, 1);
}

/** True once a worker has written the finished thumbnail's half RGBA. */
export function wasMade(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): boolean {
  return Atomics.load(counters(buffer, layout), MADE) === 1;
}
