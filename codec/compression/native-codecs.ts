// The native kernels (native.ts) behind the codec shapes of compression/index.ts: layouts in, the codec's typed errors out.

import { invalid } from '../core/errors.js';
import type { BlockLayout, Compression } from '../core/types.js';
import { b44LogTable } from './b44-log-table.js';
import { nativeKernels, type NativeKernels } from './native.js';
import { nativeLayout } from './native-layout.js';
import { checkedPlanarLayout, planarScratch, type PizPlanes } from './piz.js';

/** Decompresses one chunk into `dst`, whose length is the chunk's uncompressed size. */
export type DecompressorInto = (src: Uint8Array, block: BlockLayout, dst: Uint8Array) => void;

export interface NativeCodecs {
  into: Partial<Record<Compression, DecompressorInto>>;
  pizPlanes: (src: Uint8Array, block: BlockLayout, expectedBytes: number) => PizPlanes;
  /** zlib inflation of exactly expectedBytes, as zip.ts's inflateExact. */
  inflateExact: (src: Uint8Array, expectedBytes: number, what: string) => Uint8Array;
  /** A whole Huffman block into `out`, as huffman.ts's huffmanDecodeInto (DWA's AC values). */
  huffmanDecodeInto: (src: Uint8Array, out: Uint16Array) => void;
  /** DWA: one RLE channel's byte planes (from `start` in `data`) into its rows of `out`, as dwa.ts's copyRlePlane. */
  dwaRlePlane: (data: Uint8Array, start: number, plane: RlePlane, out: Uint8Array) => void;
  /** DWA's RLE section: exactly out.length bytes, as dwa.ts's rleDecode. */
  dwaRleBytesInto: (src: Uint8Array, out: Uint8Array) => void;
  /** DWA's DC section: zlib, then the predictor and reorder, exactly out.length bytes (ZIP's kernel). */
  dwaDcInto: (src: Uint8Array, out: Uint8Array) => void;
}

/** An RLE channel's place in a DWA chunk: its size in samples and each row's byte offset. */
export interface RlePlane {
  widthSamples: number;
  heightSamples: number;
  bytesPerSample: number;
  rowOffsets: Int32Array;
}

/**
 * Runs a kernel call, turning the addon's damage reports into the codec's `invalid` errors (named
 * `what` when given); anything else, a bug, passes as it is.
 */
function guarded<T>(call: () => T, what?: string): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'ERR_EXR_INVALID')
      throw invalid(what ? `${what} ${error.message}` : error.message);
    throw error;
  }
}

export function nativeCodecs(kernels: NativeKernels): NativeCodecs {
  const zip: DecompressorInto = (src, _block, dst) => guarded(() => kernels.zipInto(src, dst));
  // pLinear half channels need B44's log table: built in TypeScript on first use (the C side has no copy of it).
  const b44: DecompressorInto = (src, block, dst) => {
    const logTable = block.channels.some((c) => c.pixelType === 'half' && c.pLinear) ? b44LogTable() : null;
    guarded(() => kernels.b44Into(src, nativeLayout(block), dst, logTable));
  };
  const into: NativeCodecs['into'] = {
    zip,
    zips: zip,
    rle: (src, _block, dst) => guarded(() => kernels.rleInto(src, dst)),
    piz: (src, block, dst) => guarded(() => kernels.pizInto(src, nativeLayout(block), dst)),
    pxr24: (src, block, dst) => guarded(() => kernels.pxr24Into(src, nativeLayout(block), dst)),
    b44,
    b44a: b44,
  };

  /** The LUT pizPlanes fills: owned by this thread, zero past its used entries (the kernel keeps it so). */
  const lut = new Uint16Array(65536);
  const pizPlanes = (src: Uint8Array, block: BlockLayout, expectedBytes: number): PizPlanes => {
    const { planes, totalWords } = checkedPlanarLayout(block, expectedBytes);
    const words = planarScratch(totalWords);
    const maxCode = guarded(() => kernels.pizPlanes(src, nativeLayout(block), words, lut));
    // the LUT is increasing from 0: the identity exactly when its last used entry maps to itself
    return { words, planes, lut: lut[maxCode] !== maxCode ? lut : null, maxCode };
  };

  const inflateExact = (src: Uint8Array, expectedBytes: number, what: string): Uint8Array => {
    const out = new Uint8Array(expectedBytes);
    const written = guarded(() => kernels.inflate(src, out), what);
    if (written !== expectedBytes) throw invalid(`${what} data inflates to ${written} bytes, expected ${expectedBytes}`);
    return out;
  };

  const huffmanDecodeInto = (src: Uint8Array, out: Uint16Array): void => guarded(() => kernels.huffmanInto(src, out));

  const dwaRlePlane = (data: Uint8Array, start: number, plane: RlePlane, out: Uint8Array): void =>
    guarded(() =>
      kernels.dwaRlePlane(data, start, plane.widthSamples, plane.heightSamples, plane.bytesPerSample === 4 ? 1 : 0, plane.rowOffsets, out),
    );

  const dwaRleBytesInto = (src: Uint8Array, out: Uint8Array): void => guarded(() => kernels.rleBytesInto(src, out));
  const dwaDcInto = (src: Uint8Array, out: Uint8Array): void => guarded(() => kernels.dwaDcInto(src, out));

  return { into, pizPlanes, inflateExact, huffmanDecodeInto, dwaRlePlane, dwaRleBytesInto, dwaDcInto };
}

/** The native codecs of this thread, made once, or null where the addon is off. */
export const nativeCodecsInUse: NativeCodecs | null = nativeKernels ? nativeCodecs(nativeKernels) : null;
