// PXR24 (pxr24.ts): inflate the byte planes, then per line run undo the big-endian plane split and the delta coding;
// half runs eight samples a step with SIMD128 (a prefix sum over 16-bit lanes).
#include <wasm_simd128.h>

#include "kernels.h"

/* Bytes per sample in the PXR24 stream: float keeps its top 24 bits. */
static uint32_t coded_bytes_per_sample(int32_t pixelType) { return pixelType == EXR_HALF ? 2 : pixelType == EXR_FLOAT ? 3 : 4; }

/* A half run: samples of high bytes then low bytes, deltas summed modulo 2^16, into out (little-endian). */
static void half_run(const uint8_t *high, const uint8_t *low, uint8_t *out, size_t samples) {
  size_t x = 0;
  v128_t carry = wasm_i16x8_splat(0);
  for (; x + 8 <= samples; x += 8) {
    const v128_t h = wasm_v128_load64_zero(high + x), l = wasm_v128_load64_zero(low + x);
    /* lanes (low, high) as little-endian 16-bit deltas */
    v128_t v = wasm_i8x16_shuffle(l, h, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    v = wasm_i16x8_add(v, wasm_i8x16_shuffle(wasm_i16x8_splat(0), v, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29));
    v = wasm_i16x8_add(v, wasm_i8x16_shuffle(wasm_i16x8_splat(0), v, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
    v = wasm_i16x8_add(v, wasm_i8x16_shuffle(wasm_i16x8_splat(0), v, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
    v = wasm_i16x8_add(v, carry);
    wasm_v128_store(out + 2 * x, v);
    carry = wasm_i16x8_shuffle(v, v, 7, 7, 7, 7, 7, 7, 7, 7);
  }
  uint16_t pixel = (uint16_t)wasm_u16x8_extract_lane(carry, 0);
  for (; x < samples; x++) {
    pixel = (uint16_t)(pixel + ((high[x] << 8) | low[x]));
    store_le16(out + 2 * x, pixel);
  }
}

static void *codedKept;
static size_t codedKeptBytes;

/* A PXR24 chunk into dst (dstBytes, the layout's size): 0, or a failure negated. */
EXPORT("pxr24")
int32_t exr_pxr24(const uint8_t *src, size_t srcBytes, const int32_t *layoutWords, size_t layoutCount, uint8_t *dst, size_t dstBytes) {
  ExrLayout layout;
  const int32_t parsed = exr_layout_parse(layoutWords, layoutCount, &layout);
  if (parsed < 0) return parsed;
  if (layout.totalBytes != dstBytes) return exr_fail_n("PXR24 chunk layout holds ", (int64_t)layout.totalBytes, " bytes, not the chunk's");
  uint64_t codedBytes = 0;
  for (int32_t c = 0; c < layout.channelCount; c++)
    codedBytes +=
        (uint64_t)LAYOUT_WIDTH(&layout, c) * (uint64_t)LAYOUT_HEIGHT(&layout, c) * coded_bytes_per_sample(LAYOUT_TYPE(&layout, c));
  uint8_t *coded = exr_keep(&codedKept, &codedKeptBytes, (size_t)codedBytes);
  if (!coded) return -EXR_WASM_NO_MEMORY;
  const int64_t written = exr_inflate_into(src, srcBytes, coded, (size_t)codedBytes);
  if (written == -EXR_WASM_TOO_LONG) return exr_fail_n("PXR24 data inflates to more than ", (int64_t)codedBytes, " bytes");
  if (written == -EXR_WASM_NO_MEMORY) return (int32_t)written;
  if (written < 0) return exr_fail("PXR24 data is not a valid zlib stream (corrupt or truncated)");
  if ((uint64_t)written != codedBytes) return exr_fail_n("PXR24 data inflates to ", written, " bytes, fewer than the chunk's planes");

  const uint8_t *in = coded;
  uint8_t *out = dst;
  for (int32_t r = 0; r < layout.rowCount; r++) {
    const int32_t c = layout.rows[r];
    const size_t samples = (size_t)LAYOUT_WIDTH(&layout, c);
    /* delta decoding wraps modulo 2^16 (half) or 2^32 (uint, float), as OpenEXR's unsigned arithmetic */
    switch (LAYOUT_TYPE(&layout, c)) {
    case EXR_HALF:
      half_run(in, in + samples, out, samples);
      in += 2 * samples;
      out += 2 * samples;
      break;
    case EXR_FLOAT: {
      const uint8_t *p0 = in, *p1 = in + samples, *p2 = in + 2 * samples;
      uint32_t pixel = 0;
      for (size_t x = 0; x < samples; x++) {
        pixel += ((uint32_t)p0[x] << 24) | ((uint32_t)p1[x] << 16) | ((uint32_t)p2[x] << 8);
        __builtin_memcpy(out + 4 * x, &pixel, 4);
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
        __builtin_memcpy(out + 4 * x, &pixel, 4);
      }
      in += 4 * samples;
      out += 4 * samples;
      break;
    }
    }
  }
  return 0;
}
