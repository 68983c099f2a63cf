// PIZ: bitmap and reverse LUT, Huffman, the inverse wavelet per plane (wavelet.c), then LUT and reordering into lines (piz.ts).
#include <stdlib.h>

#include "kernels.h"

#define VALUE_RANGE 65536
#define BITMAP_BYTES (VALUE_RANGE >> 3)

/*
 * Fills lut from the bitmap bytes [minNonZero, maxNonZero] and returns maxValue (used values - 1).
 * Entries past the used ones are kept zero: the used ones are 0 then strictly increasing, so the
 * stale tail of an earlier chunk is exactly the non-zero run that follows.
 */
static int32_t build_reverse_lut(const uint8_t *bitmap, uint32_t minNonZero, uint32_t maxNonZero, uint16_t *lut) {
  uint32_t k = 0;
  lut[k++] = 0; // zero is always present and never stored in the bitmap
  for (uint32_t byte = minNonZero; byte <= maxNonZero; byte++) {
    uint32_t bits = bitmap[byte - minNonZero];
    while (bits) {
      uint32_t value = byte * 8 + (uint32_t)__builtin_ctz(bits);
      bits &= bits - 1;
      if (value != 0) lut[k++] = (uint16_t)value;
    }
  }
  for (uint32_t i = k; i < VALUE_RANGE && lut[i] != 0; i++) lut[i] = 0;
  return (int32_t)k - 1;
}

/* Decodes up to the planes; returns maxValue or EXR_FAIL. */
static int32_t decode_planes(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint16_t *words,
                             uint16_t *lut) {
  if (srcBytes < 4) return exr_fail(ctx, "PIZ chunk is too short for its bitmap range");
  uint32_t minNonZero = load_le16(src), maxNonZero = load_le16(src + 2);
  if (maxNonZero >= BITMAP_BYTES) return exr_fail(ctx, "PIZ bitmap range ends at %u, beyond %d", maxNonZero, BITMAP_BYTES - 1);
  size_t pos = 4;
  int32_t maxValue = 0;
  if (minNonZero <= maxNonZero) {
    size_t length = maxNonZero - minNonZero + 1;
    if (pos + length > srcBytes) return exr_fail(ctx, "PIZ bitmap runs past the end of the chunk");
    maxValue = build_reverse_lut(src + pos, minNonZero, maxNonZero, lut);
    pos += length;
  } else {
    maxValue = build_reverse_lut(src, 1, 0, lut);
  }
  if (pos + 4 > srcBytes) return exr_fail(ctx, "PIZ chunk is too short for its Huffman length");
  uint32_t huffmanBytes = load_le32(src + pos);
  pos += 4;
  if (huffmanBytes > srcBytes - pos) return exr_fail(ctx, "PIZ Huffman block of %u bytes runs past the end of the chunk", huffmanBytes);
  if (exr_huffman_decode(ctx, src + pos, huffmanBytes, words, (size_t)layout->totalWords) != EXR_OK) return EXR_FAIL;

  uint64_t start = 0;
  for (int32_t c = 0; c < layout->channelCount; c++) {
    const int64_t width = LAYOUT_WIDTH(layout, c), height = LAYOUT_HEIGHT(layout, c);
    const int64_t wordsPerSample = exr_bytes_per_sample(LAYOUT_TYPE(layout, c)) / 2;
    const int64_t rowWords = width * wordsPerSample;
    exr_wav2_decode_channel(words + start, width, wordsPerSample, height, rowWords, maxValue);
    start += (uint64_t)(rowWords * height);
  }
  return maxValue;
}

static int check_size(ExrContext *ctx, const ExrLayout *layout, size_t expectedBytes) {
  if (layout->totalBytes != expectedBytes) {
    return exr_fail(ctx, "PIZ block of %llu bytes does not match the expected %zu", (unsigned long long)layout->totalBytes, expectedBytes);
  }
  return EXR_OK;
}

int32_t exr_piz_planes(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint16_t *words, uint16_t *lut) {
  return decode_planes(ctx, src, srcBytes, layout, words, lut);
}

int exr_piz_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint8_t *dst, size_t dstBytes) {
  if (check_size(ctx, layout, dstBytes) != EXR_OK) return EXR_FAIL;
  if (!ctx->reverseLut) ctx->reverseLut = (uint16_t *)calloc(VALUE_RANGE, sizeof(uint16_t));
  if (!ctx->reverseLut) return exr_fail(ctx, "out of memory allocating the PIZ LUT");
  uint16_t *planar = exr_scratch(ctx, SCRATCH_PLANAR, dstBytes);
  if (!planar) return EXR_FAIL;
  const int32_t maxValue = decode_planes(ctx, src, srcBytes, layout, planar, ctx->reverseLut);
  if (maxValue < 0) return EXR_FAIL;
  // The LUT is increasing from 0: it is the identity exactly when its last used entry maps to itself.
  const uint16_t *lut = ctx->reverseLut[maxValue] != maxValue ? ctx->reverseLut : NULL;

  // Each channel's next row: where its plane's rows start and how long they are.
  const int32_t channelCount = layout->channelCount;
  uint64_t *next = channelCount ? exr_scratch(ctx, SCRATCH_LAYOUT, 2 * (size_t)channelCount * sizeof(uint64_t)) : NULL;
  if (channelCount && !next) return EXR_FAIL;
  uint64_t *rowWords = next + channelCount;
  uint64_t start = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    next[c] = start;
    rowWords[c] = (uint64_t)LAYOUT_WIDTH(layout, c) * (exr_bytes_per_sample(LAYOUT_TYPE(layout, c)) / 2);
    start += rowWords[c] * (uint64_t)LAYOUT_HEIGHT(layout, c);
  }
  uint8_t *out = dst;
  for (int32_t r = 0; r < layout->rowCount; r++) {
    const int32_t c = layout->rows[r];
    const uint16_t *from = planar + next[c];
    const size_t count = (size_t)rowWords[c];
    next[c] += count;
    if (lut) {
      for (size_t k = 0; k < count; k++) store_le16(out + 2 * k, lut[from[k]]);
    } else {
      memcpy(out, from, 2 * count);
    }
    out += 2 * count;
  }
  return EXR_OK;
}
