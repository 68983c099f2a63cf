// A thumbnail finished from its bands' sums, as job.ts's composeThumbnail does: added up, divided, half RGBA.
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

int exr_finish_thumbnail(ExrContext *ctx, const ExrThumbnailSums *t) {
  const int64_t channels = t->channelCount, width = t->widthPx, height = t->heightPx;
  if (channels < 1 || width < 1 || height < 1 || t->bandCount < 0) return exr_fail(ctx, "bad thumbnail geometry");
  const uint64_t pixels = (uint64_t)width * (uint64_t)height;
  if (t->wholeStart < 0 || (uint64_t)t->wholeStart + (uint64_t)channels * pixels > t->sumsLength) return exr_fail(ctx, "whole sums past the buffer");
  if (t->outLength != 4 * pixels) return exr_fail(ctx, "half RGBA of the wrong size");
  if (t->countXLength != (uint64_t)channels * (uint64_t)width || t->countYLength != (uint64_t)channels * (uint64_t)height) return exr_fail(ctx, "bin counts of the wrong size");
  for (int k = 0; k < 4; k++) {
    if (t->rgba[k] < -1 || t->rgba[k] >= channels) return exr_fail(ctx, "RGBA channel out of range");
  }
  for (int64_t b = 0; b < t->bandCount; b++) {
    const int64_t start = t->bands[3 * b], tyMin = t->bands[3 * b + 1], length = t->bands[3 * b + 2];
    if (start < 0 || tyMin < 0 || length < 0 || (uint64_t)start + (uint64_t)channels * (uint64_t)length > t->sumsLength) return exr_fail(ctx, "band sums past the buffer");
    if ((uint64_t)tyMin * (uint64_t)width + (uint64_t)length > pixels) return exr_fail(ctx, "band sums past the thumbnail");
  }
  float *means = exr_scratch(ctx, SCRATCH_COLUMNS, (size_t)channels * pixels * sizeof(float));
  if (!means) return EXR_FAIL;
  double *sums = t->sums;
  for (int64_t c = 0; c < channels; c++) {
    double *whole = sums + t->wholeStart + c * (int64_t)pixels;
    memset(whole, 0, pixels * sizeof(double));
    for (int64_t b = 0; b < t->bandCount; b++) {
      const int64_t start = t->bands[3 * b], tyMin = t->bands[3 * b + 1], length = t->bands[3 * b + 2];
      const double *from = sums + start + c * length;
      double *into = whole + tyMin * width;
      for (int64_t i = 0; i < length; i++) into[i] += from[i];
    }
    const double *countX = t->countX + c * width, *countY = t->countY + c * height;
    float *m = means + c * (int64_t)pixels;
    for (int64_t ty = 0; ty < height; ty++) {
      for (int64_t tx = 0; tx < width; tx++) {
        const int64_t i = ty * width + tx;
        const double count = countY[ty] * countX[tx];
        m[i] = count > 0 ? (float)(whole[i] / count) : tx > 0 ? m[i - 1] : ty > 0 ? m[i - width] : 0.0f;
      }
    }
  }
  for (int k = 0; k < 4; k++) {
    uint16_t *out = t->out + k;
    if (t->rgba[k] < 0) {
      const uint16_t none = k == 3 ? 0x3c00 : 0;
      for (uint64_t i = 0; i < pixels; i++) out[4 * i] = none;
      continue;
    }
    const float *m = means + t->rgba[k] * (int64_t)pixels;
    for (uint64_t i = 0; i < pixels; i++) {
      float v = m[i];
      v = v > 65504.0f ? 65504.0f : v < -65504.0f ? -65504.0f : v;
      out[4 * i] = float_to_half(v);
    }
  }
  return EXR_OK;
}
