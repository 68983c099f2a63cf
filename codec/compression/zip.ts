// ZIPS and ZIP compression: zlib over the reordered, delta-predicted chunk (they differ only in
// lines per chunk, 1 and 16, which the chunk layout already accounts for).

import zlib from 'node:zlib';
import { invalid } from '../core/errors.js';
import type { BlockLayout } from '../core/types.js';
import { interleaveAndPredict, unpredictAndInterleave } from './predictor.js';

/** zlib's smallest accepted output chunk. */
const ZLIB_MIN_CHUNK_BYTES = 64;
/** OpenEXR's default deflate level: most of level 9's ratio at a fraction of its time. */
const DEFLATE_LEVEL = 4;

/**
 * Inflates a zlib stream that must hold exactly expectedBytes. The output bound keeps hostile
 * input from allocating more; one output chunk of that size saves zlib from concatenating pieces.
 */
export function inflateExact(src: Uint8Array, expectedBytes: number, what: string): Uint8Array {
  let inflated: Buffer;
  try {
    inflated = zlib.inflateSync(src, {
      maxOutputLength: Math.max(1, expectedBytes),
      chunkSize: Math.max(ZLIB_MIN_CHUNK_BYTES, expectedBytes),
    });
  } catch (error) {
    // typed here, as the native and WebAssembly inflates fail, so every tier refuses a bad stream alike
    throw invalid(`${what} data is not a valid zlib stream (${error instanceof Error ? error.message : String(error)})`);
  }
  if (inflated.length !== expectedBytes) {
    throw invalid(`${what} data inflates to ${inflated.length} bytes, expected ${expectedBytes}`);
  }
  // A plain Uint8Array over the same memory: Buffer's slice() shares memory where Uint8Array's copies.
  return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length);
}

export function decompressZip(src: Uint8Array, _block: BlockLayout, expectedBytes: number): Uint8Array {
  return unpredictAndInterleave(inflateExact(src, expectedBytes, 'ZIP'));
}

export function compressZip(raw: Uint8Array, _block: BlockLayout): Uint8Array {
  return zlib.deflateSync(interleaveAndPredict(raw), { level: DEFLATE_LEVEL });
}
