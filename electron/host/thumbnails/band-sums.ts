// A thumbnail job's shared buffer: a count of bands done, the whole thumbnail's sums and half RGBA, then each band's sums.
//
// Bands write their sums into their own slots; the band that brings the count to the number of bands adds them up,
// divides and writes the half RGBA, so that the main thread only copies the finished thumbnail out. (Adding up, means
// and halves for every file on the main thread took ~10 ms a 4K thumbnail: with 16 workers, more than the workers'
// time per file, so the main thread set the pace.) Atomics.add orders every band's writes before the last band's reads.

/** Where one band's sums are: channel c's at byteOffset + c * length * 8; they start at bin row tyMin. */
export interface BandSlot {
  byteOffset: number;
  tyMin: number;
  length: number;
}

export interface ThumbnailSumsLayout {
  byteLength: number;
  channelCount: number;
  /** Width x height of the thumbnail. */
  pixelCount: number;
  bands: BandSlot[];
}

/** Int32 words at byte 0: bands done; 1 once a worker has made the thumbnail. 8 bytes keep the sums aligned. */
const COUNTERS_BYTES = 8;

/** The slots for bands covering bin rows [tyMin, tyMax] each, after the counters, the whole sums and the half RGBA. */
export function layoutSums(channelCount: number, widthPx: number, heightPx: number, bandRows: readonly { tyMin: number; tyMax: number }[]): ThumbnailSumsLayout {
  const pixelCount = widthPx * heightPx;
  // the half RGBA (8 bytes a pixel) keeps the Float64 sums after it aligned
  let byteOffset = COUNTERS_BYTES + channelCount * pixelCount * 8 + pixelCount * 8;
  const bands = bandRows.map(({ tyMin, tyMax }) => {
    const length = (tyMax - tyMin + 1) * widthPx;
    const slot = { byteOffset, tyMin, length };
    byteOffset += channelCount * length * 8;
    return slot;
  });
  return { byteLength: byteOffset, channelCount, pixelCount, bands };
}

/** A band's sums, one Float64Array per channel. */
export function bandSums(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, band: number): Float64Array[] {
  const slot = layout.bands[band]!;
  return Array.from({ length: layout.channelCount }, (_, c) => new Float64Array(buffer, slot.byteOffset + c * slot.length * 8, slot.length));
}

/** The whole thumbnail's sums, one Float64Array per channel. */
export function wholeSums(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Float64Array[] {
  return Array.from({ length: layout.channelCount }, (_, c) => new Float64Array(buffer, COUNTERS_BYTES + c * layout.pixelCount * 8, layout.pixelCount));
}

/** The finished thumbnail's half RGBA. */
export function rgbaHalfOf(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): Uint16Array {
  return new Uint16Array(buffer, COUNTERS_BYTES + layout.channelCount * layout.pixelCount * 8, layout.pixelCount * 4);
}

/** Before the first band: no band done, no thumbnail made (the buffer may be a reused one). */
export function resetCounters(buffer: SharedArrayBuffer): void {
  new Int32Array(buffer, 0, 2).fill(0);
}

/** Counts a band in; true for the band that completes the set (a band run twice, after a worker died, makes none). */
export function countBandIn(buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout): boolean {
  return Atomics.add(new Int32Array(buffer, 0, 2), 0, 1) + 1 === layout.bands.length;
}

export function markMade(buffer: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(buffer, 0, 2), 1, 1);
}

/** True once a worker has written the finished thumbnail's half RGBA. */
export function wasMade(buffer: SharedArrayBuffer): boolean {
  return Atomics.load(new Int32Array(buffer, 0, 2), 1) === 1;
}
