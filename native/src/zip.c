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

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ZIP_X86_VECTORS 1

/** Byte-wise inclusive prefix sums of 64 bytes, unbiased, plus `carry` (every byte the running sum so far); the next
 * carry into *next. Each 16-byte lane is summed by shifts, then the lanes' totals are added across: the only serial
 * step from one vector to the next is the carry's add. */
__attribute__((target("avx512f,avx512bw"))) static inline __m512i prefix64(__m512i v, __m512i carry, __m512i *next) {
  const __m512i zero = _mm512_setzero_si512();
  v = _mm512_xor_si512(v, _mm512_set1_epi8((char)0x80));
  v = _mm512_add_epi8(v, _mm512_bslli_epi128(v, 1));
  v = _mm512_add_epi8(v, _mm512_bslli_epi128(v, 2));
  v = _mm512_add_epi8(v, _mm512_bslli_epi128(v, 4));
  v = _mm512_add_epi8(v, _mm512_bslli_epi128(v, 8));
  // each lane's total in all its bytes; then the totals of the lanes before each lane
  const __m512i totals = _mm512_shuffle_epi8(v, _mm512_set1_epi8(15));
  const __m512i before1 = _mm512_alignr_epi64(totals, zero, 6);
  const __m512i before2 = _mm512_alignr_epi64(_mm512_add_epi8(totals, before1), zero, 4);
  v = _mm512_add_epi8(v, _mm512_add_epi8(before1, before2));
  // the block's total (its last byte) in every byte, off the carry's chain
  const __m512i lanesLast = _mm512_shuffle_epi8(v, _mm512_set1_epi8(15));
  *next = _mm512_add_epi8(carry, _mm512_shuffle_i64x2(lanesLast, lanesLast, 0xff));
  return _mm512_add_epi8(v, carry);
}

/** unbias_prefix, 64 bytes at a time; the last bytes by unbias_prefix. */
__attribute__((target("avx512f,avx512bw"))) static uint8_t unbias_prefix_512(uint8_t *bytes, size_t count, uint8_t running) {
  __m512i carry = _mm512_set1_epi8((char)running);
  size_t i = 0;
  for (; i + 64 <= count; i += 64)
    _mm512_storeu_si512((void *)(bytes + i), prefix64(_mm512_loadu_si512((const void *)(bytes + i)), carry, &carry));
  return unbias_prefix(bytes + i, count - i, (uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(carry)));
}

/** The second half's prefix sums, 64 bytes at a time, interleaved with the (done) first half straight into dst: the
 * second half is never stored back. dst[2i] = first[i], dst[2i + 1] = second[i] for i < pairs; the last pairs by
 * unbias_prefix and interleave. */
__attribute__((target("avx512f,avx512bw"))) static void unbias_prefix_interleave_512(const uint8_t *first, uint8_t *second, uint8_t *dst,
                                                                                     size_t pairs, uint8_t running) {
  __m512i carry = _mm512_set1_epi8((char)running);
  // unpacklo/hi pair bytes within 16-byte lanes: these put the lanes' halves back in order
  const __m512i lowOrder = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
  const __m512i highOrder = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
  size_t i = 0;
  for (; i + 64 <= pairs; i += 64) {
    const __m512i b = prefix64(_mm512_loadu_si512((const void *)(second + i)), carry, &carry);
    const __m512i a = _mm512_loadu_si512((const void *)(first + i));
    const __m512i lo = _mm512_unpacklo_epi8(a, b), hi = _mm512_unpackhi_epi8(a, b);
    _mm512_storeu_si512((void *)(dst + 2 * i), _mm512_permutex2var_epi64(lo, lowOrder, hi));
    _mm512_storeu_si512((void *)(dst + 2 * i + 64), _mm512_permutex2var_epi64(lo, highOrder, hi));
  }
  unbias_prefix(second + i, pairs - i, (uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(carry)));
  interleave(first + i, second + i, dst + 2 * i, pairs - i);
}

/** prefix64 for 32 bytes with AVX2: the two lanes summed by shifts, the first lane's total added to the second. */
__attribute__((target("avx2"))) static inline __m256i prefix32(__m256i v, __m256i carry, __m256i *next) {
  v = _mm256_xor_si256(v, _mm256_set1_epi8((char)0x80));
  v = _mm256_add_epi8(v, _mm256_slli_si256(v, 1));
  v = _mm256_add_epi8(v, _mm256_slli_si256(v, 2));
  v = _mm256_add_epi8(v, _mm256_slli_si256(v, 4));
  v = _mm256_add_epi8(v, _mm256_slli_si256(v, 8));
  const __m256i totals = _mm256_shuffle_epi8(v, _mm256_set1_epi8(15));
  v = _mm256_add_epi8(v, _mm256_permute2x128_si256(totals, totals, 0x08));
  const __m256i lanesLast = _mm256_shuffle_epi8(v, _mm256_set1_epi8(15));
  *next = _mm256_add_epi8(carry, _mm256_permute2x128_si256(lanesLast, lanesLast, 0x11));
  return _mm256_add_epi8(v, carry);
}

/** unbias_prefix_512 with AVX2, 32 bytes at a time. */
__attribute__((target("avx2"))) static uint8_t unbias_prefix_256(uint8_t *bytes, size_t count, uint8_t running) {
  __m256i carry = _mm256_set1_epi8((char)running);
  size_t i = 0;
  for (; i + 32 <= count; i += 32)
    _mm256_storeu_si256((__m256i *)(bytes + i), prefix32(_mm256_loadu_si256((const __m256i *)(bytes + i)), carry, &carry));
  return unbias_prefix(bytes + i, count - i, (uint8_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(carry)));
}

/** unbias_prefix_interleave_512 with AVX2, 32 bytes at a time. */
__attribute__((target("avx2"))) static void unbias_prefix_interleave_256(const uint8_t *first, uint8_t *second, uint8_t *dst, size_t pairs,
                                                                         uint8_t running) {
  __m256i carry = _mm256_set1_epi8((char)running);
  size_t i = 0;
  for (; i + 32 <= pairs; i += 32) {
    const __m256i b = prefix32(_mm256_loadu_si256((const __m256i *)(second + i)), carry, &carry);
    const __m256i a = _mm256_loadu_si256((const __m256i *)(first + i));
    const __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
    _mm256_storeu_si256((__m256i *)(dst + 2 * i), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(dst + 2 * i + 32), _mm256_permute2x128_si256(lo, hi, 0x31));
  }
  unbias_prefix(second + i, pairs - i, (uint8_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(carry)));
  interleave(first + i, second + i, dst + 2 * i, pairs - i);
}
#endif

/** Decodes in place in `coded` (both halves), then interleaves into dst: by AVX-512BW (AVX2) 64 (32) bytes a step where
 * the CPU has them, the second half interleaved as it is summed, so that it is never stored and read back (16-byte
 * steps and a separate interleave were a large share of ZIP's time after inflation). */
static void unpredict_in_scratch(uint8_t *coded, uint8_t *dst, size_t byteCount) {
  if (byteCount == 0) return;
  size_t firstHalfBytes = (byteCount + 1) / 2;
  size_t secondHalfBytes = byteCount - firstHalfBytes;
  uint8_t *first = coded, *second = coded + firstHalfBytes;
  // The first byte has no bias: start the running sum at +128 to cancel the one removed from it.
  const uint8_t start = 128;
#ifdef ZIP_X86_VECTORS
  const int vectors = exr_cpu_vectors();
  if (vectors & EXR_CPU_AVX512) {
    unbias_prefix_interleave_512(first, second, dst, secondHalfBytes, unbias_prefix_512(first, firstHalfBytes, start));
  } else if (vectors & EXR_CPU_AVX2) {
    unbias_prefix_interleave_256(first, second, dst, secondHalfBytes, unbias_prefix_256(first, firstHalfBytes, start));
  } else
#endif
  {
    unbias_prefix(second, secondHalfBytes, unbias_prefix(first, firstHalfBytes, start));
    interleave(first, second, dst, secondHalfBytes);
  }
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
static int rle_decode(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *out, size_t dstBytes, const char *what,
                      const char *within) {
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
