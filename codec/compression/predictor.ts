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
 * The decoded first half, kept from call to call. Decoding in place into the caller's (already
 * touched) buffer is much cheaper than filling a freshly allocated one; only the first half needs
 * a side copy, since every output write lands on an input byte that has been read already.
 */
let firstHalfScratch = new Uint8Array(0);
/** Larger scratch buffers are not kept, so that one huge chunk does not pin its size forever. */
const SCRATCH_KEEP_BYTES = 8 << 20;

function scratchOf(byteCount: number): Uint8Array {
  if (firstHalfScratch.length >= byteCount) return firstHalfScratch;
  const fresh = new Uint8Array(byteCount);
  if (byteCount <= SCRATCH_KEEP_BYTES) firstHalfScratch = fresh;
  return fresh;
}

/** Undoes the predictor and the reordering in place: overwrites `bytes` with the decoded chunk and returns it. */
export function unpredictAndInterleave(bytes: Uint8Array): Uint8Array {
  const byteCount = bytes.length;
  if (byteCount === 0) return bytes;
  const firstHalf = scratchOf((byteCount + 1) >> 1);
  // Four bytes at a time where both halves are whole 32-bit words (any chunk of four half channels).
  if (LITTLE_ENDIAN && byteCount % 8 === 0 && bytes.byteOffset % 4 === 0) unpredictWords(bytes, firstHalf);
  else unpredictBytes(bytes, firstHalf);
  return bytes;
}

function unpredictBytes(bytes: Uint8Array, firstHalf: Uint8Array): void {
  const byteCount = bytes.length;
  const firstHalfBytes = (byteCount + 1) >> 1;
  const secondHalfBytes = byteCount - firstHalfBytes;
  // The first byte is stored as is; every later byte carries a +128 bias.
  let running = bytes[0]!;
  firstHalf[0] = running;
  for (let i = 1; i < firstHalfBytes; i++) {
    running = (running + bytes[i]! - 128) & 0xff;
    firstHalf[i] = running;
  }
  // Writing bytes 2i and 2i + 1 never overtakes the second-half byte read next (firstHalfBytes + i + 1).
  for (let i = 0; i < secondHalfBytes; i++) {
    running = (running + bytes[firstHalfBytes + i]! - 128) & 0xff;
    bytes[2 * i] = firstHalf[i]!;
    bytes[2 * i + 1] = running;
  }
  if (byteCount % 2 === 1) bytes[byteCount - 1] = firstHalf[firstHalfBytes - 1]!;
}

/**
 * The same as unpredictBytes on 32-bit words: a byte-lane prefix sum per word (removing the bias
 * is flipping each byte's top bit), carried from word to word through the top lane.
 */
function unpredictWords(bytes: Uint8Array, firstHalf: Uint8Array): void {
  const halfWords = bytes.length >> 3;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, halfWords * 2);
  const firstWords = new Uint32Array(firstHalf.buffer, firstHalf.byteOffset, halfWords);
  let carry = 0;
  for (let k = 0; k < halfWords; k++) {
    let sum = words[k]! ^ HIGH_BITS;
    // The first byte has no bias to remove.
    if (k === 0) sum ^= 0x80;
    let shifted = sum << 8;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = sum << 16;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = carry * 0x01010101;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    carry = sum >>> 24;
    firstWords[k] = sum;
  }
  // Writing words 2k and 2k + 1 never overtakes the second-half word read next (halfWords + k + 1).
  for (let k = 0; k < halfWords; k++) {
    let sum = words[halfWords + k]! ^ HIGH_BITS;
    let shifted = sum << 8;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = sum << 16;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    shifted = carry * 0x01010101;
    sum = ((sum & LOW_7_BITS) + (shifted & LOW_7_BITS)) ^ ((sum ^ shifted) & HIGH_BITS);
    carry = sum >>> 24;
    // Output bytes alternate: first-half byte, second-half byte.
    const even = firstWords[k]!;
    words[2 * k] = (even & 0xff) | ((sum & 0xff) << 8) | ((even & 0xff00) << 8) | ((sum & 0xff00) << 16);
    words[2 * k + 1] = ((even >>> 16) & 0xff) | ((sum >>> 8) & 0xff00) | ((even >>> 8) & 0xff0000) | (sum & 0xff000000);
  }
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
