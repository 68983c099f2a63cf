// OpenJPH, the HTJ2K library OpenEXR itself uses, as WebAssembly (@cornerstonejs/codec-openjph):
// the fast path for codestreams of 16-bit components of one size, loaded on the first HTJ2K chunk.
//
// The package's decoder hands back at most 16 bits per sample, clamped, and one size for every
// component, so 32-bit (float, uint) and subsampled channels go to j2k.ts instead.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
  isUsingColorTransform: boolean;
}

interface OpenjphDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  getDecodedBuffer(): Uint8Array;
  decode(): void;
  getFrameInfo(): FrameInfo;
}

interface OpenjphModule {
  HTJ2KDecoder: new () => OpenjphDecoder;
}

/** Decoded 16-bit samples: component c's sample (x, y) is samples[indexOf(c, x, y)]. */
export interface OpenjphPlanes {
  samples: Int16Array;
  indexOf: (component: number, y: number) => number;
  /** Distance between the samples of one component line. */
  step: number;
}

let decoder: OpenjphDecoder | null = null;
let loadError: string | null = null;
let enabled = true;

/** Turns the WebAssembly path off (or back on): tests compare it with the TypeScript one. */
export function useOpenjph(on: boolean): void {
  enabled = on;
}

/** Resolves the package from this module; a bundle written outside the project (a test's worker) from the working directory. */
function resolver(): NodeRequire {
  const here = createRequire(import.meta.url);
  try {
    here.resolve('@cornerstonejs/codec-openjph');
    return here;
  } catch {
    return createRequire(join(process.cwd(), 'package.json'));
  }
}

/** The decoder, instantiated synchronously on first use; null (with loadFailure() saying why) where it cannot load. */
function load(): OpenjphDecoder | null {
  if (decoder || loadError) return decoder;
  try {
    const require = resolver();
    const factory = require('@cornerstonejs/codec-openjph') as (module: object) => Promise<OpenjphModule>;
    const wasm = readFileSync(require.resolve('@cornerstonejs/codec-openjph/wasm'));
    const module: Partial<OpenjphModule> & { instantiateWasm: unknown; print: unknown; printErr: unknown } = {
      // instantiating here, synchronously, lets a decode that is already under way use the module
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), imports);
        done(instance);
        return instance.exports;
      },
      print: () => {},
      printErr: () => {},
    };
    void factory(module).catch(() => {});
    if (!module.HTJ2KDecoder) throw new Error('the module did not initialise synchronously');
    decoder = new module.HTJ2KDecoder();
  } catch (error) {
    loadError = `@cornerstonejs/codec-openjph could not be loaded (${(error as Error).message}); HTJ2K decodes in TypeScript`;
  }
  return decoder;
}

/** Why the WebAssembly decoder is not in use, or null when it is (or was not needed yet). */
export function openjphLoadFailure(): string | null {
  return loadError;
}

/**
 * Decodes a codestream of `components` 16-bit components of width x height samples; null when
 * the decoder is unavailable or fails (the caller then decodes in TypeScript and reports why).
 */
export function decodeWithOpenjph(codestream: Uint8Array, width: number, height: number, components: number): OpenjphPlanes | null {
  if (!enabled) return null;
  const d = load();
  if (!d) return null;
  let info: FrameInfo;
  let decoded: Uint8Array;
  try {
    d.getEncodedBuffer(codestream.length).set(codestream);
    d.decode();
    info = d.getFrameInfo();
    decoded = d.getDecodedBuffer();
  } catch {
    // a throw inside the module can leave it in any state: start a fresh one next time
    decoder = null;
    return null;
  }
  if (info.width !== width || info.height !== height || info.componentCount !== components || info.bitsPerSample !== 16) return null;
  if (decoded.length !== width * height * components * 2) return null;
  // copied out of the module's memory, which the next decode reuses
  const samples = new Int16Array(decoded.length >> 1);
  new Uint8Array(samples.buffer).set(decoded);
  const n = components;
  // The package pulls n lines per image row and stores them pixel-interleaved. With the colour
  // transform OpenJPH yields lines component by component per row; otherwise (planar) it yields
  // every line of component 0, then of component 1, and so on: line k of that sequence is
  // component floor(k / height), line k % height, and sits in row floor(k / n), slot k % n.
  const interleaved = n === 1 || info.isUsingColorTransform;
  const indexOf = interleaved
    ? (c: number, y: number) => y * width * n + c
    : (c: number, y: number) => {
        const k = c * height + y;
        return Math.floor(k / n) * width * n + (k % n);
      };
  return { samples, indexOf, step: n };
}
