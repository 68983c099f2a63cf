import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { ExrError } from '../core/errors.js';
import { decompressB44 } from './b44.js';
import { b44LogTable } from './b44-log-table.js';
import { decompress } from './index.js';
import { arbBlock, channel, chunkBytes, fromBase64, expectInvalid } from '../../testing/codec/test-layouts.js';
import type { BlockLayout } from '../core/types.js';

/**
 * The first chunk of a 10x6 image at (-4, 2) with float F, half H, pLinear half P, 2x2-subsampled
 * half S and uint U (so partial blocks on the right and bottom, and a 5x3 subsampled plane),
 * written by OpenEXR 3.1; the expected bytes are what OpenEXR decodes from it.
 */
const OPENEXR_BLOCK: BlockLayout = {
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
  heightPx: 6,
};
const OPENEXR_B44 =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwAAAD8AAAA/AAAAPwAAAD+2N41EyHCJRGsAZUT7bhdEjqZdQxM6TMMAAAA/AAAAPwAAAD8AAAA/msybRA+zlkQhcX1EFXglRAmkdENZKlHDAAAAPwAAAD8AAAA/AAAAP5dQsEQaOKhEXs+LRPNQPkRwv4NDULp5wzKIAkJXcQ1EQeOERIx/rkTgzMFEh6q+RG9Wm0Sj+k1EAAAAPwAAAD+WQ1lBYJIgREq6lUTIdMRET2fYROnL00QYCrBEO0lmRAAAAD8AAAA/vAACCCCCCCCCCCCCCCDAvR4WGGX58I02D5lascBLKfghffDCggggggggwg4aCCBuOOOhllkammnCtCn4IHhBBIe++34IILwAAggggggggggggggguYACCCCCCCCCCCCCCCDFhiL0JsFKKUqkjWVLNM2EITslXpaPggggggggyAMhSCCnbbZs88+COOPAhiLoIM0kkl7rrn4oormAAggggggggggggggggJonyKDWCCCKCCCGCCCyTRvbYIIIIIIIIIIIICoAAAAqAAAAKgAAACoAAABWP954o9wVFzk9TbUZVYRTrOq78RO7848qAAAAKgAAACoAAAAqAAAAXMzeeBoxFhdg1k214maFUxzcvPEwAfSPKgAAACoAAAAqAAAAKgAAAJGL33ghDRcXqlhOtX3jhVMePb3xnOD0jyoAAAAqAAAAKgAAACoAAADCA+B4r6cXF9YDT7UUVoZT5LC98TWL9Y9UzwIAFBU6nr2acTyrDqnaPb3geDJPGBfBkU+1dSSHUyoAAAAqAAAAfnkDAEmgOp67MHI8UOWp2mY64XiZihgX3BRQtVzIh1MqAAAAKgAAAA==';
const OPENEXR_B44_DECODED =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwA8ADwAPAA8vUA9Pb0+vUFLQEs8/8H/wf/B/8HWSntQCUyHRjBOCEqaAJoqmi6aME0yKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjwAAAD8AAAA/AAAAPwAAAD+2N41EyHCJRGsAZUT7bhdEjqZdQxM6TMMAPAA8ADwAPD1BvUA9Or00SzxLOP/B/8H/wf/BSFBoTOlPgEuERs1MKgAAACoAAAAqAAAAKgAAAFzM3ngaMRYXYNZNteJmhVMc3LzxMAH0jwAAAD8AAAA/AAAAPwAAAD+azJtED7OWRCFxfUQVeCVECaR0Q1kqUcMAPAA8ADwAPD09vUC9PL1BSzy0t//B/8H/wf/BCUrLTdNDI03KTX9LmjiaOJo4mjiNOSoAAAAqAAAAKgAAACoAAACRi994IQ0XF6pYTrV944VTHj298Zzg9I8AAAA/AAAAPwAAAD8AAAA/l1CwRBo4qERez4tE81A+RHC/g0NQunnDADwAPAA8ADw9OT1BvTg9QUtAtLf/wf/B/8H/wSNNGVCHRkhQk0+ERioAAAAqAAAAKgAAACoAAADCA+B4r6cXF9YDT7UUVoZT5LC98TWL9Y8yiAJCV3ENREHjhESMf65E4MzBRIeqvkRvVptEo/pNRAAAAD8AAAA/DkLOQM5CTjy0QrQ6tD60OgA8ADwqTGJPjU2NTYdGGVAjTc5M/8H/wZo8mjyaPJo8zTxUzwIAFBU6nr2acTyrDqnaPb3geDJPGBfBkU+1dSSHUyoAAAAqAAAAlkNZQWCSIERKupVEyHTERE9n2ETpy9NEGAqwRDtJZkQAAAA/AAAAPw5CzkIOQU5DtD5LsbQ6tDoAPAA8/iW/T1lHj0mGTodGhk4tT//B/8F+eQMASaA6nrswcjxQ5anaZjrheJmKGBfcFFC1XMiHUyoAAAAqAAAA';
const OPENEXR_B44A =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwAAAD8AAAA/AAAAPwAAAD+2N41EyHCJRGsAZUT7bhdEjqZdQxM6TMMAAAA/AAAAPwAAAD8AAAA/msybRA+zlkQhcX1EFXglRAmkdENZKlHDAAAAPwAAAD8AAAA/AAAAP5dQsEQaOKhEXs+LRPNQPkRwv4NDULp5wzKIAkJXcQ1EQeOERIx/rkTgzMFEh6q+RG9Wm0Sj+k1EAAAAPwAAAD+WQ1lBYJIgREq6lUTIdMRET2fYROnL00QYCrBEO0lmRAAAAD8AAAA/vAD8wL0eFhhl+fCNNg+ZWrHASyn4IX3wwoIIIIIIIMIOGgggbjjjoZZZGpppwrQp+CB4QQSHvvt+CCC8APy5gPzFhiL0JsFKKUqkjWVLNM2EITslXpaPggggggggyAMhSCCnbbZs88+COOPAhiLoIM0kkl7rrn4oormA/ICaJ8ig1gggiggghgggsk0b22CCCCCCCCCCCCAqAAAAKgAAACoAAAAqAAAAVj/eeKPcFRc5PU21GVWEU6zqu/ETu/OPKgAAACoAAAAqAAAAKgAAAFzM3ngaMRYXYNZNteJmhVMc3LzxMAH0jyoAAAAqAAAAKgAAACoAAACRi994IQ0XF6pYTrV944VTHj298Zzg9I8qAAAAKgAAACoAAAAqAAAAwgPgeK+nFxfWA0+1FFaGU+SwvfE1i/WPVM8CABQVOp69mnE8qw6p2j294HgyTxgXwZFPtXUkh1MqAAAAKgAAAH55AwBJoDqeuzByPFDlqdpmOuF4mYoYF9wUULVcyIdTKgAAACoAAAA=';
const OPENEXR_B44A_DECODED =
  'AAAAPwAAAD8AAAA/AAAAP3ncfUSZc3hEOyNJRCZrCkT/x0JD5wo7wwA8ADwAPAA8vUA9Pb0+vUFLQEs8/8H/wf/B/8HWSntQCUyHRjBOCEqaAJoqmi6aME0yKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjwAAAD8AAAA/AAAAPwAAAD+2N41EyHCJRGsAZUT7bhdEjqZdQxM6TMMAPAA8ADwAPD1BvUA9Or00SzxLOP/B/8H/wf/BSFBoTOlPgEuERs1MKgAAACoAAAAqAAAAKgAAAFzM3ngaMRYXYNZNteJmhVMc3LzxMAH0jwAAAD8AAAA/AAAAPwAAAD+azJtED7OWRCFxfUQVeCVECaR0Q1kqUcMAPAA8ADwAPD09vUC9PL1BSzy0t//B/8H/wf/BCUrLTdNDI03KTX9LmjiaOJo4mjiNOSoAAAAqAAAAKgAAACoAAACRi994IQ0XF6pYTrV944VTHj298Zzg9I8AAAA/AAAAPwAAAD8AAAA/l1CwRBo4qERez4tE81A+RHC/g0NQunnDADwAPAA8ADw9OT1BvTg9QUtAtLf/wf/B/8H/wSNNGVCHRkhQk0+ERioAAAAqAAAAKgAAACoAAADCA+B4r6cXF9YDT7UUVoZT5LC98TWL9Y8yiAJCV3ENREHjhESMf65E4MzBRIeqvkRvVptEo/pNRAAAAD8AAAA/DkLOQM5CTjy0QrQ6tD60OgA8ADwqTGJPjU2NTYdGGVAjTc5M/8H/wZo8mjyaPJo8zTxUzwIAFBU6nr2acTyrDqnaPb3geDJPGBfBkU+1dSSHUyoAAAAqAAAAlkNZQWCSIERKupVEyHTERE9n2ETpy9NEGAqwRDtJZkQAAAA/AAAAPw5CzkIOQU5DtD5LsbQ6tDoAPAA8/iW/T1lHj0mGTodGhk4tT//B/8F+eQMASaA6nrswcjxQ5anaZjrheJmKGBfcFFC1XMiHUyoAAAAqAAAA';

const oneHalf = (widthPx: number, heightPx: number, pLinear = false): BlockLayout => ({
  channels: [channel('Y', 'half', 1, 1, pLinear)],
  x0: 0,
  y0: 0,
  widthPx,
  heightPx,
});

/** A 14-byte block: first value code 0xbc00 (1.0), the first column steps +1 code once (r[0] = 0x21), all else flat. */
const STEP_BLOCK = [0xbc, 0x00, 0x02, 0x18, 0x20, 0x82, 0x08, 0x20, 0x82, 0x08, 0x20, 0x82, 0x08, 0x20];

function halves(bytes: Uint8Array): number[] {
  return Array.from({ length: bytes.length / 2 }, (_, i) => bytes[2 * i]! | (bytes[2 * i + 1]! << 8));
}

describe('B44 and B44A', () => {
  it('decode chunks written by OpenEXR', () => {
    expect(chunkBytes(OPENEXR_BLOCK)).toBe(750);
    expect(decompress('b44', fromBase64(OPENEXR_B44), OPENEXR_BLOCK, 750)).toEqual(fromBase64(OPENEXR_B44_DECODED));
    expect(decompress('b44a', fromBase64(OPENEXR_B44A), OPENEXR_BLOCK, 750)).toEqual(fromBase64(OPENEXR_B44A_DECODED));
  });

  it('unpacks 14-byte blocks: first column, then each row, in 6-bit steps', () => {
    const out = decompressB44(new Uint8Array(STEP_BLOCK), oneHalf(4, 4), 32);
    expect(halves(out)).toEqual([...Array(4).fill(0x3c00), ...Array(12).fill(0x3c01)]);
  });

  it('drops the padding of partial blocks at the right and bottom edges', () => {
    const out = decompressB44(new Uint8Array(STEP_BLOCK), oneHalf(3, 2), 12);
    expect(halves(out)).toEqual([0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01, 0x3c01]);
  });

  it('unpacks 3-byte flat blocks (in B44 too), negative values included', () => {
    // Code 0xbc00 is +1.0; code 0x43ff (top bit clear) is ~0x43ff = 0xbc00, -1.0.
    const flat = new Uint8Array([0xbc, 0x00, 0xfc, 0x43, 0xff, 0xfc]);
    const out = decompressB44(flat, oneHalf(8, 1), 16);
    expect(halves(out)).toEqual([...Array(4).fill(0x3c00), ...Array(4).fill(0xbc00)]);
  });

  it('maps pLinear channels through 8 * log(x), computed like OpenEXR', () => {
    const table = b44LogTable();
    // Checked value by value against OpenEXR 3.1 decoding a file of flat blocks with all 65536 codes.
    expect(createHash('sha256').update(new Uint8Array(table.buffer)).digest('hex')).toBe(
      '92de2787a44544c6e4d54f942f38cf50453b342f179189dbaeb514743fc9109f',
    );
    expect(table[0x3c00]).toBe(0x0000); // log(1) = 0
    expect(table[0x3800]).toBe(0xc58c); // 8 * log(0.5) = -5.545
    expect(table[0x0000]).toBe(0xfc00); // log(0) = -Inf
    expect(table[0x8000]).toBe(0xfc00); // -0 too
    expect(table[0x8001]).toBe(0x0000); // negative values map to 0
    expect(table[0x7c00]).toBe(0x0000); // so do Inf and NaN
    const out = decompressB44(new Uint8Array([0xb8, 0x00, 0xfc]), oneHalf(4, 4, true), 32);
    expect(halves(out)).toEqual(Array(16).fill(0xc58c));
  });

  it('rejects truncated and overlong chunks', () => {
    const packed = fromBase64(OPENEXR_B44);
    for (let length = 0; length < packed.length; length += 7) {
      expectInvalid(() => decompressB44(packed.subarray(0, length), OPENEXR_BLOCK, 750));
    }
    const longer = new Uint8Array(packed.length + 1);
    longer.set(packed);
    expectInvalid(() => decompress('b44', longer, OPENEXR_BLOCK, 750));
    expectInvalid(() => decompress('b44', packed, OPENEXR_BLOCK, 748));
  });

  it('never reads past its input or returns the wrong size, whatever the bytes', () => {
    fc.assert(
      fc.property(arbBlock(['half', 'half', 'float', 'uint']), fc.uint8Array({ maxLength: 2000 }), (block, src) => {
        const expected = chunkBytes(block);
        try {
          expect(decompressB44(src, block, expected).length).toBe(expected);
        } catch (error) {
          expect(error).toBeInstanceOf(ExrError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
