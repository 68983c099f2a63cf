// A thumbnail finished from its bands' sums, as compose.ts's composeThumbnail does: added up, divided, half RGBA; and
// tone-mapped to 8-bit RGBA through a view's memo table where one is given.
//
// A bin row at a time, in this thread's scratch: no whole-image sums in the job's shared buffer, whose first touch in a
// fresh buffer (1.2 MB for a 256-pixel thumbnail of four channels) cost more than the arithmetic.
//
// The same operations in the same order as the TypeScript (bands added in order; each mean a float64 division rounded
// to float32; clamped to ±65504; rounded to half, nearest even), so both give the same halves bit for bit. Native
// because a 16-worker machine makes each worker's first thumbnails before V8 has compiled those loops: the finishing
// then cost more than summing the file.
#include "kernels.h"

/** float -> half bits, round to nearest even: half.ts's floatToHalf. */
static uint16_t float_to_half(float value) {
  uint32_t x;
  memcpy(&x, &value, 4);
  const uint32_t sign = (x >> 16) & 0x8000, absBits = x & 0x7fffffff;
  if (absBits >= 0x7f800000) {
    if (absBits == 0x7f800000) return (uint16_t)(sign | 0x7c00);
    const uint32_t mantissa = (absBits >> 13) & 0x3ff;
    return (uint16_t)(sign | 0x7c00 | (mantissa == 0 ? 0x200 : mantissa));
  }
  if (absBits >= 0x477ff000) return (uint16_t)(sign | 0x7c00);
  if (absBits < 0x38800000) {
    if (absBits < 0x33000000) return (uint16_t)sign;
    const uint32_t exponent = absBits >> 23, mantissa = (absBits & 0x7fffff) | 0x800000, shift = 126 - exponent;
    const uint32_t halfMantissa = mantissa >> shift, remainder = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    const uint32_t rounded = remainder > halfway || (remainder == halfway && (halfMantissa & 1)) ? halfMantissa + 1 : halfMantissa;
    return (uint16_t)(sign | rounded);
  }
  const uint32_t rebased = absBits - 0x38000000, halfBits = rebased >> 13, remainder = rebased & 0x1fff;
  const uint32_t rounded = remainder > 0x1000 || (remainder == 0x1000 && (halfBits & 1)) ? halfBits + 1 : halfBits;
  return (uint16_t)(sign | rounded);
}

/** One channel's bin row of halves: each mean clamped to ±65504 and rounded to half, as float_to_half does. */
static void halves_row(const float *means, int64_t width, uint16_t *halves) {
  for (int64_t tx = 0; tx < width; tx++) {
    float v = means[tx];
    v = v > 65504.0f ? 65504.0f : v < -65504.0f ? -65504.0f : v;
    halves[tx] = float_to_half(v);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/** halves_row with F16C, eight at a time: its conversion rounds to nearest even as float_to_half does, subnormal halves
 * included; the means are finite (sums of finite samples over positive counts), and clamped first, so no infinity. */
__attribute__((target("avx,f16c"))) static void halves_row_f16c(const float *means, int64_t width, uint16_t *halves) {
  const __m256 hi = _mm256_set1_ps(65504.0f), lo = _mm256_set1_ps(-65504.0f);
  int64_t tx = 0;
  for (; tx + 8 <= width; tx += 8) {
    const __m256 v = _mm256_max_ps(_mm256_min_ps(_mm256_loadu_ps(means + tx), hi), lo);
    _mm_storeu_si128((__m128i *)(halves + tx), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  halves_row(means + tx, width - tx, halves + tx);
}
#endif

typedef void (*HalvesRow)(const float *, int64_t, uint16_t *);

/** The conversion for these vector units (EXR_CPU_* bits): F16C's where there is one. */
static HalvesRow halves_row_for(int vectors) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (vectors & EXR_CPU_F16C) return halves_row_f16c;
#endif
  (void)vectors;
  return halves_row;
}

void exr_halves_row(const float *means, int64_t width, uint16_t *halves, int vectors) { halves_row_for(vectors)(means, width, halves); }

int exr_finish_thumbnail(ExrContext *ctx, ExrThumbnailSums *t) {
  const int64_t channels = t->channelCount, width = t->widthPx, height = t->heightPx;
  if (channels < 1 || width < 1 || height < 1 || t->bandCount < 0) return exr_fail(ctx, "bad thumbnail geometry");
  const uint64_t pixels = (uint64_t)width * (uint64_t)height;
  if (t->outLength != 4 * pixels) return exr_fail(ctx, "half RGBA of the wrong size");
  if (t->rgba8 && t->rgba8Length != 4 * pixels) return exr_fail(ctx, "8-bit RGBA of the wrong size");
  if (t->countXLength != (uint64_t)channels * (uint64_t)width || t->countYLength != (uint64_t)channels * (uint64_t)height)
    return exr_fail(ctx, "bin counts of the wrong size");
  for (int k = 0; k < 4; k++) {
    if (t->rgba[k] < -1 || t->rgba[k] >= channels) return exr_fail(ctx, "RGBA channel out of range");
  }
  for (int64_t b = 0; b < t->bandCount; b++) {
    const int64_t start = t->bands[3 * b], tyMin = t->bands[3 * b + 1], length = t->bands[3 * b + 2];
    if (start < 0 || tyMin < 0 || length < 0 || (uint64_t)start + (uint64_t)channels * (uint64_t)length > t->sumsLength)
      return exr_fail(ctx, "band sums past the buffer");
    if ((uint64_t)tyMin * (uint64_t)width + (uint64_t)length > pixels) return exr_fail(ctx, "band sums past the thumbnail");
  }
  // one bin row at a time: its sums (every channel), its means and the row above's (an empty bin takes the upper
  // neighbour's mean where it has no left one), its halves a channel at a time
  double *rowSums =
      exr_scratch(ctx, SCRATCH_COLUMNS, (size_t)width * ((size_t)channels * (sizeof(double) + 2 * sizeof(float)) + 4 * sizeof(uint16_t)));
  if (!rowSums) return EXR_FAIL;
  float *means = (float *)(rowSums + channels * width), *above = means + channels * width;
  uint16_t *halves = (uint16_t *)(above + channels * width);
  const HalvesRow toHalves = halves_row_for(exr_cpu_vectors());
  // columns no sample falls in (a subsampled channel smaller than the thumbnail): their means are filled in afterwards
  int emptyColumns = 0;
  for (int64_t i = 0; i < channels * width; i++) emptyColumns |= !(t->countX[i] > 0);
  t->firstMiss = (int64_t)pixels;
  for (int64_t ty = 0; ty < height; ty++) {
    const int64_t rowStart = ty * width;
    for (int64_t c = 0; c < channels; c++) {
      // the bands in order, as the TypeScript adds them into its whole sums: the same additions, the same doubles
      double *sum = rowSums + c * width;
      memset(sum, 0, (size_t)width * sizeof(double));
      for (int64_t b = 0; b < t->bandCount; b++) {
        const int64_t slotStart = t->bands[3 * b + 1] * width, length = t->bands[3 * b + 2];
        const int64_t lo = slotStart > rowStart ? slotStart : rowStart,
                      hi = slotStart + length < rowStart + width ? slotStart + length : rowStart + width;
        const double *slot = t->sums + t->bands[3 * b] + c * length;
        for (int64_t i = lo; i < hi; i++) sum[i - rowStart] += slot[i - slotStart];
      }
      const double *countX = t->countX + c * width, countY = t->countY[c * height + ty];
      float *m = means + c * width;
      const float *up = above + c * width;
      // the divisions with no branch, so that they run as vectors; the empty bins (count 0) are redone after, left
      // to right, as the TypeScript's one pass gives them
      for (int64_t tx = 0; tx < width; tx++) m[tx] = (float)(sum[tx] / (countY * countX[tx]));
      if (emptyColumns || !(countY > 0)) {
        for (int64_t tx = 0; tx < width; tx++) {
          if (!(countY * countX[tx] > 0)) m[tx] = tx > 0 ? m[tx - 1] : ty > 0 ? up[tx] : 0.0f;
        }
      }
    }
    uint16_t *out = t->out + 4 * rowStart;
    for (int k = 0; k < 4; k++) {
      if (t->rgba[k] < 0) {
        const uint16_t none = k == 3 ? 0x3c00 : 0;
        for (int64_t tx = 0; tx < width; tx++) out[4 * tx + k] = none;
        continue;
      }
      // a channel shown twice (grey) is converted once
      int same = 0;
      while (same < k && t->rgba[same] != t->rgba[k]) same++;
      if (same == k) toHalves(means + t->rgba[k] * width, width, halves + k * width);
      const uint16_t *h = halves + same * width;
      for (int64_t tx = 0; tx < width; tx++) out[4 * tx + k] = h[tx];
    }
    // tone-mapped through the view's memo while the row is in cache, up to the first value it has not seen
    if (t->memo && t->firstMiss == (int64_t)pixels) {
      uint8_t *rgba8 = t->rgba8 + 4 * rowStart;
      for (int64_t tx = 0; tx < width; tx++) {
        const int16_t r = t->memo[out[4 * tx]], g = t->memo[out[4 * tx + 1]], b = t->memo[out[4 * tx + 2]];
        if ((r | g | b) < 0) {
          t->firstMiss = rowStart + tx;
          break;
        }
        rgba8[4 * tx] = (uint8_t)r;
        rgba8[4 * tx + 1] = (uint8_t)g;
        rgba8[4 * tx + 2] = (uint8_t)b;
        rgba8[4 * tx + 3] = 255;
      }
    }
    float *swap = above;
    above = means;
    means = swap;
  }
  return EXR_OK;
}
