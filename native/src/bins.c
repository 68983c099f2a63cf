// Thumbnail box filter: half samples of up to four lines of one channel summed into their bins, as bins.ts does.
//
// The same order of additions as the TypeScript kernels (per bin run: ((a + b) + (c + d)) in double, then added to
// the bin), so both give the same sums bit for bit; the speed comes from no bounds checks or boxing inside the loop.
#include "kernels.h"

int exr_sum_half_lines(ExrContext *ctx, const ExrHalfLines *lines, const float *table) {
  const int64_t lineCount = lines->lineCount, n = lines->n, firstX = lines->firstX, stride = lines->lineStride;
  if (lineCount < 0 || n < 0 || firstX < 0 || lines->firstIndex < 0 || stride < 0 || lines->rowStart < 0) return exr_fail(ctx, "negative line geometry");
  if (lineCount == 0 || n == 0) return EXR_OK;
  if ((uint64_t)(firstX + n) > lines->binOfLength) return exr_fail(ctx, "sample columns past the bin map");
  if ((uint64_t)(lines->firstIndex + (lineCount - 1) * stride + n) > lines->samplesLength) return exr_fail(ctx, "lines past the samples");
  const int32_t *binOf = lines->binOf, *runEnd = lines->runEnd;
  double *acc = lines->acc;
  const int64_t last = firstX + n;
  int64_t l = 0;
  for (; l < lineCount; ) {
    const int64_t together = lineCount - l >= 4 ? 4 : lineCount - l >= 2 ? 2 : 1;
    const uint16_t *p0 = lines->samples + lines->firstIndex + l * stride;
    const uint16_t *p1 = p0 + stride, *p2 = p0 + 2 * stride, *p3 = p0 + 3 * stride;
    int64_t s = firstX, i = 0;
    while (s < last) {
      const int32_t tx = binOf[s];
      if (tx < 0 || (uint64_t)tx >= lines->runEndLength || (uint64_t)(lines->rowStart + tx) >= lines->accLength) return exr_fail(ctx, "bin outside the row");
      int64_t end = runEnd[tx] < last ? runEnd[tx] : last;
      if (end <= s) return exr_fail(ctx, "bin run does not advance");
      double sum = 0;
      if (together == 4) {
        for (; s < end; s++, i++) sum += ((double)table[p0[i]] + (double)table[p1[i]]) + ((double)table[p2[i]] + (double)table[p3[i]]);
      } else if (together == 2) {
        for (; s < end; s++, i++) sum += (double)table[p0[i]] + (double)table[p1[i]];
      } else {
        for (; s < end; s++, i++) sum += (double)table[p0[i]];
      }
      acc[lines->rowStart + tx] += sum;
    }
    l += together;
  }
  return EXR_OK;
}
