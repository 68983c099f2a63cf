// RLE compression: byte-oriented run-length coding over the reordered, delta-predicted chunk.
//
// The stream is a sequence of records, each opening with a signed count byte c:
// c < 0: -c literal bytes follow; c >= 0: one byte follows, repeated c + 1 times.

import { invalid } from '../core/errors.js';
import type { BlockLayout } from '../core/types.js';
import { interleaveAndPredict, unpredictAndInterleave } from './predictor.js';

/** Runs shorter than this are cheaper as literals. */
const MIN_RUN_BYTES = 3;
/** A literal record holds at most 127 bytes; a run record stores length - 1, so runs reach 128. */
const MAX_RECORD_BYTES = 127;

/** Runs at least this long are filled natively; shorter ones are cheaper as a plain loop. */
const FILL_MIN_BYTES = 32;

export function decompressRle(src: Uint8Array, _block: BlockLayout, expectedBytes: number): Uint8Array {
  const coded = new Uint8Array(expectedBytes);
  const srcBytes = src.length;
  let inPos = 0;
  let outPos = 0;
  // Records hold at most 128 bytes: byte loops beat subarray()/set() calls at that size.
  while (inPos < srcBytes) {
    const count = src[inPos]!;
    if (count >= 128) {
      const literalEnd = inPos + 1 + (256 - count);
      if (literalEnd > srcBytes) throw invalid('RLE literal run extends past the end of the chunk');
      if (outPos + (256 - count) > expectedBytes) throw invalid('RLE data decompresses to more bytes than the chunk holds');
      for (let i = inPos + 1; i < literalEnd; i++) coded[outPos++] = src[i]!;
      inPos = literalEnd;
    } else {
      if (inPos + 1 >= srcBytes) throw invalid('RLE run is missing its value byte');
      const runEnd = outPos + count + 1;
      if (runEnd > expectedBytes) throw invalid('RLE data decompresses to more bytes than the chunk holds');
      const value = src[inPos + 1]!;
      if (runEnd - outPos >= FILL_MIN_BYTES) {
        coded.fill(value, outPos, runEnd);
        outPos = runEnd;
      } else {
        while (outPos < runEnd) coded[outPos++] = value;
      }
      inPos += 2;
    }
  }
  if (outPos !== expectedBytes) throw invalid(`RLE data decompresses to ${outPos} bytes, expected ${expectedBytes}`);
  return unpredictAndInterleave(coded);
}

export function compressRle(raw: Uint8Array, _block: BlockLayout): Uint8Array {
  const coded = interleaveAndPredict(raw);
  const byteCount = coded.length;
  // Worst case: one count byte per 127 literals.
  const out = new Uint8Array(byteCount + Math.ceil(byteCount / MAX_RECORD_BYTES) + 1);
  let outPos = 0;
  let pos = 0;
  while (pos < byteCount) {
    const value = coded[pos]!;
    let runEnd = pos + 1;
    while (runEnd < byteCount && coded[runEnd] === value && runEnd - pos < MAX_RECORD_BYTES + 1) runEnd++;
    const runBytes = runEnd - pos;
    if (runBytes >= MIN_RUN_BYTES) {
      out[outPos++] = runBytes - 1;
      out[outPos++] = value;
      pos = runEnd;
      continue;
    }
    // Literals: extend until a run worth coding starts or the record is full.
    let literalEnd = pos + 1;
    while (
      literalEnd < byteCount &&
      literalEnd - pos < MAX_RECORD_BYTES &&
      !(literalEnd + 2 < byteCount && coded[literalEnd] === coded[literalEnd + 1] && coded[literalEnd] === coded[literalEnd + 2])
    ) {
      literalEnd++;
    }
    const literalBytes = literalEnd - pos;
    out[outPos++] = 256 - literalBytes;
    out.set(coded.subarray(pos, literalEnd), outPos);
    outPos += literalBytes;
    pos = literalEnd;
  }
  return out.slice(0, outPos);
}
