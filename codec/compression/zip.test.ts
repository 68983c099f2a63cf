import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import zlib from 'node:zlib';
import { compressZip, decompressZip } from './zip.js';
import { compress, decompress } from './index.js';
import { arbChunk, channel, chunkBytes, fromBase64, expectInvalid } from '../../testing/codec/test-layouts.js';

/**
 * Chunks of a 10x4 image at (-4, 2) with float F, half H, pLinear half P, 2x2-subsampled half S and
 * uint U, written by OpenEXR 3.1; the expected bytes are what OpenEXR decodes from them.
 */
const CHANNELS = [
  channel('F', 'float'),
  channel('H', 'half'),
  channel('P', 'half', 1, 1, true),
  channel('S', 'half', 2, 2),
  channel('U', 'uint'),
];
const ZIPS_BLOCK = { channels: CHANNELS, x0: -4, y0: 2, widthPx: 10, heightPx: 1 };
const ZIP_BLOCK = { channels: CHANNELS, x0: -4, y0: 2, widthPx: 10, heightPx: 4 };
const OPENEXR_ZIPS =
  'eF5jaICAny1z4p37YlNKD6tecQXylYz+uJiLLgCywqSPFHIxnn/W8FzSJWwVGF7jcP20ZIrP6xX9NxJ69zuCoeyL9YHxC5dHMv9xt/wJ1NZS29hcX8MGZHG0VVd1Vpuvamlq8oPatn/nk93LfijUibd7hQAA20A/EA==';
const OPENEXR_ZIPS_DECODED =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwA8ADwAPAA8okBUPdA+lEFLQOA8AMIAwgDCAMLWSnFQtUumRTBOsUkAAGYqZi7NMGYyKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjw==';
const OPENEXR_ZIP =
  'eF5jaICAny1z4p37YlNKD6tecQXylYz+uJiLLgCywqSPFHIxnn/W8FzSJWwVGF7jcP20ZIrP6xX9NxJ6oQaYhe92TKoSm/Pd32ynCZC/4U7OdHaee0DWkXZWhkDLC1C9d5j21JzKFVUWV/ji0gPVK9X4hZ37jsSElNepFfpAfmtsdINX+ycgS3zqzam835KfPX/2XABqgOC5Q2XCKus7JOXjb8AMEJ/5is9s7YvTmyb7rmQH8p90z/3VIPAKyKqZ5XvqRK8GVK/TPP8X9j9dP92L/OHQvd8RDGVfrA+MX7g8kvmPu+VPoI6W2sbm+ho2IIujrbqqs9p8VUtTkx/Uov07n+xe9kOhTrzdK+Qj1ICK3jUhNkdWhT2SLecEGdBaX1XVXscJZPHVNNdUt4FCAwR8dCzT7OMNczmnTuCD6eX98V5wbfAWnwfy6ZIgvY3NNa2V/zuBLPaW8s6GulygUIM71ADuXNGug3fXfcgyydeHGTCxpKSH+2tPyW+W750gA2o7yjvrfoEM4Gop7a4vt4Lqbf66/kOOkWLt3YNSLQB9ffUQ';
const OPENEXR_ZIP_DECODED =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwA8ADwAPAA8okBUPdA+lEFLQOA8AMIAwgDCAMLWSnFQtUumRTBOsUkAAGYqZi7NMGYyKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjwAAAD8AAAA/AAAAPwAAAD+2N41EyHCJRGsAZUT7bhdEjqZdQxM6TMMAPAA8ADwAPDBBjEB4Oo80FjuiOQDCAMIAwgDCRFBLTNBPUEshRtpMKgAAACoAAAAqAAAAKgAAAFzM3ngaMRYXYNZNteJmhVMc3LzxMAH0jwAAAD8AAAA/AAAAPwAAAD+azJtED7OWRCFxfUQVeCVECaR0Q1kqUcMAPAA8ADwAPAU94kC9PL1BhzqOuQDCAMIAwgDCl0msTQVEGk2nTR1LADhmOM04MzmaOSoAAAAqAAAAKgAAACoAAACRi994IQ0XF6pYTrV944VTHj298Zzg9I8AAAA/AAAAPwAAAD8AAAA/l1CwRBo4qERez4tE81A+RHC/g0NQunnDADwAPAA8ADxkOW9BjDgGQQY/lrkAwgDCAMIAwvxMFlDjRS1QdU+CRioAAAAqAAAAKgAAACoAAADCA+B4r6cXF9YDT7UUVoZT5LC98TWL9Y8=';

describe('ZIP and ZIPS', () => {
  it('decode chunks written by OpenEXR', () => {
    expect(chunkBytes(ZIPS_BLOCK)).toBe(130);
    expect(chunkBytes(ZIP_BLOCK)).toBe(500);
    expect(decompress('zips', fromBase64(OPENEXR_ZIPS), ZIPS_BLOCK, 130)).toEqual(fromBase64(OPENEXR_ZIPS_DECODED));
    expect(decompress('zip', fromBase64(OPENEXR_ZIP), ZIP_BLOCK, 500)).toEqual(fromBase64(OPENEXR_ZIP_DECODED));
  });

  it('deflates the reordered, predicted bytes', () => {
    const block = { channels: [channel('Y', 'half')], x0: 0, y0: 0, widthPx: 3, heightPx: 1 };
    const packed = compressZip(new Uint8Array([1, 2, 3, 4, 5, 6]), block);
    expect([...zlib.inflateSync(packed)]).toEqual([1, 130, 130, 125, 130, 130]);
  });

  it('round-trips any chunk layout and contents', () => {
    fc.assert(
      fc.property(arbChunk(), ({ block, raw }) => {
        expect(decompressZip(compressZip(raw, block), block, raw.length)).toEqual(raw);
        // Through the dispatch, which stores incompressible chunks raw.
        expect(decompress('zip', compress('zip', raw, block), block, raw.length)).toEqual(raw);
      }),
      { numRuns: 150 },
    );
  });

  it('rejects damaged data', () => {
    const packed = fromBase64(OPENEXR_ZIP);
    // Truncated stream, corrupt stream, and a stream that inflates to the wrong size either way.
    expectInvalid(() => decompress('zip', packed.subarray(0, packed.length - 20), ZIP_BLOCK, 500));
    const corrupt = packed.slice();
    corrupt.set([packed[10]! ^ 0xff, packed[11]! ^ 0x55], 10);
    expectInvalid(() => decompress('zip', corrupt, ZIP_BLOCK, 500));
    expectInvalid(() => decompress('zip', packed, { ...ZIP_BLOCK, heightPx: 3 }, 380));
    const short = new Uint8Array(zlib.deflateSync(new Uint8Array(499)));
    expectInvalid(() => decompress('zip', short, ZIP_BLOCK, 500));
  });

  it('bounds output memory by the expected size', () => {
    // A small stream that inflates to 64 MB must fail without inflating it all.
    const bomb = new Uint8Array(zlib.deflateSync(new Uint8Array(64 << 20), { level: 9 }));
    expect(bomb.length).toBeLessThan(100_000);
    expectInvalid(() => decompress('zip', bomb, ZIP_BLOCK, 500));
  });
});
