// The WebAssembly kernels (wasm.ts) behind the codec shapes of compression/index.ts; a chunk too large for the module's
// memory goes through the TypeScript codec instead (the same bytes come out).

import type { BlockLayout, Compression } from '../core/types.js';
import { decompressB44 } from './b44.js';
import { b44LogTable } from './b44-log-table.js';
import { huffmanDecodeInto as huffmanDecodeIntoTs } from './huffman.js';
import { wasmInflateExact } from './inflate-tier.js';
import type { DecompressorInto } from './native-codecs.js';
import { nativeLayout } from './native-layout.js';
import { checkedPlanarLayout, decompressPiz, decompressPizPlanes, planarScratch, type PizPlanes } from './piz.js';
import { decompressPxr24 } from './pxr24.js';
import { decompressRle } from './rle.js';
import { wasmKernels, type WasmKernels } from './wasm.js';
import { decompressZip } from './zip.js';

export interface WasmCodecs {
  into: Partial<Record<Compression, DecompressorInto>>;
  /** PIZ up to the channel planes, as piz.ts's decompressPizPlanes. */
  pizPlanes: (src: Uint8Array, block: BlockLayout, expectedBytes: number) => PizPlanes;
  /** zlib inflation of exactly expectedBytes, as zip.ts's inflateExact. */
  inflateExact: (src: Uint8Array, expectedBytes: number, what: string) => Uint8Array;
  /** A whole Huffman block into `out`, as huffman.ts's huffmanDecodeInto (DWA's AC values). */
  huffmanDecodeInto: (src: Uint8Array, out: Uint16Array) => void;
}

export function wasmCodecs(kernels: WasmKernels): WasmCodecs {
  const zip: DecompressorInto = (src, block, dst) => {
    if (!kernels.zipInto(src, dst)) dst.set(decompressZip(src, block, dst.length));
  };
  const rle: DecompressorInto = (src, block, dst) => {
    if (!kernels.rleInto(src, dst)) dst.set(decompressRle(src, block, dst.length));
  };
  const piz: DecompressorInto = (src, block, dst) => {
    if (!kernels.pizInto(src, nativeLayout(block), dst)) dst.set(decompressPiz(src, block, dst.length));
  };
  const pxr24: DecompressorInto = (src, block, dst) => {
    if (!kernels.pxr24Into(src, nativeLayout(block), dst)) dst.set(decompressPxr24(src, block, dst.length));
  };
  // pLinear half channels need B44's log table: built in TypeScript on first use, copied into the module once
  const b44: DecompressorInto = (src, block, dst) => {
    const logTable = block.channels.some((c) => c.pixelType === 'half' && c.pLinear) ? b44LogTable() : null;
    if (!kernels.b44Into(src, nativeLayout(block), dst, logTable)) dst.set(decompressB44(src, block, dst.length));
  };

  /** The LUT pizPlanes fills: owned by this thread, zero past its used entries (the kernel keeps it so). */
  const lut = new Uint16Array(65536);
  const pizPlanes = (src: Uint8Array, block: BlockLayout, expectedBytes: number): PizPlanes => {
    const { planes, totalWords } = checkedPlanarLayout(block, expectedBytes);
    const words = planarScratch(totalWords);
    const maxCode = kernels.pizPlanes(src, nativeLayout(block), words, lut);
    if (maxCode === null) return decompressPizPlanes(src, block, expectedBytes);
    // the LUT is increasing from 0: the identity exactly when its last used entry maps to itself
    return { words, planes, lut: lut[maxCode] !== maxCode ? lut : null, maxCode };
  };

  const inflateExact = wasmInflateExact(kernels);
  const huffmanDecodeInto = (src: Uint8Array, out: Uint16Array): void => {
    if (!kernels.huffmanInto(src, out)) huffmanDecodeIntoTs(src, out);
  };
  return { into: { zip, zips: zip, rle, piz, pxr24, b44, b44a: b44 }, pizPlanes, inflateExact, huffmanDecodeInto };
}

/** The WebAssembly codecs of this thread, made once, or null where the module is not loaded. */
export const wasmCodecsInUse: WasmCodecs | null = wasmKernels ? wasmCodecs(wasmKernels) : null;
