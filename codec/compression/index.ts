// The single compression dispatch: picks the codec (native kernel or TypeScript, once), checks the decompressed length, wraps failures.

import { ExrError, asExrError, invalid, unsupported } from '../core/errors.js';
import type { BlockLayout, Compression } from '../core/types.js';
import { decompressB44 } from './b44.js';
import { decompressDwa, decompressDwaInto } from './dwa.js';
import { nativeCodecsInUse, type DecompressorInto } from './native-codecs.js';
import { decompressHtj2k } from './htj2k.js';
import { compressPiz, decompressPiz, decompressPizPlanes, type PizPlanes } from './piz.js';
import { compressPxr24, decompressPxr24 } from './pxr24.js';
import { compressRle, decompressRle } from './rle.js';
import { tierKernel, type KernelTier } from './tiers.js';
import { wasmCodecsInUse } from './wasm-codecs.js';
import { compressZip, decompressZip } from './zip.js';

export type Decompressor = (src: Uint8Array, block: BlockLayout, expectedBytes: number) => Uint8Array;
export type Compressor = (raw: Uint8Array, block: BlockLayout) => Uint8Array;
export type { DecompressorInto };

interface Codec {
  decompress: Decompressor;
  /** Writes the chunk straight into a given view (native and WebAssembly kernels, DWA); without it, decompressInto copies
   * decompress()'s result. */
  decompressInto?: DecompressorInto;
  compress?: Compressor;
  /** Whose kernel decompresses (decompressInto is the kernel's own where not TypeScript). */
  tier?: KernelTier;
}

/** One entry per compression module in this folder: the TypeScript codecs, the fallback and test oracle of the native kernels. */
const TS_CODECS: Partial<Record<Compression, Codec>> = {
  piz: { decompress: decompressPiz, compress: compressPiz },
  rle: { decompress: decompressRle, compress: compressRle },
  zips: { decompress: decompressZip, compress: compressZip },
  zip: { decompress: decompressZip, compress: compressZip },
  pxr24: { decompress: decompressPxr24, compress: compressPxr24 },
  b44: { decompress: decompressB44 },
  b44a: { decompress: decompressB44 },
  dwaa: { decompress: decompressDwa, decompressInto: decompressDwaInto },
  dwab: { decompress: decompressDwa, decompressInto: decompressDwaInto },
  htj2k256: { decompress: decompressHtj2k },
  htj2k32: { decompress: decompressHtj2k },
};

const NATIVE = nativeCodecsInUse;

/**
 * Every codec in one shape, the same properties in the same order: the chunk loop's lookups on them then see one map
 * whatever the compression. Spread from entries of different shapes, a compression a worker had not decoded before (B44A:
 * the warm-up has no B44 file) deoptimised decompressTransient in every worker (V8's --trace-deopt: "wrong map").
 */
function codecEntry(codec: Codec): Codec {
  return { decompress: codec.decompress, decompressInto: codec.decompressInto, compress: codec.compress, tier: codec.tier ?? 'typescript' };
}

/** The codecs in use, picked once per thread (tiers.ts): a native kernel where the addon loaded and has one, else a
 * WebAssembly kernel where the module loaded and has one, else the TypeScript codec. */
const CODECS: Partial<Record<Compression, Codec>> = Object.fromEntries(
  Object.entries(TS_CODECS).map(([compression, codec]) => {
    const kernel = tierKernel(compression as Compression);
    if (!kernel) return [compression, codecEntry(codec)];
    const into = kernel.into;
    const decompress: Decompressor = (src, block, expectedBytes) => {
      const out = new Uint8Array(expectedBytes);
      into(src, block, out);
      return out;
    };
    return [compression, codecEntry({ ...codec, decompress, decompressInto: into, tier: kernel.tier })];
  }),
);

const decompressPlanes = NATIVE?.pizPlanes ?? wasmCodecsInUse?.pizPlanes ?? decompressPizPlanes;

/** The largest uncompressed chunk decompressed (2 GiB; real chunks are at most 32 scanlines or one tile, a few MB). */
export const MAX_CHUNK_BYTES = 2 ** 31;

/**
 * Decompresses one chunk into the uncompressed layout described in BlockLayout.
 * A chunk whose stored size is not smaller than its uncompressed size is stored raw (the
 * OpenEXR rule), whatever the part's compression.
 */
export function decompress(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const codec = codecFor(compression, src, expectedBytes);
  if (!codec) return src;
  return checkedLength(
    compression,
    run(() => codec.decompress(src, block, expectedBytes)),
    expectedBytes,
  );
}

/**
 * decompress() into a view the caller gives (a SharedArrayBuffer's, for instance), whose length is
 * the chunk's uncompressed size (uncompressedBytes(block)). Native kernels write into it directly;
 * the TypeScript codecs decompress, then copy.
 */
export function decompressInto(compression: Compression, src: Uint8Array, block: BlockLayout, dst: Uint8Array): void {
  const codec = codecFor(compression, src, dst.length);
  if (!codec) {
    dst.set(src);
    return;
  }
  const into = codec.decompressInto;
  if (into) run(() => into(src, block, dst));
  else
    dst.set(
      checkedLength(
        compression,
        run(() => codec.decompress(src, block, dst.length)),
        dst.length,
      ),
    );
}

/** Chunks up to this size decompressed by decompressTransient reuse one buffer (a 4K chunk of 32 lines is about 1 MB). */
const TRANSIENT_KEEP_BYTES = 16 << 20;
let transientBuffer = new Uint8Array(0);

/** Grows this thread's transient chunk buffer to `byteLength` (at most the size kept) and touches it (see reserveTransientReads). */
export function reserveTransientChunks(byteLength: number): void {
  const wanted = Math.min(TRANSIENT_KEEP_BYTES, byteLength);
  if (transientBuffer.length >= wanted) return;
  transientBuffer = new Uint8Array(wanted);
  transientBuffer.fill(0);
}

/**
 * decompress() for callers that are done with the bytes before their next call (the reader copies
 * them into planes): codecs that write into a given view (native kernels, DWA) write into one buffer of this thread, reused, which saves
 * zero-filling and faulting in a fresh one per chunk. The result is valid until the next call.
 */
export function decompressTransient(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const codec = codecFor(compression, src, expectedBytes);
  if (!codec) return src;
  const into = codec.decompressInto;
  if (!into || expectedBytes > TRANSIENT_KEEP_BYTES)
    return checkedLength(
      compression,
      run(() => codec.decompress(src, block, expectedBytes)),
      expectedBytes,
    );
  if (transientBuffer.length < expectedBytes) transientBuffer = new Uint8Array(expectedBytes);
  const out = transientBuffer.subarray(0, expectedBytes);
  run(() => into(src, block, out));
  return out;
}

/**
 * The codec of a chunk, or null when the chunk is stored raw: a chunk whose stored size is not
 * smaller than its uncompressed size is stored as is (the OpenEXR rule), whatever the compression.
 */
function codecFor(compression: Compression, src: Uint8Array, expectedBytes: number): Codec | null {
  if (compression === 'none' || src.length >= expectedBytes) {
    if (src.length !== expectedBytes) {
      throw invalid(`uncompressed chunk holds ${src.length} bytes, expected ${expectedBytes}`);
    }
    return null;
  }
  const codec = CODECS[compression];
  if (!codec) throw unsupported(`${compression.toUpperCase()} compression is not supported`);
  if (expectedBytes > MAX_CHUNK_BYTES) {
    // a header within the pixel limit can still claim one chunk of gigabytes (a 2^30-pixel-wide line): refuse before any buffer is sized by it
    throw unsupported(`a chunk of ${expectedBytes} bytes uncompressed is larger than the ${MAX_CHUNK_BYTES} bytes decoded at once`);
  }
  return codec;
}

function checkedLength(compression: Compression, out: Uint8Array, expectedBytes: number): Uint8Array {
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

/** decompressTransient(), except that PIZ chunks stop at their channel planes; valid until the next call. */
export function decompressSamples(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): ChunkSamples {
  if (compression !== 'piz' || src.length >= expectedBytes || expectedBytes > MAX_CHUNK_BYTES) {
    return { layout: 'lines', bytes: decompressTransient(compression, src, block, expectedBytes) };
  }
  // decompressPizPlanes checks the planes add up to expectedBytes
  return { layout: 'planes', ...run(() => decompressPlanes(src, block, expectedBytes)) };
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

/** Whether chunks of this compression go through a native kernel in this thread (see native.ts for why not). */
export function usesNativeKernel(compression: Compression): boolean {
  return CODECS[compression]?.tier === 'native';
}
