/* The reader's unpack: a decompressed block's lines copied into the channel planes, as unpackBlock in
 * codec/reader.ts does (its TypeScript is the fallback and the oracle). A tile of 128 lines and 4 channels is
 * 512 copies of a few hundred bytes: one call here instead of 512 typed-array views and sets. */
#include "kernels.h"

/** Multiples of s (s > 0) in [a, b]: floor(b / s) - ceil(a / s) + 1, 0 for an empty range (floor division). */
static int64_t sample_count(int64_t s, int64_t a, int64_t b) {
  if (b < a) return 0;
  int64_t fb = b >= 0 ? b / s : -((-b + s - 1) / s);
  int64_t ca = a >= 0 ? (a + s - 1) / s : -((-a) / s);
  return fb - ca + 1;
}

static int64_t floor_mod(int64_t y, int64_t s) {
  int64_t m = y % s;
  return m < 0 ? m + s : m;
}

int exr_unpack_rows(ExrContext *ctx, const uint8_t *raw, size_t rawBytes, const ExrUnpackPlan *plan, uint8_t *const *planes,
                    const size_t *planeBytes) {
  size_t pos = 0;
  const int64_t y1 = (int64_t)plan->y0 + plan->rows - 1;
  for (int64_t y = plan->y0; y <= y1; y++) {
    const int inRegion = y >= plan->regionYMin && y <= plan->regionYMax;
    for (int32_t c = 0; c < plan->channelCount; c++) {
      const ExrUnpackChannel *ch = &plan->channels[c];
      if (ch->ySampling != 1 && floor_mod(y, ch->ySampling) != 0) continue;
      if ((uint64_t)ch->lineBytes > rawBytes - pos) return exr_fail(ctx, "block of %zu bytes is shorter than its lines", rawBytes);
      if (planes[c] && inRegion && ch->copyBytes > 0) {
        const int64_t row = ch->ySampling == 1 ? y - plan->frameYMin : sample_count(ch->ySampling, plan->frameYMin, y - 1);
        const int64_t at = row * (int64_t)ch->rowBytes + ch->dstColBytes;
        if (row < 0 || at < 0 || (uint64_t)at + (uint64_t)ch->copyBytes > planeBytes[c])
          return exr_fail(ctx, "line %lld of channel %d lies outside its plane", (long long)y, c);
        memcpy(planes[c] + at, raw + pos + ch->skipBytes, (size_t)ch->copyBytes);
      }
      pos += (size_t)ch->lineBytes;
    }
  }
  return EXR_OK;
}
