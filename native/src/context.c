// The per-thread kernel context: error text, scratch buffers, the chunk layout parser, and which vector units the CPU has.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <libdeflate.h>

#include "kernels.h"

/** Scratch buffers up to this size are kept between chunks (a 4K chunk of 32 lines is a few MB). */
#define SCRATCH_KEEP_BYTES ((size_t)16 << 20)

int exr_fail(ExrContext *ctx, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->error, sizeof ctx->error, format, args);
  va_end(args);
  return EXR_FAIL;
}

void *exr_scratch(ExrContext *ctx, int slot, size_t byteCount) {
  if (ctx->scratchBytes[slot] >= byteCount && ctx->scratch[slot]) return ctx->scratch[slot];
  free(ctx->scratch[slot]);
  ctx->scratch[slot] = NULL;
  ctx->scratchBytes[slot] = 0;
  // 16 extra bytes: vector loops may load (never store) a little past a buffer's end.
  size_t padded = (byteCount + 16 + 15) & ~(size_t)15;
  void *fresh = NULL;
  if (padded > byteCount && posix_memalign(&fresh, 16, padded) == 0) {
    ctx->scratch[slot] = fresh;
    ctx->scratchBytes[slot] = byteCount;
    return fresh;
  }
  exr_fail(ctx, "out of memory allocating %zu bytes of scratch", byteCount);
  return NULL;
}

void exr_scratch_trim(ExrContext *ctx) {
  for (int slot = 0; slot < SCRATCH_COUNT; slot++) {
    if (ctx->scratchBytes[slot] <= SCRATCH_KEEP_BYTES) continue;
    free(ctx->scratch[slot]);
    ctx->scratch[slot] = NULL;
    ctx->scratchBytes[slot] = 0;
  }
}

void exr_context_free(ExrContext *ctx) {
  if (!ctx) return;
  for (int slot = 0; slot < SCRATCH_COUNT; slot++) free(ctx->scratch[slot]);
  if (ctx->inflater) libdeflate_free_decompressor(ctx->inflater);
  if (ctx->deflater) libdeflate_free_compressor(ctx->deflater);
  free(ctx->huffman);
  free(ctx->reverseLut);
  free(ctx);
}

int exr_layout_parse(ExrContext *ctx, const int32_t *words, size_t wordCount, ExrLayout *layout) {
  if (wordCount < 2) return exr_fail(ctx, "chunk layout is too short");
  int32_t channelCount = words[0];
  int32_t rowCount = words[1];
  if (channelCount < 0 || rowCount < 0 || (uint64_t)wordCount != 2 + 4 * (uint64_t)channelCount + (uint64_t)rowCount) {
    return exr_fail(ctx, "chunk layout of %zu words does not hold %d channels and %d rows", wordCount, channelCount, rowCount);
  }
  layout->channelCount = channelCount;
  layout->rowCount = rowCount;
  layout->channels = words + 2;
  layout->rows = words + 2 + 4 * (size_t)channelCount;
  uint64_t totalBytes = 0;
  uint64_t heightSum = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    int32_t width = LAYOUT_WIDTH(layout, c), height = LAYOUT_HEIGHT(layout, c), type = LAYOUT_TYPE(layout, c);
    if (width < 0 || height < 0 || type < EXR_UINT || type > EXR_FLOAT) return exr_fail(ctx, "chunk layout has a bad channel %d", c);
    totalBytes += (uint64_t)width * (uint64_t)height * exr_bytes_per_sample(type);
    heightSum += (uint64_t)height;
  }
  if (heightSum != (uint64_t)rowCount)
    return exr_fail(ctx, "chunk layout lists %d rows for %llu channel rows", rowCount, (unsigned long long)heightSum);
  // Every channel must own exactly heightSamples rows: counted with a per-channel tally.
  int32_t *seen = channelCount ? exr_scratch(ctx, SCRATCH_LAYOUT, (size_t)channelCount * sizeof(int32_t)) : NULL;
  if (channelCount && !seen) return EXR_FAIL;
  if (channelCount) memset(seen, 0, (size_t)channelCount * sizeof(int32_t));
  for (int32_t r = 0; r < rowCount; r++) {
    int32_t c = layout->rows[r];
    if (c < 0 || c >= channelCount || ++seen[c] > LAYOUT_HEIGHT(layout, c))
      return exr_fail(ctx, "chunk layout row %d names a bad channel", r);
  }
  layout->totalBytes = totalBytes;
  layout->totalWords = totalBytes / 2;
  return EXR_OK;
}

int exr_cpu_vectors(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  static int known = -1;
  int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (v < 0) {
    __builtin_cpu_init();
    v = (__builtin_cpu_supports("avx2") ? EXR_CPU_AVX2 : 0) | (__builtin_cpu_supports("f16c") ? EXR_CPU_F16C : 0) |
        (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? EXR_CPU_AVX512 : 0);
    // a cap for tests, so that the narrower kernels stay checked on a machine that has wider ones
    const char *cap = getenv("EXRVIEW_NATIVE_VECTORS");
    if (cap && strcmp(cap, "none") == 0) v = 0;
    if (cap && strcmp(cap, "avx2") == 0) v &= EXR_CPU_AVX2 | EXR_CPU_F16C;
    __atomic_store_n(&known, v, __ATOMIC_RELAXED);
  }
  return v;
#else
  return 0;
#endif
}
