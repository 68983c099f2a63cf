// Subsampling arithmetic: which coordinates of a range carry samples of a channel with sampling s.

/** Floor division, correct for negative coordinates (data windows may start below zero). */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

export function floorMod(a: number, b: number): number {
  return a - Math.floor(a / b) * b;
}

/** Number of integers x in [first, last] with x mod s == 0. */
export function sampleCount(s: number, first: number, last: number): number {
  if (last < first) return 0;
  return floorDiv(last, s) - floorDiv(first - 1, s);
}

/** Per-channel sample counts of a block, and its uncompressed size in bytes. */
export interface ChannelExtent {
  widthSamples: number;
  heightSamples: number;
  bytesPerSample: number;
}
