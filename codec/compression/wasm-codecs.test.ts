// The WebAssembly kernels of PIZ, RLE, PXR24, B44 and Huffman against their TypeScript oracles, byte for byte: random layouts
// and contents, corrupted chunks, both wavelets, the planes variant, and every chunk of the reference corpus.

import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkPlace, uncompressedBytes } from '../blocks.js';
import { asExrError, ExrError } from '../core/errors.js';
import type { BlockLayout, Compression } from '../core/types.js';
import { openFileSource } from '../file-source.js';
import { ExrReader } from '../reader.js';
import { arbB44Chunk, wideValueChunk } from '../../testing/codec/chunks.js';
import { arbChunk, arbCorrupted, channel, lcg } from '../../testing/codec/test-layouts.js';
import { decompressB44 } from './b44.js';
import { huffmanCompress, huffmanDecodeInto } from './huffman.js';
import type { DecompressorInto } from './native-codecs.js';
import { compressPiz, decompressPiz, decompressPizPlanes, type PizPlanes } from './piz.js';
import { compressPxr24, decompressPxr24 } from './pxr24.js';
import { compressRle, decompressRle } from './rle.js';
import { wasmCodecs } from './wasm-codecs.js';
import { instantiateWasmKernels, WASM_FILE } from './wasm.js';
import { decompressZip } from './zip.js';

const wasm = wasmCodecs(instantiateWasmKernels(resolve(__dirname, '../../native/wasm', WASM_FILE)));

type Decoder = (src: Uint8Array, block: BlockLayout, expectedBytes: number) => Uint8Array;
const ORACLES: Partial<Record<Compression, Decoder>> = {
  zip: decompressZip,
  zips: decompressZip,
  rle: decompressRle,
  piz: decompressPiz,
  pxr24: decompressPxr24,
  b44: decompressB44,
  b44a: decompressB44,
};

/** A decoder's bytes, or the kind of its error (every failure must be a typed ExrError, as the dispatch makes it). */
function outcome(decode: () => Uint8Array): { bytes: Uint8Array } | { error: string } {
  try {
    return { bytes: decode() };
  } catch (error) {
    const typed = error instanceof ExrError ? error : asExrError(error);
    return { error: error instanceof ExrError || error instanceof RangeError ? typed.kind : `untyped: ${String(error)}` };
  }
}

function viaWasm(into: DecompressorInto, src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const out = new Uint8Array(expectedBytes);
  into(src, block, out);
  return out;
}

function expectSameOutcome(compression: Compression, src: Uint8Array, block: BlockLayout, expectedBytes: number): void {
  const want = outcome(() => ORACLES[compression]!(src, block, expectedBytes));
  expect(outcome(() => viaWasm(wasm.into[compression]!, src, block, expectedBytes))).toEqual(want);
}

/** The planes as plain data (hashes of the word and LUT arrays: deep equality of 64K-entry arrays is slow). */
function planesOutcome(decode: () => PizPlanes): unknown {
  try {
    const { words, planes, lut, maxCode } = decode();
    const hash = (a: Uint16Array | null) => (a ? createHash('sha1').update(a).digest('hex') : null);
    return { words: hash(words), planes, lut: hash(lut), maxCode };
  } catch (error) {
    return { error: error instanceof ExrError ? error.kind : `untyped: ${String(error)}` };
  }
}

describe('WebAssembly PIZ, RLE, PXR24 and B44 against the TypeScript codecs', () => {
  for (const [compression, compressor] of [
    ['piz', compressPiz],
    ['rle', compressRle],
    ['pxr24', compressPxr24],
  ] as const) {
    it(`${compression}: decode any layout and contents exactly as TypeScript does`, () => {
      fc.assert(
        fc.property(arbChunk(), ({ block, raw }) => {
          const packed = compressor(raw, block);
          const got = viaWasm(wasm.into[compression]!, packed, block, raw.length);
          // PXR24 rounds floats to 24 bits: the TypeScript decoder's bytes, not the raw ones
          expect(got).toEqual(compression === 'pxr24' ? decompressPxr24(packed, block, raw.length) : raw);
        }),
        { numRuns: 150 },
      );
    });

    it(`${compression}: corrupted chunks decode to the same bytes or are refused alike`, () => {
      fc.assert(
        fc.property(
          arbChunk(undefined, 8).chain(({ block, raw }) => {
            const packed = compressor(raw, block);
            return (packed.length > 0 ? arbCorrupted(packed) : fc.constant(packed)).map((bad) => ({ block, bad, bytes: raw.length }));
          }),
          ({ block, bad, bytes }) => expectSameOutcome(compression, bad, block, bytes),
        ),
        { numRuns: 300 },
      );
    });
  }

  it('piz: the 16-bit wavelet (more than 2^14 distinct values) and the 14-bit one on large chunks', () => {
    for (const seed of [1, 2, 3]) {
      const { block, raw } = wideValueChunk(seed);
      const packed = compressPiz(raw, block);
      expect(viaWasm(wasm.into.piz!, packed, block, raw.length)).toEqual(raw);
      const planes = planesOutcome(() => wasm.pizPlanes(packed, block, raw.length));
      expect(planes).toMatchObject({ maxCode: expect.any(Number) });
      expect((planes as { maxCode: number }).maxCode).toBeGreaterThanOrEqual(1 << 14);
      expect(planes).toEqual(planesOutcome(() => decompressPizPlanes(packed, block, raw.length)));
      const narrow = raw.map((v) => v & 0x3f);
      expect(viaWasm(wasm.into.piz!, compressPiz(narrow, block), block, raw.length)).toEqual(narrow);
    }
  });

  // PIZ's finest wavelet level runs 16 words a step, PXR24's half runs 8 samples: widths around the step edges, half and
  // 32-bit channels, both wavelets.
  it('piz and pxr24: every width around the vector steps decodes as TypeScript does', () => {
    for (const pixelType of ['half', 'float'] as const) {
      for (let widthPx = 1; widthPx <= 40; widthPx++) {
        const block: BlockLayout = { channels: [channel('A', pixelType)], x0: 0, y0: 0, widthPx, heightPx: 7 };
        const next = lcg(widthPx);
        for (const mask of [0x3f, 0xffff]) {
          const raw = Uint8Array.from({ length: uncompressedBytes(block) }, () => Math.floor(next() * 256) & mask);
          expect(viaWasm(wasm.into.piz!, compressPiz(raw, block), block, raw.length)).toEqual(raw);
          const pxr24 = compressPxr24(raw, block);
          expect(viaWasm(wasm.into.pxr24!, pxr24, block, raw.length)).toEqual(decompressPxr24(pxr24, block, raw.length));
        }
      }
    }
  });

  it('piz: the planes variant gives the same planes, LUT and largest code as TypeScript, corrupted or not', () => {
    fc.assert(
      fc.property(
        arbChunk(undefined, 12).chain(({ block, raw }) => {
          const packed = compressPiz(raw, block);
          return fc.oneof(fc.constant(packed), arbCorrupted(packed)).map((src) => ({ block, src, bytes: raw.length }));
        }),
        ({ block, src, bytes }) => {
          // the TypeScript planes live in a scratch buffer that the WebAssembly call reuses: hashed before it runs
          const want = planesOutcome(() => decompressPizPlanes(src, block, bytes));
          expect(planesOutcome(() => wasm.pizPlanes(src, block, bytes))).toEqual(want);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('b44 and b44a: random blocks, flat and full, pLinear and raw channels, decode as TypeScript does', () => {
    fc.assert(
      fc.property(arbB44Chunk(), fc.constantFrom<Compression>('b44', 'b44a'), ({ block, src }, compression) => {
        const bytes = uncompressedBytes(block);
        const got = outcome(() => viaWasm(wasm.into[compression]!, src, block, bytes));
        expect('bytes' in got).toBe(true);
        expect(got).toEqual(outcome(() => decompressB44(src, block, bytes)));
      }),
      { numRuns: 200 },
    );
  });

  it('b44: truncated, extended and corrupted chunks are refused or decoded alike', () => {
    fc.assert(
      fc.property(
        arbB44Chunk().chain(({ block, src }) =>
          fc
            .oneof(
              fc.integer({ min: 0, max: Math.max(0, src.length - 1) }).map((n) => src.subarray(0, n)),
              fc.constant(new Uint8Array([...src, 1, 2, 3])),
              src.length > 0 ? arbCorrupted(src) : fc.constant(src),
            )
            .map((bad) => ({ block, bad })),
        ),
        ({ block, bad }) => expectSameOutcome('b44', bad, block, uncompressedBytes(block)),
      ),
      { numRuns: 200 },
    );
  });

  it("huffman: whole blocks (DWA's AC values) decode as TypeScript does, corrupted or asked for the wrong count", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: -2, max: 2 }),
        fc.boolean(),
        (values, countError, corrupt) => {
          const packed = huffmanCompress(Uint16Array.from(values));
          if (corrupt && packed.length > 24) packed[24 + ((values[0]! * 7) % (packed.length - 24))]! ^= 0x5a;
          const count = Math.max(0, values.length + countError);
          const decode = (into: (src: Uint8Array, out: Uint16Array) => void) => () => {
            const out = new Uint16Array(count);
            into(packed, out);
            return new Uint8Array(out.buffer);
          };
          expect(outcome(decode(wasm.huffmanDecodeInto))).toEqual(outcome(decode(huffmanDecodeInto)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

const corpusDir = join(resolve(__dirname, '../../../shared'), 'corpus', 'openexr-images');

describe.skipIf(!existsSync(corpusDir))('WebAssembly kernels on the corpus (../shared/corpus/openexr-images)', () => {
  it('decode every chunk of every reference file exactly as TypeScript does', () => {
    const files = (readdirSync(corpusDir, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.exr') && !f.startsWith('Damaged'))
      .sort();
    let chunks = 0;
    for (const file of files) {
      const source = openFileSource(join(corpusDir, file));
      try {
        const reader = ExrReader.open(source);
        for (const part of reader.parts) {
          const oracle = ORACLES[part.compression];
          if (part.isDeep || !oracle) continue;
          for (let index = 0; index < part.chunkCount; index++) {
            const block = chunkPlace(part, index).block;
            const expectedBytes = uncompressedBytes(block);
            const data = reader.readChunk(part.index, index).data;
            if (data.length >= expectedBytes) continue; // stored raw
            const got = outcome(() => viaWasm(wasm.into[part.compression]!, data, block, expectedBytes));
            const want = outcome(() => oracle(data, block, expectedBytes));
            if (!('bytes' in got && 'bytes' in want && Buffer.compare(got.bytes, want.bytes) === 0))
              expect({ file, index, got }).toEqual({ file, index, got: want });
            chunks++;
          }
        }
      } finally {
        source.close();
      }
    }
    expect(chunks).toBeGreaterThan(1000);
  });
});
