// Loads the WebAssembly kernels (native/wasm, built into exr_kernels.wasm) once per thread where the native addon is off,
// or says why they are off; wraps their calls (copies in and out of the module's memory, failures as the codec's errors).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invalid } from '../core/errors.js';
import { nativeStatus } from './native.js';

export interface WasmStatus {
  on: boolean;
  /** Why the kernels are off, or where they were loaded from. */
  reason: string;
  path: string | null;
}

export const WASM_FILE = 'exr_kernels.wasm';

/** The failures native/wasm/kernels.c returns, negated. */
const CORRUPT = -1;
const TOO_LONG = -3;
const NO_MEMORY = -4;

interface WasmExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(pointer: number): void;
  inflate(src: number, srcBytes: number, dst: number, dstBytes: number): number;
  zip(src: number, srcBytes: number, scratch: number, dst: number, dstBytes: number): number;
}

/** One buffer in the module's memory, kept from call to call and grown when a chunk needs more. */
class Region {
  pointer = 0;
  capacity = 0;
  constructor(private readonly exports: WasmExports) {}

  /** The region's address with room for `bytes`, or 0 where the module's memory cannot grow that far. */
  reserve(bytes: number): number {
    if (bytes <= this.capacity) return this.pointer;
    this.exports.free(this.pointer);
    // a little headroom, so that chunks a few bytes larger than the last do not grow it again
    const capacity = Math.max(bytes, Math.ceil(this.capacity * 1.25));
    this.pointer = this.exports.alloc(capacity) >>> 0;
    this.capacity = this.pointer ? capacity : 0;
    return this.pointer;
  }
}

/** The kernels of one module instance; each call copies its input into the module's memory and its output back out. */
export class WasmKernels {
  private readonly src: Region;
  private readonly scratch: Region;
  private readonly dst: Region;

  constructor(private readonly exports: WasmExports) {
    this.src = new Region(exports);
    this.scratch = new Region(exports);
    this.dst = new Region(exports);
  }

  /** zlib (libdeflate): inflates into dst, returns the bytes written; throws when the data needs more than dst.length.
   * null: the module's memory could not hold the buffers (the caller falls back to the TypeScript codec). */
  inflate(src: Uint8Array, dst: Uint8Array, what = 'zlib'): number | null {
    const srcAt = this.copyIn(src);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !dstAt) return null;
    const written = this.exports.inflate(srcAt, src.length, dstAt, dst.length);
    if (written < 0) return this.failed(written, what, dst.length);
    dst.set(this.view(dstAt, written));
    return written;
  }

  /** ZIP/ZIPS: inflates exactly dst.length bytes, then undoes the predictor into dst; false as inflate's null. */
  zipInto(src: Uint8Array, dst: Uint8Array): boolean {
    const srcAt = this.copyIn(src);
    const scratchAt = this.scratch.reserve(dst.length);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !scratchAt || !dstAt) return false;
    const written = this.exports.zip(srcAt, src.length, scratchAt, dstAt, dst.length);
    if (written < 0) return this.failed(written, 'ZIP', dst.length);
    if (written !== dst.length) throw invalid(`ZIP data inflates to ${written} bytes, expected ${dst.length}`);
    dst.set(this.view(dstAt, dst.length));
    return true;
  }

  private copyIn(src: Uint8Array): number {
    const at = this.src.reserve(src.length);
    if (at) this.view(at, src.length).set(src);
    return at;
  }

  /** A fresh view each time: growing the memory detaches the views made before. */
  private view(at: number, bytes: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, at, bytes);
  }

  private failed(code: number, what: string, dstBytes: number): never {
    if (code === TOO_LONG) throw invalid(`${what} data inflates to more than ${dstBytes} bytes`);
    if (code === CORRUPT) throw invalid(`${what} data is not a valid zlib stream (corrupt or truncated)`);
    if (code === NO_MEMORY) throw new Error(`the WebAssembly kernels ran out of memory allocating a zlib decompressor`);
    throw new Error(`the WebAssembly kernels returned an unknown failure ${code}`);
  }
}

declare const __filename: string | undefined;

/** Where the module may be: beside the running bundle (dist/wasm/, copied there by the build) or in the repository (from source). */
export function wasmCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.EXRVIEW_WASM_FILE) return [env.EXRVIEW_WASM_FILE];
  const here = typeof __filename === 'string' ? dirname(__filename) : dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, 'wasm', WASM_FILE),
    join(here, '..', 'wasm', WASM_FILE),
    join(here, '..', '..', 'native', 'wasm', WASM_FILE),
  ];
  // packaged Electron apps keep unpacked files outside the asar archive
  return candidates.map((p) => p.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`));
}

/** Compiles and instantiates the module at `path` (synchronously: a worker has its kernels before its first chunk). */
export function instantiateWasmKernels(path: string): WasmKernels {
  const module = new WebAssembly.Module(readFileSync(path));
  const instance = new WebAssembly.Instance(module, {});
  return new WasmKernels(instance.exports as unknown as WasmExports);
}

/** Loads the WebAssembly kernels where the native ones are off, unless EXRVIEW_WASM=0; never throws. */
export function loadWasm(
  env: NodeJS.ProcessEnv = process.env,
  nativeOn = nativeStatus.on,
): { kernels: WasmKernels | null; status: WasmStatus } {
  const off = (reason: string, path: string | null = null) => ({ kernels: null, status: { on: false, reason, path } });
  if (nativeOn) return off('not needed: the native kernels run');
  if (env.EXRVIEW_WASM === '0') return off('turned off by EXRVIEW_WASM=0');
  const candidates = wasmCandidates(env);
  const path = candidates.find((p) => existsSync(p));
  if (!path) return off(`missing (no ${WASM_FILE} in ${candidates.map(dirname).join(', ')}): run \`npm run build\``);
  try {
    return { kernels: instantiateWasmKernels(path), status: { on: true, reason: `loaded from ${path}`, path } };
  } catch (error) {
    return off(`${path} did not load: ${error instanceof Error ? error.message : String(error)}`, path);
  }
}

const loaded = loadWasm();
/** The WebAssembly kernels of this thread, or null (native or TypeScript codecs). */
export const wasmKernels: WasmKernels | null = loaded.kernels;
export const wasmStatus: WasmStatus = loaded.status;
