// PNG from 8-bit RGBA (alpha dropped) on the calling thread with the native kernels (png.c, libdeflate): how a decode
// worker hands back a thumbnail as the file's bytes. Null where the kernels did not load: sharp encodes then (encode.ts).

import { nativeKernels } from '../../codec/index.js';

/**
 * libdeflate's fastest level: thumbnails are small, so encoding time matters more than the few percent of bytes a
 * higher level saves (still fewer bytes than sharp's default PNGs).
 */
export const PNG_LEVEL = 1;

/** The PNG's bytes, or null without the native kernels. */
export function pngFromRgba8(rgba8: Uint8Array | Uint8ClampedArray, widthPx: number, heightPx: number): ArrayBuffer | null {
  if (!nativeKernels) return null;
  return nativeKernels.pngRgb8(new Uint8Array(rgba8.buffer, rgba8.byteOffset, rgba8.byteLength), widthPx, heightPx, PNG_LEVEL);
}
