import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import zlib from 'node:zlib';
import { compressPxr24, decompressPxr24, floatBitsTo24 } from './pxr24.js';
import { decompress } from './index.js';
import { arbChunk, channel, chunkBytes, fromBase64, lineRuns, expectInvalid } from '../../testing/codec/test-layouts.js';
import type { BlockLayout } from '../core/types.js';

/**
 * The first chunk of a 10x4 image at (-4, 2) with float F, half H, pLinear half P, 2x2-subsampled
 * half S and uint U, written by OpenEXR 3.1 (PXR24); the expected bytes are what OpenEXR decodes.
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
  heightPx: 4,
};
const OPENEXR_PXR24 =
  'eJyzZ2BgYP0PBPVABkPtrwsHLX6AWHdmrPeIdbYBslj+MDL9+wMSW7Sp5sj2qYeArA7W3z85foPErs12+djVyKDFwsTIkMaQPhMkVjEPBECse+YgAGLZz00Qn3pBC8jS8Z32YHK6PYq9vX9ub3J7B2JZWPbnW0y2Acv+/MX2DyRmEPNGvL0HZG/fH+bfv9hAYi7srQ0Xd+Ky7UzK0gmlqiDbjPa5NVmJoNo2+9ezFf53QKyzz/ax67SBbGNk/s36AyzLevc2wyl2kG3tLN84Gf6CxKaLRor2llmAmAxp6WnpqPbeh9vb3ejdFbkYZG/6hM7LC+tQ7d3w/fEm168gVuDz6U15v0H2/uX4zvGvCiSWwi1bxTABZG8X81eu/99BYn+kznp58KLa9gBuG/PimKCoWyDbZrxVt7sQCADx05TQ';
const OPENEXR_PXR24_DECODED =
  'AAAAPwAAAD8AAAA/AAAAPwDcfUQAdHhEACNJRABrCkQAyEJDAAs7wwA8ADwAPAA8okBUPdA+lEFLQOA8AMIAwgDCAMLWSnFQtUumRTBOsUkAAGYqZi7NMGYyKgAAACoAAAAqAAAAKgAAAFY/3nij3BUXOT1NtRlVhFOs6rvxE7vzjwAAAD8AAAA/AAAAPwAAAD8AOI1EAHGJRAAAZUQAbxdEAKddQwA6TMMAPAA8ADwAPDBBjEB4Oo80FjuiOQDCAMIAwgDCRFBLTNBPUEshRtpMKgAAACoAAAAqAAAAKgAAAFzM3ngaMRYXYNZNteJmhVMc3LzxMAH0jwAAAD8AAAA/AAAAPwAAAD8AzZtEALOWRABxfUQAeCVEAKR0QwAqUcMAPAA8ADwAPAU94kC9PL1BhzqOuQDCAMIAwgDCl0msTQVEGk2nTR1LADhmOM04MzmaOSoAAAAqAAAAKgAAACoAAACRi994IQ0XF6pYTrV944VTHj298Zzg9I8AAAA/AAAAPwAAAD8AAAA/AFGwRAA4qEQAz4tEAFE+RAC/g0MAunnDADwAPAA8ADxkOW9BjDgGQQY/lrkAwgDCAMIAwvxMFlDjRS1QdU+CRioAAAAqAAAAKgAAACoAAADCA+B4r6cXF9YDT7UUVoZT5LC98TWL9Y8=';

/** What PXR24 keeps of a chunk: float samples rounded to 24 bits, everything else as is. */
function pxr24Rounded(raw: Uint8Array, block: BlockLayout): Uint8Array {
  const out = raw.slice();
  const view = new DataView(out.buffer);
  for (const run of lineRuns(block).runs) {
    if (run.channel.pixelType !== 'float') continue;
    for (let i = 0; i < run.samples; i++) {
      const at = run.byteOffset + 4 * i;
      view.setUint32(at, (floatBitsTo24(view.getUint32(at, true)) << 8) >>> 0, true);
    }
  }
  return out;
}

describe('PXR24', () => {
  it('decodes a chunk written by OpenEXR', () => {
    expect(chunkBytes(OPENEXR_BLOCK)).toBe(500);
    expect(decompress('pxr24', fromBase64(OPENEXR_PXR24), OPENEXR_BLOCK, 500)).toEqual(fromBase64(OPENEXR_PXR24_DECODED));
  });

  it('rounds floats to 24 bits like OpenEXR', () => {
    expect(floatBitsTo24(0x3f800000)).toBe(0x3f8000); // 1.0
    expect(floatBitsTo24(0x3f80007f)).toBe(0x3f8000); // rounds down
    expect(floatBitsTo24(0x3f800080)).toBe(0x3f8001); // half-way rounds up
    expect(floatBitsTo24(0xbf800080)).toBe(0xbf8001); // sign kept
    expect(floatBitsTo24(0x3fffff80)).toBe(0x400000); // carries into the exponent
    expect(floatBitsTo24(0x7f7fffff)).toBe(0x7f7fff); // FLT_MAX truncates instead of overflowing
    expect(floatBitsTo24(0x7f800000)).toBe(0x7f8000); // +Inf
    expect(floatBitsTo24(0xff800000)).toBe(0xff8000); // -Inf
    expect(floatBitsTo24(0x7fc00000)).toBe(0x7fc000); // NaN
    expect(floatBitsTo24(0x7f800001)).toBe(0x7f8001); // NaN whose kept bits are zero stays NaN
  });

  it('codes each line as delta byte planes, most significant plane first', () => {
    const block = { channels: [channel('H', 'half'), channel('U', 'uint')], x0: 0, y0: 0, widthPx: 2, heightPx: 1 };
    // H: 0x0102, 0x0304; U: 0x01020304, 0x01020305.
    const raw = new Uint8Array([0x02, 0x01, 0x04, 0x03, 0x04, 0x03, 0x02, 0x01, 0x05, 0x03, 0x02, 0x01]);
    const planes = zlib.inflateSync(compressPxr24(raw, block));
    // H deltas 0x0102, 0x0202; U deltas 0x01020304, 0x00000001.
    expect([...planes]).toEqual([0x01, 0x02, 0x02, 0x02, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04, 0x01]);
    expect(decompressPxr24(compressPxr24(raw, block), block, 12)).toEqual(raw);
  });

  it('round-trips half and uint exactly and floats to 24 bits, for any layout', () => {
    fc.assert(
      fc.property(arbChunk(), ({ block, raw }) => {
        expect(decompressPxr24(compressPxr24(raw, block), block, raw.length)).toEqual(pxr24Rounded(raw, block));
      }),
      { numRuns: 150 },
    );
  });

  it('rejects damaged data', () => {
    const packed = fromBase64(OPENEXR_PXR24);
    expectInvalid(() => decompress('pxr24', packed.subarray(0, 100), OPENEXR_BLOCK, 500));
    // The stream is exact for its layout: one line less or more does not fit.
    expectInvalid(() => decompress('pxr24', packed, { ...OPENEXR_BLOCK, heightPx: 3 }, 380));
    expectInvalid(() => decompress('pxr24', packed, { ...OPENEXR_BLOCK, widthPx: 12 }, 604));
    // A layout that disagrees with the expected size.
    expectInvalid(() => decompress('pxr24', packed, OPENEXR_BLOCK, 501));
  });
});
