// The byte reordering and delta predictor that RLE, ZIPS and ZIP apply before entropy coding.
//
// Encoding splits the chunk's bytes into two halves (even-indexed bytes first, then odd-indexed
// bytes), then replaces each byte but the first with (byte - previous + 128) mod 256. Decoding
// undoes both in one pass: the running sum is continuous across the two halves, so the first half
// is summed into the even output positions and the sum carries on into the odd ones.

/** Undoes the predictor and the reordering of `coded` (length n) into a new array of length n. */
export function unpredictAndInterleave(coded: Uint8Array): Uint8Array {
  const byteCount = coded.length;
  const out = new Uint8Array(byteCount);
  if (byteCount === 0) return out;
  const firstHalfBytes = (byteCount + 1) >> 1;
  // The first byte is stored as is; every later byte carries a +128 bias.
  let running = coded[0]!;
  out[0] = running;
  let outIndex = 2;
  for (let i = 1; i < firstHalfBytes; i++) {
    running = (running + coded[i]! - 128) & 0xff;
    out[outIndex] = running;
    outIndex += 2;
  }
  outIndex = 1;
  for (let i = firstHalfBytes; i < byteCount; i++) {
    running = (running + coded[i]! - 128) & 0xff;
    out[outIndex] = running;
    outIndex += 2;
  }
  return out;
}

/** Applies the reordering and the predictor to `raw`, into a new array of the same length. */
export function interleaveAndPredict(raw: Uint8Array): Uint8Array {
  const byteCount = raw.length;
  const coded = new Uint8Array(byteCount);
  if (byteCount === 0) return coded;
  const firstHalfBytes = (byteCount + 1) >> 1;
  let previous = raw[0]!;
  coded[0] = previous;
  let rawIndex = 2;
  for (let i = 1; i < firstHalfBytes; i++) {
    const value = raw[rawIndex]!;
    coded[i] = (value - previous + 128) & 0xff;
    previous = value;
    rawIndex += 2;
  }
  rawIndex = 1;
  for (let i = firstHalfBytes; i < byteCount; i++) {
    const value = raw[rawIndex]!;
    coded[i] = (value - previous + 128) & 0xff;
    previous = value;
    rawIndex += 2;
  }
  return coded;
}
