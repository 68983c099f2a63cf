// The WebAssembly kernels against their TypeScript oracles, byte for byte (random chunks, corrupted ones, every length of
// the predictor), and the tier choice: native, else WebAssembly, else TypeScript, each switch saying why.

import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { asExrError, ExrError } from '../core/errors.js';
import type { BlockLayout } from '../core/types.js';
import { arbChunk, arbCorrupted, channel, lcg } from '../../testing/codec/test-layouts.js';
import { usesNativeKernel } from './index.js';
import { nativeStatus } from './native.js';
import { decodeTier, describeDecodeTier, kernelTierOf, kernelTierReport, describeKernelTiers } from './tiers.js';
import { wasmCodecs } from './wasm-codecs.js';
import { instantiateWasmKernels, loadWasm, WASM_FILE, wasmStatus } from './wasm.js';
import { compressZip, decompressZip, inflateExact } from './zip.js';

const committed = resolve(__dirname, '../../native/wasm', WASM_FILE);
const kernels = instantiateWasmKernels(committed);
const wasm = wasmCodecs(kernels);

type Outcome = { bytes: Uint8Array } | { error: string };

/** A decoder's bytes, or the kind of its error (every failure must be a typed ExrError, as the dispatch makes it). */
function outcome(decode: () => Uint8Array): Outcome {
  try {
    return { bytes: decode() };
  } catch (error) {
    const typed = error instanceof ExrError ? error : asExrError(error);
    const expected = error instanceof ExrError || error instanceof RangeError || (error as { code?: string }).code?.startsWith('Z_');
    return { error: expected ? typed.kind : `untyped: ${String(error)}` };
  }
}

function viaWasmZip(src: Uint8Array, block: BlockLayout, byteCount: number): Uint8Array {
  const out = new Uint8Array(byteCount);
  wasm.into.zip!(src, block, out);
  return out;
}

describe('WebAssembly kernels against the TypeScript codecs', () => {
  it('zip: decode any layout and contents exactly as TypeScript does', () => {
    fc.assert(
      fc.property(arbChunk(), ({ block, raw }) => {
        const packed = compressZip(raw, block);
        expect(viaWasmZip(packed, block, raw.length)).toEqual(raw);
      }),
      { numRuns: 150 },
    );
  });

  it('zip: corrupted chunks decode to the same bytes or are refused alike', () => {
    fc.assert(
      fc.property(
        arbChunk(undefined, 8).chain(({ block, raw }) => {
          const packed = compressZip(raw, block);
          return (packed.length > 0 ? arbCorrupted(packed) : fc.constant(packed)).map((bad) => ({ block, bad, bytes: raw.length }));
        }),
        ({ block, bad, bytes }) => {
          expect(outcome(() => viaWasmZip(bad, block, bytes))).toEqual(outcome(() => decompressZip(bad, block, bytes)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('zip: a stream that inflates to more or less than the chunk is refused, a bomb without inflating it all', () => {
    const raw = new Uint8Array(1000).map((_, i) => (i * 7) & 255);
    const block: BlockLayout = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 500, heightPx: 1 };
    const packed = compressZip(raw, block);
    expect(() => viaWasmZip(packed, block, 998)).toThrow(/ZIP data inflates to more than 998 bytes/);
    expect(() => viaWasmZip(packed, block, 1002)).toThrow(/ZIP data inflates to 1000 bytes, expected 1002/);
    expect(() => viaWasmZip(new Uint8Array(0), block, 1000)).toThrow(/not a valid zlib stream/);
    const bomb = new Uint8Array(zlib.deflateSync(new Uint8Array(64 << 20), { level: 9 }));
    expect(() => viaWasmZip(bomb, block, 1000)).toThrow(/more than 1000 bytes/);
  });

  // The vector loop takes 16 bytes of each half at a time: every length to past a few steps, odd ones included.
  it("the predictor gives the TypeScript codec's bytes at every length, step edges and odd lengths included", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (byteCount, seed, smooth) => {
        const next = lcg(seed);
        const raw = Uint8Array.from(
          { length: byteCount },
          (_, i) => (smooth ? (i >> 3) + Math.floor(next() * 4) : Math.floor(next() * 256)) & 0xff,
        );
        const block: BlockLayout = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 1, heightPx: 1 };
        expect(viaWasmZip(compressZip(raw, block), block, byteCount)).toEqual(raw);
      }),
      { numRuns: 300 },
    );
  });

  it('inflate: what node:zlib inflates, refusing what it refuses, from chunk to chunk of any size (the memory grows)', () => {
    const next = lcg(7);
    for (const byteCount of [0, 1, 100, 70_000, 3 << 20, 12_345]) {
      const raw = new Uint8Array(byteCount);
      for (let i = 0; i < byteCount; i++) raw[i] = (i >> 5) + Math.floor(next() * 3);
      const packed = new Uint8Array(zlib.deflateSync(raw, { level: 4 }));
      // Buffer's equals: toEqual walks megabytes element by element
      const same = Buffer.from(wasm.inflateExact(packed, byteCount, 'PXR24')).equals(inflateExact(packed, byteCount, 'PXR24'));
      expect(same).toBe(true);
      if (byteCount > 0) {
        expect(() => wasm.inflateExact(packed, byteCount - 1, 'PXR24')).toThrow(/PXR24 data inflates to more than/);
        expect(() => wasm.inflateExact(packed.subarray(0, packed.length - 1), byteCount, 'DWA AC')).toThrow(/^DWA AC data/);
      }
    }
  });
});

describe('kernel tiers', () => {
  it('the WebAssembly kernels run exactly where the native ones are off and EXRVIEW_WASM is not 0', () => {
    const wasmWanted = !nativeStatus.on && process.env.EXRVIEW_WASM !== '0';
    expect(wasmStatus.on).toBe(wasmWanted);
    const zipTier = nativeStatus.on ? 'native' : wasmWanted ? 'wasm' : 'typescript';
    expect(kernelTierOf('zip')).toBe(zipTier);
    expect(kernelTierOf('zips')).toBe(zipTier);
    for (const compression of ['piz', 'rle', 'pxr24', 'b44', 'b44a'] as const) expect(kernelTierOf(compression)).toBe(zipTier);
    expect(usesNativeKernel('zip')).toBe(nativeStatus.on);
    expect(kernelTierOf('dwaa')).toBe(
      nativeStatus.on ? 'typescript, inflate native' : wasmWanted ? 'typescript, inflate wasm' : 'typescript',
    );
    expect(kernelTierReport().wasm).toBe(wasmStatus);
    expect(describeKernelTiers()).toContain(`zip zips`);
  });

  it('says why a tier is off: not needed, turned off, missing, or broken', () => {
    expect(loadWasm({}, true).status).toEqual({ on: false, reason: 'not needed: the native kernels run', path: null });
    expect(loadWasm({ EXRVIEW_WASM: '0' }, false).status).toEqual({ on: false, reason: 'turned off by EXRVIEW_WASM=0', path: null });
    expect(loadWasm({ EXRVIEW_WASM_FILE: '/nonexistent/exr_kernels.wasm' }, false).status.reason).toMatch(/^missing .*\/nonexistent/);
    const dir = mkdtempSync(join(tmpdir(), 'exrview-wasm-'));
    try {
      const broken = join(dir, WASM_FILE);
      writeFileSync(broken, 'not a module');
      const status = loadWasm({ EXRVIEW_WASM_FILE: broken }, false).status;
      expect(status.on).toBe(false);
      expect(status.reason).toContain(`${broken} did not load`);
      expect(loadWasm({ EXRVIEW_WASM_FILE: committed }, false).status).toEqual({
        on: true,
        reason: `loaded from ${committed}`,
        path: committed,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the tier decoding runs in and why the one above is off, in one line', () => {
    const native = { on: false, reason: 'turned off by EXRVIEW_NATIVE=0', path: null };
    const wasmOn = { on: true, reason: 'loaded from x', path: 'x' };
    expect(decodeTier({ on: true, reason: 'loaded', path: 'a' }, wasmOn)).toEqual({ tier: 'native', whyNotAbove: null });
    expect(describeDecodeTier(decodeTier(native, wasmOn))).toBe(
      'decoding with the WebAssembly kernels (native kernels off: turned off by EXRVIEW_NATIVE=0)',
    );
    expect(describeDecodeTier(decodeTier(native, { on: false, reason: 'turned off by EXRVIEW_WASM=0', path: null }))).toBe(
      'decoding with the TypeScript codecs (WebAssembly kernels off: turned off by EXRVIEW_WASM=0)',
    );
    expect(describeDecodeTier({ tier: 'native', whyNotAbove: null })).toBe('decoding with the native kernels');
    expect(decodeTier().tier).toBe(kernelTierOf('zip'));
  });

  it('describes each tier with the compressions it runs', () => {
    const line = describeKernelTiers({
      native: { on: false, reason: 'turned off by EXRVIEW_NATIVE=0', path: null },
      wasm: { on: true, reason: 'loaded from x', path: 'x' },
      compressions: { zip: 'wasm', zips: 'wasm', piz: 'typescript', pxr24: 'typescript, inflate wasm' },
    });
    expect(line).toBe(
      'native off (turned off by EXRVIEW_NATIVE=0), WebAssembly on; wasm: zip zips; typescript: piz; typescript, inflate wasm: pxr24',
    );
  });
});
