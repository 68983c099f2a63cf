// zlib inflation of exactly expectedBytes in the highest tier loaded (native, WebAssembly, node:zlib), for the codecs
// that inflate in TypeScript (PXR24's fallback, DWA's sections); apart from tiers.ts, which imports those codecs.

import { invalid } from '../core/errors.js';
import { nativeCodecsInUse } from './native-codecs.js';
import { wasmKernels, type WasmKernels } from './wasm.js';
import { inflateExact as inflateExactZlib } from './zip.js';

export type InflateExact = (src: Uint8Array, expectedBytes: number, what: string) => Uint8Array;

/** zip.ts's inflateExact by the WebAssembly kernels; node:zlib where the module's memory cannot hold the buffers. */
export function wasmInflateExact(kernels: WasmKernels): InflateExact {
  return (src, expectedBytes, what) => {
    const out = new Uint8Array(expectedBytes);
    const written = kernels.inflate(src, out, what);
    if (written === null) return inflateExactZlib(src, expectedBytes, what);
    if (written !== expectedBytes) throw invalid(`${what} data inflates to ${written} bytes, expected ${expectedBytes}`);
    return out;
  };
}

export const inflateExact: InflateExact =
  nativeCodecsInUse?.inflateExact ?? (wasmKernels ? wasmInflateExact(wasmKernels) : inflateExactZlib);
export const inflateTier: 'native' | 'wasm' | 'typescript' = nativeCodecsInUse ? 'native' : wasmKernels ? 'wasm' : 'typescript';
