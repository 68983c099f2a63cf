import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ExrError } from '../core/errors.js';
import { compressRle, decompressRle } from './rle.js';
import { decompress } from './index.js';
import { arbChunk, channel, chunkBytes, fromBase64 } from '../../testing/codec/test-layouts.js';

const oneHalfChannel = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 4, heightPx: 1 };

/**
 * Line y=2 of a 10x4 image at (-4, 2) with float F, half H, pLinear half P, 2x2-subsampled half S and
 * uint U, written by OpenEXR 3.1 (RLE); the expected bytes are what OpenEXR decodes from it.
 */
const OPENEXR_BLOCK = {
  channels: [
    channel('F', 'float'),
    channel('H', 'half'),
    channel('P', 'half', 1, 1, true),
    channel('S', 'half', 2, 2),
    channel('U', 'uint'),
  ],
  x0: -4,
  y0: 2,
  widthPx: 10,
  heightPx: 1,
};
const OPENEXR_RLE =
  '/wAGgPP5hJxfQ45dZHXDJdRFAoD5IjL8RDcVoAKAzFYbxHEKAc/mgOcZRFaqVqpWqlbWCEXypJRM66iP2GCNv0G/Qb9Bvx3or1FfoadZA/xHOfkCgPmEfYGDf3wGAoD0CIZ7eol7N6qEgoJOBoD0v7nku6b4IH4Xh0pU';
const OPENEXR_LINE =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwA8ADwAPAA8okBUPdA+lEFLQOA8AMIAwgDCAMLWSnFQtUumRTBOsUkAAGYqZi7NMGYyKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjw==';

function invalidError(run: () => unknown): ExrError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExrError);
    expect((error as ExrError).kind).toBe('invalid');
    return error as ExrError;
  }
  throw new Error('expected an ExrError');
}

describe('RLE', () => {
  it('decodes a chunk written by OpenEXR', () => {
    const src = fromBase64(OPENEXR_RLE);
    expect(chunkBytes(OPENEXR_BLOCK)).toBe(130);
    expect(decompress('rle', src, OPENEXR_BLOCK, 130)).toEqual(fromBase64(OPENEXR_LINE));
  });

  it('codes runs and literals as OpenEXR does', () => {
    // Eight equal bytes: predicted to 7 then seven 128s; a 1-byte literal, then a run of 7.
    const raw = new Uint8Array(8).fill(7);
    expect([...compressRle(raw, oneHalfChannel)]).toEqual([0xff, 7, 6, 128]);
    expect([...decompressRle(new Uint8Array([0xff, 7, 6, 128]), oneHalfChannel, 8)]).toEqual([...raw]);
  });

  it('splits runs longer than 128 and literals longer than 127', () => {
    // Prediction turns 0,0,0,... into 0,128,128,...: one literal then runs of at most 128.
    const packed = compressRle(new Uint8Array(600), { ...oneHalfChannel, widthPx: 300 });
    expect([...packed]).toEqual([0xff, 0, 127, 128, 127, 128, 127, 128, 127, 128, 86, 128]);
    const noise = Uint8Array.from({ length: 400 }, (_, i) => (i * 97 + (i >> 3) * 13) & 0xff);
    const block = { ...oneHalfChannel, widthPx: 200 };
    expect(decompressRle(compressRle(noise, block), block, 400)).toEqual(noise);
  });

  it('round-trips any chunk layout and contents', () => {
    fc.assert(
      fc.property(arbChunk(), ({ block, raw }) => {
        expect(decompressRle(compressRle(raw, block), block, raw.length)).toEqual(raw);
      }),
      { numRuns: 200 },
    );
  });

  it('never returns the wrong size or a foreign error, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 1, max: 400 }), (src, expected) => {
        try {
          expect(decompressRle(src, oneHalfChannel, expected).length).toBe(expected);
        } catch (error) {
          expect(error).toBeInstanceOf(ExrError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rejects damaged data', () => {
    const block = { ...oneHalfChannel, widthPx: 8 };
    // Literal run past the end of the input.
    expect(invalidError(() => decompress('rle', new Uint8Array([0xf0, 1, 2]), block, 16)).message).toMatch(/past the end/);
    // Run record without its value byte.
    invalidError(() => decompress('rle', new Uint8Array([0xff, 1, 5]), block, 16));
    // Too much output, and too little.
    invalidError(() => decompress('rle', new Uint8Array([100, 1]), block, 16));
    invalidError(() => decompress('rle', new Uint8Array([3, 1]), block, 16));
  });
});
