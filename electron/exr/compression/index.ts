// The single compression dispatch: picks the codec, checks the decompressed length, wraps failures.

import { ExrError, asExrError, invalid, unsupported } from '../errors.js';
import type { BlockLayout, Compression } from '../types.js';
import { decompressB44 } from './b44.js';
import { decompressDwa } from './dwa.js';
import { decompressHtj2k } from './htj2k.js';
import { compressPiz, decompressPiz, decompressPizPlanes, type PizPlanes } from './piz.js';
import { compressPxr24, decompressPxr24 } from './pxr24.js';
import { compressRle, decompressRle } from './rle.js';
import { compressZip, decompressZip } from './zip.js';

export type Decompressor = (src: Uint8Array, block: BlockLayout, expectedBytes: number) => Uint8Array;
export type Compressor = (raw: Uint8Array, block: BlockLayout) => Uint8Array;

interface Codec {
  decompress: Decompressor;
  compress?: Compressor;
}

/** One entry per compression module in this folder. */
const CODECS: Partial<Record<Compression, Codec>> = {
  piz: { decompress: decompressPiz, compress: compressPiz },
  rle: { decompress: decompressRle, compress: compressRle },
  zips: { decompress: decompressZip, compress: compressZip },
  zip: { decompress: decompressZip, compress: compressZip },
  pxr24: { decompress: decompressPxr24, compress: compressPxr24 },
  b44: { decompress: decompressB44 },
  b44a: { decompress: decompressB44 },
  dwaa: { decompress: decompressDwa },
  dwab: { decompress: decompressDwa },
  htj2k256: { decompress: decompressHtj2k },
  htj2k32: { decompress: decompressHtj2k },
};

/** The largest uncompressed chunk decompressed (2 GiB; real chunks are at most 32 scanlines or one tile, a few MB). */
export const MAX_CHUNK_BYTES = 2 ** 31;

/**
 * Decompresses one chunk into the uncompressed layout described in BlockLayout.
 * A chunk whose stored size is not smaller than its uncompressed size is stored raw (the
 * OpenEXR rule), whatever the part's compression.
 */
export function decompress(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  if (compression === 'none' || src.length >= expectedBytes) {
    if (src.length !== expectedBytes) {
      throw invalid(`uncompressed chunk holds ${src.length} bytes, expected ${expectedBytes}`);
    }
    return src;
  }
  const codec = CODECS[compression]?.decompress;
  if (!codec) throw unsupported(`${compression.toUpperCase()} compression is not supported`);
  if (expectedBytes > MAX_CHUNK_BYTES) {
    // a header within the pixel limit can still claim one chunk of gigabytes (a 2^30-pixel-wide line): refuse before any buffer is sized by it
    throw unsupported(`a chunk of ${expectedBytes} bytes uncompressed is larger than the ${MAX_CHUNK_BYTES} bytes decoded at once`);
  }
  const out = run(() => codec(src, block, expectedBytes));
  if (out.length !== expectedBytes) {
    throw invalid(`${compression.toUpperCase()} chunk decompressed to ${out.length} bytes, expected ${expectedBytes}`);
  }
  return out;
}

/**
 * A decompressed chunk for readers that sum its samples rather than keep them: PIZ chunks as their
 * channel planes before PIZ's LUT and reordering passes (see PizPlanes), every other chunk in the
 * uncompressed layout of BlockLayout.
 */
export type ChunkSamples = { layout: 'lines'; bytes: Uint8Array } | ({ layout: 'planes' } & PizPlanes);

/** decompress(), except that PIZ chunks stop at their channel planes. */
export function decompressSamples(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): ChunkSamples {
  if (compression !== 'piz' || src.length >= expectedBytes || expectedBytes > MAX_CHUNK_BYTES) {
    return { layout: 'lines', bytes: decompress(compression, src, block, expectedBytes) };
  }
  // decompressPizPlanes checks the planes add up to expectedBytes
  return { layout: 'planes', ...run(() => decompressPizPlanes(src, block, expectedBytes)) };
}

/** Runs a codec, turning whatever it throws into an ExrError. */
function run<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof ExrError) throw error;
    throw asExrError(error);
  }
}

/** Compresses one chunk; returns the raw bytes when compression would not make it smaller. */
export function compress(compression: Compression, raw: Uint8Array, block: BlockLayout): Uint8Array {
  if (compression === 'none') return raw;
  const codec = CODECS[compression]?.compress;
  if (!codec) throw unsupported(`writing ${compression.toUpperCase()} compression is not supported`);
  const packed = codec(raw, block);
  return packed.length < raw.length ? packed : raw;
}

export function canWrite(compression: Compression): boolean {
  return compression === 'none' || CODECS[compression]?.compress !== undefined;
}
