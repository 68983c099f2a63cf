// The WebAssembly kernels (wasm.ts) behind the codec shapes of compression/index.ts; a chunk too large for the module's
// memory goes through the TypeScript codec instead (the same bytes come out).

import { invalid } from '../core/errors.js';
import type { Compression } from '../core/types.js';
import type { DecompressorInto } from './native-codecs.js';
import { wasmKernels, type WasmKernels } from './wasm.js';
import { decompressZip, inflateExact as inflateExactZlib } from './zip.js';

export interface WasmCodecs {
  into: Partial<Record<Compression, DecompressorInto>>;
  /** zlib inflation of exactly expectedBytes, as zip.ts's inflateExact. */
  inflateExact: (src: Uint8Array, expectedBytes: number, what: string) => Uint8Array;
}

export function wasmCodecs(kernels: WasmKernels): WasmCodecs {
  const zip: DecompressorInto = (src, block, dst) => {
    if (!kernels.zipInto(src, dst)) dst.set(decompressZip(src, block, dst.length));
  };
  const inflateExact = (src: Uint8Array, expectedBytes: number, what: string): Uint8Array => {
    const out = new Uint8Array(expectedBytes);
    const written = kernels.inflate(src, out, what);
    if (written === null) return inflateExactZlib(src, expectedBytes, what);
    if (written !== expectedBytes) throw invalid(`${what} data inflates to ${written} bytes, expected ${expectedBytes}`);
    return out;
  };
  return { into: { zip, zips: zip }, inflateExact };
}

/** The WebAssembly codecs of this thread, made once, or null where the module is not loaded. */
export const wasmCodecsInUse: WasmCodecs | null = wasmKernels ? wasmCodecs(wasmKernels) : null;
