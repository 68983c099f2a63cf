// RLE compression: byte-oriented run-length coding over the reordered, delta-predicted chunk.
//
// The stream is a sequence of records, each opening with a signed count byte c:
// c < 0: -c literal bytes follow; c >= 0: one byte follows, repeated c + 1 times.

import { invalid } from '../errors.js';
import type { BlockLayout } from '../types.js';
import { interleaveAndPredict, unpredictAndInterleave } from './predictor.js';

/** Runs shorter than this are cheaper as literals. */
const MIN_RUN_BYTES = 3;
/** A literal record holds at most 127 bytes; a run record stores length - 1, so runs reach 128. */
const MAX_RECORD_BYTES = 127;

export function decompressRle(src: Uint8Array, _block: BlockLayout, expectedBytes: number): Uint8Array {
  const coded = new Uint8Array(expectedBytes);
  const srcBytes = src.length;
  let inPos = 0;
  let outPos = 0;
  while (inPos < srcBytes) {
    const count = src[inPos]!;
    if (count >= 128) {
      const literalBytes = 256 - count;
      const start = inPos + 1;
      if (start + literalBytes > srcBytes) throw invalid('RLE literal run extends past the end of the chunk');
      if (outPos + literalBytes > expectedBytes) throw invalid('RLE data decompresses to more bytes than the chunk holds');
      coded.set(src.subarray(start, start + literalBytes), outPos);
      inPos = start + literalBytes;
      outPos += literalBytes;
    } else {
      const runBytes = count + 1;
      if (inPos + 1 >= srcBytes) throw invalid('RLE run is missing its value byte');
      if (outPos + runBytes > expectedBytes) throw invalid('RLE data decompresses to more bytes than the chunk holds');
      coded.fill(src[inPos + 1]!, outPos, outPos + runBytes);
      inPos += 2;
      outPos += runBytes;
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
