/* DWA's RLE channels: one channel's decoded byte planes (all low bytes, then the next byte, ...) into its rows of
 * little-endian samples in the chunk. The TypeScript version is copyRlePlane in codec/compression/dwa.ts. */
#include "kernels.h"

int exr_dwa_rle_plane(ExrContext *ctx, const uint8_t *data, size_t dataBytes, size_t start, size_t width, size_t height, int wide,
                      const int32_t *rowOffsets, size_t rowOffsetCount, uint8_t *out, size_t outBytes) {
  const size_t bytesPerSample = wide ? 4 : 2;
  const uint64_t planeSamples = (uint64_t)width * height;
  if (rowOffsetCount < height) return exr_fail(ctx, "DWA RLE plane has %zu row offsets for %zu rows", rowOffsetCount, height);
  if ((uint64_t)start + planeSamples * bytesPerSample > dataBytes) return exr_fail(ctx, "DWA RLE data is shorter than its channels");
  const uint64_t rowBytes = (uint64_t)width * bytesPerSample;
  for (size_t row = 0; row < height; row++) {
    if (rowOffsets[row] < 0 || (uint64_t)rowOffsets[row] + rowBytes > outBytes)
      return exr_fail(ctx, "DWA RLE row %zu lies outside the chunk", row);
  }
  for (size_t row = 0; row < height; row++) {
    const uint8_t *b0 = data + start + row * width;
    const uint8_t *b1 = b0 + planeSamples;
    uint8_t *dst = out + rowOffsets[row];
    if (wide) {
      const uint8_t *b2 = b1 + planeSamples, *b3 = b2 + planeSamples;
      for (size_t x = 0; x < width; x++) {
        dst[4 * x] = b0[x];
        dst[4 * x + 1] = b1[x];
        dst[4 * x + 2] = b2[x];
        dst[4 * x + 3] = b3[x];
      }
    } else {
      /* a byte interleave the compiler turns into vector unpacks */
      for (size_t x = 0; x < width; x++) {
        dst[2 * x] = b0[x];
        dst[2 * x + 1] = b1[x];
      }
    }
  }
  return EXR_OK;
}
