// The native kernels against their TypeScript oracles, byte for byte: random layouts and contents, corrupted chunks, the corpus.

import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkPlace, uncompressedBytes } from '../blocks.js';
import { asExrError, ExrError } from '../core/errors.js';
import { openFileSource } from '../file-source.js';
import { ExrReader } from '../reader.js';
import type { BlockLayout, Compression } from '../core/types.js';
import { decompressB44 } from './b44.js';
import { copyRlePlane, rleDecode } from './dwa.js';
import { huffmanCompress, huffmanDecodeInto } from './huffman.js';
import { interleaveAndPredict, unpredictAndInterleave } from './predictor.js';
import { compress, decompressInto, decompress, usesNativeKernel } from './index.js';
import { nativeKernels, nativeStatus } from './native.js';
import { nativeCodecs, type DecompressorInto } from './native-codecs.js';
import { compressPiz, decompressPiz, decompressPizPlanes, type PizPlanes } from './piz.js';
import { compressPxr24, decompressPxr24 } from './pxr24.js';
import { compressRle, decompressRle } from './rle.js';
import { arbB44Chunk, wideValueChunk } from '../../testing/codec/chunks.js';
import { arbChunk, arbCorrupted, channel, lcg } from '../../testing/codec/test-layouts.js';
import { compressZip, decompressZip, inflateExact } from './zip.js';

const native = nativeKernels ? nativeCodecs(nativeKernels) : null;

type Outcome = { bytes: Uint8Array } | { error: string };

/** What a decoder makes of a chunk: its bytes, or the kind of error (every failure must be a typed ExrError). */
function outcome(decode: () => Uint8Array): Outcome {
  try {
    return { bytes: decode() };
  } catch (error) {
    // the dispatch turns every throw into an ExrError (RangeError included): do the same for the oracle
    const typed = error instanceof ExrError ? error : asExrError(error);
    return {
      error:
        error instanceof ExrError || error instanceof RangeError || (error as { code?: string }).code?.startsWith('Z_')
          ? typed.kind
          : `untyped: ${String(error)}`,
    };
  }
}

/** A kernel that fills the view it is given, run on a fresh one of `byteLength` bytes. */
function filled(byteLength: number, fill: (out: Uint8Array) => void): Uint8Array {
  const out = new Uint8Array(byteLength);
  fill(out);
  return out;
}

function viaNative(into: DecompressorInto, src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  return filled(expectedBytes, (out) => into(src, block, out));
}

/** Native and TypeScript agree on `src`: the same bytes, or both refuse it as invalid. */
function expectSameOutcome(
  compression: Compression,
  src: Uint8Array,
  block: BlockLayout,
  expectedBytes: number,
  oracle: (src: Uint8Array, block: BlockLayout, expectedBytes: number) => Uint8Array,
): void {
  const want = outcome(() => oracle(src, block, expectedBytes));
  const got = outcome(() => viaNative(native!.into[compression]!, src, block, expectedBytes));
  expect(got).toEqual(want);
}

const ORACLES: Partial<Record<Compression, (src: Uint8Array, block: BlockLayout, expectedBytes: number) => Uint8Array>> = {
  zip: decompressZip,
  zips: decompressZip,
  rle: decompressRle,
  piz: decompressPiz,
  pxr24: decompressPxr24,
  b44: decompressB44,
  b44a: decompressB44,
};

const COMPRESSORS: Array<[Compression, (raw: Uint8Array, block: BlockLayout) => Uint8Array]> = [
  ['zip', compressZip],
  ['rle', compressRle],
  ['piz', compressPiz],
  ['pxr24', compressPxr24],
];

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

const shared = resolve(__dirname, '../../../shared');
const corpusDir = join(shared, 'corpus', 'openexr-images');

describe.skipIf(!native)('native kernels against the TypeScript codecs', () => {
  it('are what the dispatch uses for every compression they cover', () => {
    for (const compression of Object.keys(ORACLES) as Compression[]) expect(usesNativeKernel(compression)).toBe(true);
    expect(usesNativeKernel('dwaa')).toBe(false);
  });

  for (const [compression, compressor] of COMPRESSORS) {
    it(`${compression}: decode any layout and contents exactly as TypeScript does`, () => {
      fc.assert(
        fc.property(arbChunk(), ({ block, raw }) => {
          const packed = compressor(raw, block);
          const got = viaNative(native!.into[compression]!, packed, block, raw.length);
          expect(got).toEqual(ORACLES[compression]!(packed, block, raw.length));
          if (compression !== 'pxr24') expect(got).toEqual(raw); // lossless
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
          ({ block, bad, bytes }) => expectSameOutcome(compression, bad, block, bytes, ORACLES[compression]!),
        ),
        { numRuns: 300 },
      );
    });
  }

  it('zip: a stream that inflates to more or less than the chunk is refused', () => {
    const raw = new Uint8Array(1000).map((_, i) => (i * 7) & 255);
    const block: BlockLayout = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 500, heightPx: 1 };
    const packed = compressZip(raw, block);
    for (const bytes of [998, 1002, 2]) expectSameOutcome('zip', packed, { ...block, widthPx: bytes / 2 }, bytes, decompressZip);
    expectSameOutcome('zip', new Uint8Array(0), block, 1000, decompressZip);
    // a 64 MB bomb against a 1000-byte chunk: refused without inflating it all
    expectSameOutcome('zip', new Uint8Array(zlib.deflateSync(new Uint8Array(64 << 20), { level: 9 })), block, 1000, decompressZip);
  });

  it('piz: the 16-bit wavelet (more than 2^14 distinct values) and the 14-bit one on large chunks', () => {
    for (const seed of [1, 2, 3]) {
      const { block, raw } = wideValueChunk(seed);
      const packed = compressPiz(raw, block);
      expect(viaNative(native!.into.piz!, packed, block, raw.length)).toEqual(raw);
      const planes = native!.pizPlanes(packed, block, raw.length);
      expect(planes.maxCode).toBeGreaterThanOrEqual(1 << 14);
      expect(planesOutcome(() => planes)).toEqual(planesOutcome(() => decompressPizPlanes(packed, block, raw.length)));
      // 14-bit: the same layout with values from a small alphabet
      const narrow = raw.map((v) => v & 0x3f);
      expect(viaNative(native!.into.piz!, compressPiz(narrow, block), block, raw.length)).toEqual(narrow);
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
          // the TypeScript planes live in a scratch buffer that the native call reuses: copy before comparing
          const want = planesOutcome(() => decompressPizPlanes(src, block, bytes));
          expect(planesOutcome(() => native!.pizPlanes(src, block, bytes))).toEqual(want);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('b44 and b44a: random blocks, flat and full, pLinear and raw channels, decode as TypeScript does', () => {
    fc.assert(
      fc.property(arbB44Chunk(), fc.constantFrom<Compression>('b44', 'b44a'), ({ block, src }, compression) => {
        const bytes = uncompressedBytes(block);
        const got = outcome(() => viaNative(native!.into[compression]!, src, block, bytes));
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
        ({ block, bad }) => expectSameOutcome('b44', bad, block, uncompressedBytes(block), decompressB44),
      ),
      { numRuns: 200 },
    );
  });

  it('inflate: libdeflate gives the bytes zlib gives, and refuses what zlib refuses', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), (raw, sizeError, corrupt) => {
        const packed = new Uint8Array(zlib.deflateSync(raw, { level: 4 }));
        if (corrupt && packed.length > 6) packed[Math.floor(packed.length / 2)]! ^= 0x5a;
        const expected = Math.max(0, raw.length + sizeError);
        const want = outcome(() => inflateExact(packed, expected, 'test'));
        expect(outcome(() => native!.inflateExact(packed, expected, 'test'))).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("huffman: whole blocks (DWA's AC values) decode as TypeScript does, corrupted, cut short or asked for the wrong count", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.constantFrom(0, 1, 0xff00)), { maxLength: 2000 }),
        fc.integer({ min: -2, max: 2 }),
        fc.option(fc.nat(), { nil: undefined }),
        (values, countError, flipAt) => {
          const packed = huffmanCompress(Uint16Array.from(values));
          if (flipAt !== undefined && packed.length > 0) packed[flipAt % packed.length]! ^= 0x24;
          const count = Math.max(0, values.length + countError);
          const decode = (into: (src: Uint8Array, out: Uint16Array) => void) => () => {
            const out = new Uint16Array(count);
            into(packed, out);
            return new Uint8Array(out.buffer);
          };
          expect(outcome(decode(native!.huffmanDecodeInto))).toEqual(outcome(decode(huffmanDecodeInto)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('dwa RLE planes: half and float rows land where TypeScript puts them; data too short or rows outside the chunk are refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (width, height, wide, start, seed) => {
          const bytesPerSample = wide ? 4 : 2;
          const rowBytes = width * bytesPerSample;
          // rows in a shuffled order, some room between them, as other channels' rows sit in a chunk
          const order = Array.from({ length: height }, (_, i) => i).sort((a, b) => ((a * 7 + seed) % 11) - ((b * 7 + seed) % 11));
          const rowOffsets = new Int32Array(height);
          order.forEach((row, i) => (rowOffsets[row] = i * (rowBytes + 2 * (seed % 3))));
          const plane = { widthSamples: width, heightSamples: height, bytesPerSample, rowOffsets };
          const outBytes = height > 0 ? (height - 1) * (rowBytes + 2 * (seed % 3)) + rowBytes : 0;
          const next = lcg(seed);
          const data = Uint8Array.from({ length: start + width * height * bytesPerSample }, () => Math.floor(next() * 256));
          const viaTs = new Uint8Array(outBytes).fill(0x5a);
          copyRlePlane(data, start, plane, new Uint16Array(viaTs.buffer));
          const viaNative = new Uint8Array(outBytes).fill(0x5a);
          native!.dwaRlePlane(data, start, plane, viaNative);
          expect(viaNative).toEqual(viaTs);
          if (width * height > 0) {
            expect(() => native!.dwaRlePlane(data.subarray(0, data.length - 1), start, plane, viaNative)).toThrow(ExrError);
            expect(() => native!.dwaRlePlane(data, start, plane, viaNative.subarray(0, outBytes - 1))).toThrow(ExrError);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('dwa RLE section: the same bytes as TypeScript from any records; cut short, overlong or undersized data are refused alike', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 128 }), fc.integer({ min: 0, max: 255 })), { maxLength: 40 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 0, max: 2 }),
        (records, sizeError, cut) => {
          // literal runs (count byte 256 - n, then n bytes) and repeats (count n - 1, then the byte), as OpenEXR writes them
          const bytes: number[] = [];
          let rawBytes = 0;
          for (const [literal, n, value] of records) {
            if (literal) bytes.push(256 - Math.min(n, 127), ...Array.from({ length: Math.min(n, 127) }, (_, i) => (value + i) & 0xff));
            else bytes.push(n - 1, value);
            rawBytes += literal ? Math.min(n, 127) : n;
          }
          const src = Uint8Array.from(bytes.slice(0, Math.max(0, bytes.length - cut)));
          const declared = Math.max(0, rawBytes + sizeError);
          // rleDecode returns its thread's scratch: copied before the next call
          const viaTs = outcome(() => rleDecode(src, declared).slice());
          expect(outcome(() => filled(declared, (out) => native!.dwaRleBytesInto(src, out)))).toEqual(viaTs);
        },
      ),
      { numRuns: 300 },
    );
  });

  // The predictor's vector steps take 64 bytes at a time from each half and interleave the second half as they sum it:
  // every length from 0 to past a few steps, odd ones (the first half a byte longer) included, and any bytes.
  it("zip and rle: the predictor gives the TypeScript codec's bytes at every length, step edges and odd lengths included", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 700 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (byteCount, seed, smooth) => {
        const next = lcg(seed);
        const raw = Uint8Array.from(
          { length: byteCount },
          (_, i) => (smooth ? (i >> 3) + Math.floor(next() * 4) : Math.floor(next() * 256)) & 0xff,
        );
        const block: BlockLayout = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 1, heightPx: 1 };
        const zipped = compressZip(raw, block);
        const rle = compressRle(raw, block);
        expect(decompressZip(zipped, block, byteCount)).toEqual(raw);
        expect(filled(byteCount, (out) => native!.into.zip!(zipped, block, out))).toEqual(raw);
        expect(filled(byteCount, (out) => native!.into.rle!(rle, block, out))).toEqual(raw);
      }),
      { numRuns: 300 },
    );
  });

  it('dwa DC section: inflated and unpredicted as TypeScript does; corrupt or mis-sized data refused alike', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: -2, max: 2 }),
        fc.boolean(),
        (count, seed, countError, corrupt) => {
          const next = lcg(seed);
          // DC values are smooth: the predictor's deltas are small
          const values = Uint16Array.from({ length: count }, (_, i) => (0x3c00 + Math.floor(next() * 64) + i) & 0xffff);
          const packed = zlib.deflateSync(interleaveAndPredict(new Uint8Array(values.buffer)));
          if (corrupt && packed.length > 4) packed[Math.floor(packed.length / 2)]! ^= 0x5a;
          const declared = Math.max(0, count + countError) * 2;
          const viaTs = outcome(() => unpredictAndInterleave(inflateExact(packed, declared, 'DWA DC')).slice());
          expect(outcome(() => filled(declared, (out) => native!.dwaDcInto(packed, out)))).toEqual(viaTs);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('decompressInto writes a chunk into a SharedArrayBuffer view at any offset, for native and TypeScript codecs alike', () => {
    const block: BlockLayout = { channels: [channel('R', 'half'), channel('Z', 'float')], x0: 0, y0: 0, widthPx: 37, heightPx: 16 };
    const bytes = uncompressedBytes(block);
    const raw = new Uint8Array(bytes).map((_, i) => (i * 13) ^ (i >> 3));
    const shared = new SharedArrayBuffer(bytes + 7);
    for (const compression of ['zip', 'piz', 'rle', 'pxr24', 'none'] as const) {
      const packed = compress(compression, raw, block);
      const dst = new Uint8Array(shared, 3, bytes);
      dst.fill(0xee);
      decompressInto(compression, packed, block, dst);
      expect(dst).toEqual(decompress(compression, packed, block, bytes));
      // nothing written outside the view
      expect(new Uint8Array(shared, 0, 3)).toEqual(new Uint8Array(3).fill(0));
    }
  });
});

describe.skipIf(!native || !existsSync(corpusDir))('native kernels on the corpus (../shared/corpus/openexr-images)', () => {
  const files = existsSync(corpusDir)
    ? (readdirSync(corpusDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.exr') && !f.startsWith('Damaged')).sort()
    : [];

  it('decode every chunk of every reference file exactly as TypeScript does', () => {
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
            const got = outcome(() => viaNative(native!.into[part.compression]!, data, block, expectedBytes));
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

if (!native) {
  describe('native kernels against the TypeScript codecs', () => {
    it.skip(`skipped: the native kernels are off (${nativeStatus.reason})`, () => {});
  });
}
