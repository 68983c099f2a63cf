// PXR24: inflate the byte planes, then per line run undo the big-endian plane split and the delta coding (pxr24.ts).
#include "kernels.h"

/* Bytes per sample in the PXR24 stream: float keeps its top 24 bits. */
static uint32_t coded_bytes_per_sample(int32_t pixelType) { return pixelType == EXR_HALF ? 2 : pixelType == EXR_FLOAT ? 3 : 4; }

int exr_pxr24_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint8_t *dst, size_t dstBytes) {
  if (layout->totalBytes != dstBytes) {
    return exr_fail(ctx, "PXR24 chunk layout holds %llu bytes, expected %zu", (unsigned long long)layout->totalBytes, dstBytes);
  }
  uint64_t codedBytes = 0;
  for (int32_t c = 0; c < layout->channelCount; c++) {
    codedBytes += (uint64_t)LAYOUT_WIDTH(layout, c) * (uint64_t)LAYOUT_HEIGHT(layout, c) * coded_bytes_per_sample(LAYOUT_TYPE(layout, c));
  }
  uint8_t *coded = exr_scratch(ctx, SCRATCH_INFLATED, (size_t)codedBytes);
  if (!coded) return EXR_FAIL;
  if (exr_inflate_exact(ctx, src, srcBytes, coded, (size_t)codedBytes, "PXR24") != EXR_OK) return EXR_FAIL;

  const uint8_t *in = coded;
  uint8_t *out = dst;
  for (int32_t r = 0; r < layout->rowCount; r++) {
    const int32_t c = layout->rows[r];
    const size_t samples = (size_t)LAYOUT_WIDTH(layout, c);
    // Delta decoding wraps modulo 2^16 (half) or 2^32 (uint, float), as OpenEXR's unsigned arithmetic.
    switch (LAYOUT_TYPE(layout, c)) {
    case EXR_HALF: {
      const uint8_t *p0 = in, *p1 = in + samples;
      uint16_t pixel = 0;
      for (size_t x = 0; x < samples; x++) {
        pixel = (uint16_t)(pixel + ((p0[x] << 8) | p1[x]));
        store_le16(out + 2 * x, pixel);
      }
      in += 2 * samples;
      out += 2 * samples;
      break;
    }
    case EXR_FLOAT: {
      const uint8_t *p0 = in, *p1 = in + samples, *p2 = in + 2 * samples;
      uint32_t pixel = 0;
      for (size_t x = 0; x < samples; x++) {
        pixel += ((uint32_t)p0[x] << 24) | ((uint32_t)p1[x] << 16) | ((uint32_t)p2[x] << 8);
        store_le32(out + 4 * x, pixel);
      }
      in += 3 * samples;
      out += 4 * samples;
      break;
    }
    default: {
      const uint8_t *p0 = in, *p1 = in + samples, *p2 = in + 2 * samples, *p3 = in + 3 * samples;
      uint32_t pixel = 0;
      for (size_t x = 0; x < samples; x++) {
        pixel += ((uint32_t)p0[x] << 24) | ((uint32_t)p1[x] << 16) | ((uint32_t)p2[x] << 8) | p3[x];
        store_le32(out + 4 * x, pixel);
      }
      in += 4 * samples;
      out += 4 * samples;
      break;
    }
    }
  }
  return EXR_OK;
}
