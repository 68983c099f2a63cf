// The byte reordering and delta predictor that RLE, ZIPS and ZIP apply before entropy coding.
//
// Encoding splits the chunk's bytes into two halves (even-indexed bytes first, then odd-indexed
// bytes), then replaces each byte but the first with (byte - previous + 128) mod 256. Decoding
// undoes both in one pass: the running sum is continuous across the two halves, so the first half
// is summed into the even output positions and the sum carries on into the odd ones.

/** Lane masks for adding four bytes packed in a 32-bit word without carries between them. */
const LOW_7_BITS = 0x7f7f7f7f;
const HIGH_BITS = 0x80808080 | 0;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Undoes the predictor and the reordering of `coded` (length n) into a new array of length n.
 * Consumes `coded`: its bytes are overwritten.
 */
export function unpredictAndInterleave(coded: Uint8Array): Uint8Array {
  const byteCount = coded.length;
  // Four bytes at a time where both halves are whole 32-bit words (any chunk of four half channels).
  if (LITTLE_ENDIAN && byteCount % 8 === 0 && coded.byteOffset % 4 === 0) return unpredictWords(coded);
  return unpredictBytes(coded);
}

function unpredictBytes(coded: Uint8Array): Uint8Array {
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

/**
 * The same as unpredictBytes on 32-bit words: a byte-lane prefix sum per word (removing the bias
 * is flipping each byte's top bit), carried from word to word through the top lane. The first
 * half is summed in place, then the second half is summed and both are interleaved into the output.
 */
function unpredictWords(coded: Uint8Array): Uint8Array {
  const byteCount = coded.length;
  const out = new Uint8Array(byteCount);
  const halfWords = byteCount >> 3;
  const coded32 = new Uint32Array(coded.buffer, coded.byteOffset, halfWords * 2);
  const out32 = new Uint32Array(out.buffer, 0, halfWords * 2);
  let carry = 0;
  for (let k = 0; k < halfWords; k++) {
    let sum = coded32[k]! ^ HIGH_BITS;
    // The first byte has no bias to remove.
    if (k === 0) sum ^= 0x80;
    let shifted = sum << 8;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = sum << 16;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = carry * 0x01010101;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    carry = sum >>> 24;
    coded32[k] = sum;
  }
  for (let k = 0; k < halfWords; k++) {
    let sum = coded32[halfWords + k]! ^ HIGH_BITS;
    let shifted = sum << 8;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = sum << 16;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = carry * 0x01010101;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    carry = sum >>> 24;
    // Output bytes alternate: first-half byte, second-half byte.
    const even = coded32[k]!;
    out32[2 * k] = (even & 0xff) | ((sum & 0xff) << 8) | ((even & 0xff00) << 8) | ((sum & 0xff00) << 16);
    out32[2 * k + 1] = ((even >>> 16) & 0xff) | ((sum >>> 8) & 0xff00) | ((even >>> 8) & 0xff0000) | (sum & 0xff000000);
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
