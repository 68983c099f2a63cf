// ZIP, ZIPS and RLE: libdeflate zlib inflation or byte RLE, then the predictor and byte reordering of predictor.ts.
#include <libdeflate.h>

#include "kernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static struct libdeflate_decompressor *inflater_of(ExrContext *ctx) {
  if (!ctx->inflater) ctx->inflater = libdeflate_alloc_decompressor();
  if (!ctx->inflater) exr_fail(ctx, "out of memory allocating a zlib decompressor");
  return ctx->inflater;
}

int64_t exr_inflate(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  struct libdeflate_decompressor *inflater = inflater_of(ctx);
  if (!inflater) return EXR_FAIL;
  size_t written = 0;
  enum libdeflate_result result = libdeflate_zlib_decompress(inflater, src, srcBytes, dst, dstBytes, &written);
  if (result == LIBDEFLATE_INSUFFICIENT_SPACE) return exr_fail(ctx, "zlib data inflates to more than %zu bytes", dstBytes);
  if (result != LIBDEFLATE_SUCCESS) return exr_fail(ctx, "zlib data is corrupt or truncated");
  return (int64_t)written;
}

int exr_inflate_exact(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes, const char *what) {
  struct libdeflate_decompressor *inflater = inflater_of(ctx);
  if (!inflater) return EXR_FAIL;
  size_t written = 0;
  enum libdeflate_result result = libdeflate_zlib_decompress(inflater, src, srcBytes, dst, dstBytes, &written);
  if (result == LIBDEFLATE_INSUFFICIENT_SPACE) return exr_fail(ctx, "%s data inflates to more than %zu bytes", what, dstBytes);
  if (result != LIBDEFLATE_SUCCESS) return exr_fail(ctx, "%s data is not a valid zlib stream (corrupt or truncated)", what);
  if (written != dstBytes) return exr_fail(ctx, "%s data inflates to %zu bytes, expected %zu", what, written, dstBytes);
  return EXR_OK;
}

/*
 * The predictor stores each byte but the first as (byte - previous + 128) mod 256 over the two
 * halves (even-indexed bytes, then odd-indexed ones) with one running sum across both. Decoding
 * is a byte-wise prefix sum: 16 bytes at a time with SSE2 (part of every x86-64), where only the
 * carry between vectors is serial.
 */

#if defined(__SSE2__)
/** Byte-wise inclusive prefix sum of one vector (mod 256). */
static inline __m128i prefix_sum16(__m128i v) {
  v = _mm_add_epi8(v, _mm_slli_si128(v, 1));
  v = _mm_add_epi8(v, _mm_slli_si128(v, 2));
  v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
  return _mm_add_epi8(v, _mm_slli_si128(v, 8));
}

/** Every byte set to byte 15 of v. */
static inline __m128i broadcast_last(__m128i v) {
  __m128i high = _mm_unpackhi_epi8(v, v);
  return _mm_shuffle_epi32(_mm_shufflehi_epi16(high, 0xff), 0xff);
}
#endif

/** Prefix-sums bytes[0..count) in place with the bias removed, starting from `running`; returns the last sum. */
static uint8_t unbias_prefix(uint8_t *bytes, size_t count, uint8_t running) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i bias = _mm_set1_epi8((char)0x80);
  __m128i carry = _mm_set1_epi8((char)running);
  for (; i + 16 <= count; i += 16) {
    __m128i sums = prefix_sum16(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(bytes + i)), bias));
    // The serial chain is one add per vector: the block total is computed off it.
    _mm_storeu_si128((__m128i *)(bytes + i), _mm_add_epi8(sums, carry));
    carry = _mm_add_epi8(carry, broadcast_last(sums));
  }
  running = (uint8_t)_mm_cvtsi128_si32(carry);
#endif
  for (; i < count; i++) {
    running = (uint8_t)(running + bytes[i] - 128);
    bytes[i] = running;
  }
  return running;
}

/** dst[2i] = first[i], dst[2i + 1] = second[i] for i < pairs. */
static void interleave(const uint8_t *first, const uint8_t *second, uint8_t *dst, size_t pairs) {
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= pairs; i += 16) {
    __m128i a = _mm_loadu_si128((const __m128i *)(first + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(second + i));
    _mm_storeu_si128((__m128i *)(dst + 2 * i), _mm_unpacklo_epi8(a, b));
    _mm_storeu_si128((__m128i *)(dst + 2 * i + 16), _mm_unpackhi_epi8(a, b));
  }
#endif
  for (; i < pairs; i++) {
    dst[2 * i] = first[i];
    dst[2 * i + 1] = second[i];
  }
}

/** Decodes in place in `coded` (both halves), then interleaves into dst. */
static void unpredict_in_scratch(uint8_t *coded, uint8_t *dst, size_t byteCount) {
  if (byteCount == 0) return;
  size_t firstHalfBytes = (byteCount + 1) / 2;
  size_t secondHalfBytes = byteCount - firstHalfBytes;
  // The first byte has no bias: start the running sum at +128 to cancel the one removed from it.
  uint8_t running = unbias_prefix(coded, firstHalfBytes, 128);
  unbias_prefix(coded + firstHalfBytes, secondHalfBytes, running);
  interleave(coded, coded + firstHalfBytes, dst, secondHalfBytes);
  if (byteCount % 2 == 1) dst[byteCount - 1] = coded[firstHalfBytes - 1];
}

/* zlib, then the predictor and reorder; failures name `what`. */
static int zip_named_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes, const char *what) {
  uint8_t *coded = exr_scratch(ctx, SCRATCH_INFLATED, dstBytes);
  if (!coded) return EXR_FAIL;
  if (exr_inflate_exact(ctx, src, srcBytes, coded, dstBytes, what) != EXR_OK) return EXR_FAIL;
  unpredict_in_scratch(coded, dst, dstBytes);
  return EXR_OK;
}

int exr_zip_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  return zip_named_into(ctx, src, srcBytes, dst, dstBytes, "ZIP");
}

/* DWA's DC section is coded as a ZIP chunk is. */
int exr_dwa_dc_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  return zip_named_into(ctx, src, srcBytes, dst, dstBytes, "DWA DC");
}

/* RLE: records open with a signed count c; c < 0: -c literal bytes follow; c >= 0: one byte, c + 1 times. Exactly
   dstBytes bytes into out, else a failure naming `what` and where its data lies (`within`: "the chunk"). */
static int rle_decode(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *out, size_t dstBytes, const char *what, const char *within) {
  size_t inPos = 0, outPos = 0;
  while (inPos < srcBytes) {
    uint8_t count = src[inPos];
    if (count >= 128) {
      size_t literalBytes = 256 - (size_t)count;
      if (inPos + 1 + literalBytes > srcBytes) return exr_fail(ctx, "%s literal run extends past the end of %s", what, within);
      if (outPos + literalBytes > dstBytes) return exr_fail(ctx, "%s data decompresses to more bytes than %s holds", what, within);
      memcpy(out + outPos, src + inPos + 1, literalBytes);
      outPos += literalBytes;
      inPos += 1 + literalBytes;
    } else {
      if (inPos + 1 >= srcBytes) return exr_fail(ctx, "%s run is missing its value byte", what);
      size_t runBytes = (size_t)count + 1;
      if (outPos + runBytes > dstBytes) return exr_fail(ctx, "%s data decompresses to more bytes than %s holds", what, within);
      memset(out + outPos, src[inPos + 1], runBytes);
      outPos += runBytes;
      inPos += 2;
    }
  }
  if (outPos != dstBytes) return exr_fail(ctx, "%s data decompresses to %zu bytes, expected %zu", what, outPos, dstBytes);
  return EXR_OK;
}

int exr_rle_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  uint8_t *coded = exr_scratch(ctx, SCRATCH_INFLATED, dstBytes);
  if (!coded) return EXR_FAIL;
  if (rle_decode(ctx, src, srcBytes, coded, dstBytes, "RLE", "the chunk") != EXR_OK) return EXR_FAIL;
  unpredict_in_scratch(coded, dst, dstBytes);
  return EXR_OK;
}

/* DWA's RLE section: the same records, no predictor, straight into dst. */
int exr_rle_bytes_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  return rle_decode(ctx, src, srcBytes, dst, dstBytes, "DWA RLE", "its section");
}
