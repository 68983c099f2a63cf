// The native PNG encoder (native/src/png.c) against sharp's decoder: the same RGB back for any size and content, a
// well-formed file (signature, IHDR, IDAT, IEND, each CRC right), and bad arguments refused.

import fc from 'fast-check';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../codec/compression/native.js';
import { PNG_LEVEL, pngFromRgba8 } from './png-native.js';

/** The file's chunks in order, each CRC checked. */
function chunksOf(png: Uint8Array): { type: string; data: Buffer }[] {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    expect(bytes.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

async function decodedRgb(png: ArrayBuffer): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(Buffer.from(png)).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function rgbOf(rgba: Uint8Array): Buffer {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  for (let i = 0; i < rgba.length / 4; i++) rgb.set(rgba.subarray(i * 4, i * 4 + 3), i * 3);
  return rgb;
}

describe.skipIf(!nativeKernels)('native PNG encoder', () => {
  it('round-trips any RGBA through sharp as its RGB, in a well-formed file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom('noise', 'gradient', 'flat'),
        async (widthPx, heightPx, seed, kind) => {
          const rgba = new Uint8Array(widthPx * heightPx * 4);
          let state = seed | 1;
          for (let i = 0; i < rgba.length; i++) {
            state = (state * 1103515245 + 12345) >>> 0;
            const p = i >> 2;
            const x = p % widthPx,
              y = Math.floor(p / widthPx);
            rgba[i] = kind === 'noise' ? state >>> 24 : kind === 'gradient' ? (x * 7 + y * 3 + (i & 3) * 50 + (state >>> 30)) & 255 : 128;
          }
          const png = pngFromRgba8(rgba, widthPx, heightPx)!;
          const chunks = chunksOf(new Uint8Array(png));
          expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
          expect([chunks[0]!.data.readUInt32BE(0), chunks[0]!.data.readUInt32BE(4), ...chunks[0]!.data.subarray(8)]).toEqual([
            widthPx,
            heightPx,
            8,
            2,
            0,
            0,
            0,
          ]);
          const decoded = await decodedRgb(png);
          expect([decoded.width, decoded.height, decoded.channels]).toEqual([widthPx, heightPx, 3]);
          expect(Buffer.compare(decoded.data, rgbOf(rgba))).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('takes a view into a larger buffer, and a Uint8ClampedArray', async () => {
    const backing = new Uint8ClampedArray(8 + 3 * 2 * 4);
    for (let i = 0; i < backing.length; i++) backing[i] = i * 11;
    const view = new Uint8ClampedArray(backing.buffer, 8, 3 * 2 * 4);
    const decoded = await decodedRgb(pngFromRgba8(view, 3, 2)!);
    expect(Buffer.compare(decoded.data, rgbOf(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)))).toBe(0);
  });

  it('compresses a smooth image well below its raw size', () => {
    const widthPx = 256,
      heightPx = 144;
    const rgba = new Uint8Array(widthPx * heightPx * 4).map((_, i) => ((i >> 2) % widthPx) + (Math.floor((i >> 2) / widthPx) >> 1));
    expect(pngFromRgba8(rgba, widthPx, heightPx)!.byteLength).toBeLessThan((widthPx * heightPx * 3) / 20);
  });

  it('refuses pixels that are not width x height RGBA, and sizes or levels out of range', () => {
    expect(() => nativeKernels!.pngRgb8(new Uint8Array(4 * 6 - 1), 3, 2, PNG_LEVEL)).toThrow(/are not 3x2 RGBA/);
    expect(() => nativeKernels!.pngRgb8(new Uint8Array(0), 0, 2, PNG_LEVEL)).toThrow(TypeError);
    expect(() => nativeKernels!.pngRgb8(new Uint8Array(4), 1, 1, 13)).toThrow(TypeError);
    expect(() => nativeKernels!.pngRgb8(new Uint16Array(4) as unknown as Uint8Array, 1, 1, PNG_LEVEL)).toThrow(TypeError);
  });
});

describe.skipIf(nativeKernels !== null)('without the native kernels', () => {
  it('gives no PNG, so the caller encodes with sharp', () => {
    expect(pngFromRgba8(new Uint8Array(4), 1, 1)).toBeNull();
  });
});
