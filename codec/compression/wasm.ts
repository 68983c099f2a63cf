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

/** native/wasm's exports: addresses and byte counts in, bytes written (inflate, zip), the largest code (piz_planes) or
 * 0 out; a failure negated. */
interface WasmExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(pointer: number): void;
  error_text(): number;
  inflate(src: number, srcBytes: number, dst: number, dstBytes: number): number;
  zip(src: number, srcBytes: number, scratch: number, dst: number, dstBytes: number): number;
  huffman(src: number, srcBytes: number, out: number, outCount: number): number;
  piz(src: number, srcBytes: number, layout: number, layoutWords: number, dst: number, dstBytes: number): number;
  piz_planes(src: number, srcBytes: number, layout: number, layoutWords: number, words: number, lut: number): number;
  rle(src: number, srcBytes: number, dst: number, dstBytes: number): number;
  pxr24(src: number, srcBytes: number, layout: number, layoutWords: number, dst: number, dstBytes: number): number;
  b44(src: number, srcBytes: number, layout: number, layoutWords: number, logTable: number, dst: number, dstBytes: number): number;
}

/** PIZ's reverse LUT: 65536 entries. */
const LUT_ENTRIES = 65536;

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
  private readonly layout: Region;
  /** B44's pLinear table, copied in on first use; PIZ's planes' LUT, zero past its used entries (lutUsed: the last call's). */
  private logTableAt = 0;
  private lutAt = 0;
  private lutUsed = 0;

  constructor(private readonly exports: WasmExports) {
    this.src = new Region(exports);
    this.scratch = new Region(exports);
    this.dst = new Region(exports);
    this.layout = new Region(exports);
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

  /** PIZ: the whole chunk into dst, laid out as `layout` (native-layout.ts); false as inflate's null. */
  pizInto(src: Uint8Array, layout: Int32Array, dst: Uint8Array): boolean {
    const srcAt = this.copyIn(src);
    const layoutAt = this.copyLayout(layout);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !layoutAt || !dstAt) return false;
    if (this.check(this.exports.piz(srcAt, src.length, layoutAt, layout.length, dstAt, dst.length)) === null) return false;
    dst.set(this.view(dstAt, dst.length));
    return true;
  }

  /** PIZ up to the channel planes: fills words and lut (zero past the used entries, kept so from call to call); the
   * largest code in use, or null as inflate's. */
  pizPlanes(src: Uint8Array, layout: Int32Array, words: Uint16Array, lut: Uint16Array): number | null {
    const srcAt = this.copyIn(src);
    const layoutAt = this.copyLayout(layout);
    const wordsAt = this.dst.reserve(words.byteLength);
    if (!this.lutAt) {
      // the kernel keeps it zero past its used entries from then on
      this.lutAt = this.exports.alloc(2 * LUT_ENTRIES) >>> 0;
      if (this.lutAt) new Uint16Array(this.exports.memory.buffer, this.lutAt, LUT_ENTRIES).fill(0);
    }
    if (!srcAt || !layoutAt || !wordsAt || !this.lutAt) return null;
    const maxCode = this.check(this.exports.piz_planes(srcAt, src.length, layoutAt, layout.length, wordsAt, this.lutAt));
    if (maxCode === null) return null;
    words.set(new Uint16Array(this.exports.memory.buffer, wordsAt, words.length));
    // the entries the last call used too: the module's LUT is zero past this call's, and so the caller's becomes
    const used = maxCode + 1;
    lut.set(new Uint16Array(this.exports.memory.buffer, this.lutAt, Math.max(used, this.lutUsed)));
    this.lutUsed = used;
    return maxCode;
  }

  /** RLE: exactly dst.length bytes, then the predictor undone, into dst; false as inflate's null. */
  rleInto(src: Uint8Array, dst: Uint8Array): boolean {
    const srcAt = this.copyIn(src);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !dstAt) return false;
    if (this.check(this.exports.rle(srcAt, src.length, dstAt, dst.length)) === null) return false;
    dst.set(this.view(dstAt, dst.length));
    return true;
  }

  /** PXR24: the whole chunk into dst, laid out as `layout` (native-layout.ts); false as inflate's null. */
  pxr24Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array): boolean {
    const srcAt = this.copyIn(src);
    const layoutAt = this.copyLayout(layout);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !layoutAt || !dstAt) return false;
    if (this.check(this.exports.pxr24(srcAt, src.length, layoutAt, layout.length, dstAt, dst.length)) === null) return false;
    dst.set(this.view(dstAt, dst.length));
    return true;
  }

  /** B44/B44A; logTable (b44-log-table.ts) is needed when a half channel is pLinear; false as inflate's null. */
  b44Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array, logTable: Uint16Array | null): boolean {
    if (logTable && !this.logTableAt) {
      this.logTableAt = this.exports.alloc(logTable.byteLength) >>> 0;
      if (this.logTableAt) new Uint16Array(this.exports.memory.buffer, this.logTableAt, logTable.length).set(logTable);
    }
    const srcAt = this.copyIn(src);
    const layoutAt = this.copyLayout(layout);
    const dstAt = this.dst.reserve(dst.length);
    if (!srcAt || !layoutAt || !dstAt || (logTable && !this.logTableAt)) return false;
    const tableAt = logTable ? this.logTableAt : 0;
    if (this.check(this.exports.b44(srcAt, src.length, layoutAt, layout.length, tableAt, dstAt, dst.length)) === null) return false;
    dst.set(this.view(dstAt, dst.length));
    return true;
  }

  /** A whole Huffman block into exactly out.length values (DWA's AC values); false as inflate's null. */
  huffmanInto(src: Uint8Array, out: Uint16Array): boolean {
    const srcAt = this.copyIn(src);
    const outAt = this.dst.reserve(out.byteLength);
    if (!srcAt || !outAt) return false;
    if (this.check(this.exports.huffman(srcAt, src.length, outAt, out.length)) === null) return false;
    out.set(new Uint16Array(this.exports.memory.buffer, outAt, out.length));
    return true;
  }

  private copyLayout(layout: Int32Array): number {
    const at = this.layout.reserve(layout.byteLength);
    if (at) new Int32Array(this.exports.memory.buffer, at, layout.length).set(layout);
    return at;
  }

  /** A kernel's result, or its failure thrown (damage as the codec's `invalid`, in the kernel's words); null where the
   * module's memory could not grow for the kernel's own buffers (the caller falls back to the TypeScript codec). */
  private check(result: number): number | null {
    if (result >= 0) return result;
    if (result === CORRUPT) throw invalid(this.errorText());
    if (result === NO_MEMORY) return null;
    throw new Error(`the WebAssembly kernels returned an unknown failure ${result}`);
  }

  private errorText(): string {
    const at = this.exports.error_text();
    const bytes = new Uint8Array(this.exports.memory.buffer, at, 256);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
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
