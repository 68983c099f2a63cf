// PNG from 8-bit RGBA (alpha dropped) on the calling thread with the native kernels (png.c, libdeflate): how a decode
// worker hands back a thumbnail as the file's bytes. Null where the kernels did not load: sharp encodes then (encode.ts).

import { nativeKernels } from '../../codec/index.js';

/**
 * libdeflate's fastest level: on 256-pixel thumbnails of the 4K bench set, 1.0 ms an image against 1.9 ms at level 6
 * for 4% more bytes, and still 23% fewer bytes than sharp's default PNGs.
 */
export const PNG_LEVEL = 1;

/** The PNG's bytes, or null without the native kernels. */
export function pngFromRgba8(rgba8: Uint8Array | Uint8ClampedArray, widthPx: number, heightPx: number): ArrayBuffer | null {
  if (!nativeKernels) return null;
  return nativeKernels.pngRgb8(new Uint8Array(rgba8.buffer, rgba8.byteOffset, rgba8.byteLength), widthPx, heightPx, PNG_LEVEL);
}
