// 8-bit RGBA to a PNG of its RGB (alpha dropped, as the thumbnails' sharp path does): rows filtered, zlib stream and
// CRCs by libdeflate.
//
// Native so that a decode worker finishes a thumbnail as a file's bytes: through sharp, every thumbnail cost the
// command's main thread, which feeds the workers, a pipeline set-up and a reply, and held the workers back.
// Filters are picked per row by the least sum of absolute differences (PNG spec, section 12.8's heuristic).
#include <stdlib.h>

#include <libdeflate.h>

#include "kernels.h"

enum { FILTER_NONE, FILTER_SUB, FILTER_UP, FILTER_AVERAGE, FILTER_PAETH, FILTER_COUNT };
#define BYTES_PER_PIXEL 3

/** The cost of a filtered byte: its distance from 0 as a signed byte. */
static inline uint32_t cost_of(uint8_t v) { return v < 128 ? v : 256u - v; }

/*
 * One row filtered each way (none, sub, up, average, paeth) into out[filter * rowBytes]; the costs into cost[]. A loop a
 * filter with the first pixel apart (its left neighbours are 0), so that the compiler vectorises each: one loop with a
 * switch inside does not vectorise, and was most of a thumbnail's encode.
 */
static void filter_row(const uint8_t *row, const uint8_t *prior, int64_t rowBytes, uint8_t *out, uint64_t cost[FILTER_COUNT]) {
  uint8_t *none = out, *sub = out + rowBytes, *up = sub + rowBytes, *average = up + rowBytes, *paethRow = average + rowBytes;
  const int64_t head = rowBytes < BYTES_PER_PIXEL ? rowBytes : BYTES_PER_PIXEL;
  for (int64_t i = 0; i < head; i++) {
    none[i] = sub[i] = row[i];
    up[i] = (uint8_t)(row[i] - prior[i]);
    average[i] = (uint8_t)(row[i] - (prior[i] >> 1));
    paethRow[i] = (uint8_t)(row[i] - prior[i]); /* paeth(0, b, 0) is b */
  }
  for (int64_t i = head; i < rowBytes; i++) sub[i] = (uint8_t)(row[i] - row[i - BYTES_PER_PIXEL]);
  for (int64_t i = head; i < rowBytes; i++) up[i] = (uint8_t)(row[i] - prior[i]);
  for (int64_t i = head; i < rowBytes; i++) average[i] = (uint8_t)(row[i] - ((row[i - BYTES_PER_PIXEL] + prior[i]) >> 1));
  for (int64_t i = head; i < rowBytes; i++) {
    // paeth() without branches, in 16 bits: pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|
    const int16_t a = row[i - BYTES_PER_PIXEL], b = prior[i], c = prior[i - BYTES_PER_PIXEL];
    const int16_t dbc = (int16_t)(b - c), dac = (int16_t)(a - c), dsum = (int16_t)(dbc + dac);
    const int16_t pa = dbc < 0 ? (int16_t)-dbc : dbc, pb = dac < 0 ? (int16_t)-dac : dac, pc = dsum < 0 ? (int16_t)-dsum : dsum;
    const int16_t bOrC = pb <= pc ? b : c;
    paethRow[i] = (uint8_t)(row[i] - (pa <= pb && pa <= pc ? a : bOrC));
  }
  memcpy(none + head, row + head, (size_t)(rowBytes - head));
  for (int f = 0; f < FILTER_COUNT; f++) {
    const uint8_t *filtered = out + f * rowBytes;
    uint64_t sum = 0;
    for (int64_t i = 0; i < rowBytes; i++) sum += cost_of(filtered[i]);
    cost[f] = sum;
  }
}

static uint8_t *put_u32be(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
  return p + 4;
}

/** A chunk's length, type and data (already at p + 8) and CRC; returns the end of the chunk. */
static uint8_t *close_chunk(uint8_t *p, const char type[4], size_t dataBytes) {
  put_u32be(p, (uint32_t)dataBytes);
  memcpy(p + 4, type, 4);
  const uint32_t crc = libdeflate_crc32(0, p + 4, 4 + dataBytes);
  return put_u32be(p + 8 + dataBytes, crc);
}

size_t exr_png_bound(int64_t widthPx, int64_t heightPx) {
  const size_t filtered = (size_t)heightPx * (1 + BYTES_PER_PIXEL * (size_t)widthPx);
  // the signature, IHDR, IDAT around libdeflate's worst case for any of its compressors (NULL), IEND
  return 8 + (12 + 13) + (12 + libdeflate_zlib_compress_bound(NULL, filtered)) + 12;
}

int64_t exr_png_rgb8(ExrContext *ctx, const uint8_t *rgba, size_t rgbaBytes, int64_t widthPx, int64_t heightPx, int level, uint8_t *out,
                     size_t outBytes) {
  if (widthPx < 1 || heightPx < 1 || widthPx > 0x7fffffff || heightPx > 0x7fffffff)
    return exr_fail(ctx, "PNG of %lldx%lld pixels", (long long)widthPx, (long long)heightPx);
  if ((uint64_t)widthPx * (uint64_t)heightPx > ((uint64_t)1 << 28))
    return exr_fail(ctx, "PNG of %lldx%lld pixels is larger than thumbnails are", (long long)widthPx, (long long)heightPx);
  if (rgbaBytes != 4 * (uint64_t)widthPx * (uint64_t)heightPx)
    return exr_fail(ctx, "%zu bytes are not %lldx%lld RGBA", rgbaBytes, (long long)widthPx, (long long)heightPx);
  if (level < 0 || level > 12) return exr_fail(ctx, "compression level %d (0 to 12)", level);
  if (outBytes < exr_png_bound(widthPx, heightPx)) return exr_fail(ctx, "PNG output of %zu bytes is below the bound", outBytes);
  if (!ctx->deflater || ctx->deflaterLevel != level) {
    if (ctx->deflater) libdeflate_free_compressor(ctx->deflater);
    ctx->deflater = libdeflate_alloc_compressor(level);
    ctx->deflaterLevel = level;
    if (!ctx->deflater) return exr_fail(ctx, "out of memory for a level %d compressor", level);
  }
  const int64_t rowBytes = BYTES_PER_PIXEL * widthPx;
  const size_t filteredBytes = (size_t)heightPx * (size_t)(1 + rowBytes);
  // the filtered image, then this row and the one above as RGB, then a candidate row per filter
  uint8_t *filtered = exr_scratch(ctx, SCRATCH_PNG_ROWS, filteredBytes + (2 + FILTER_COUNT) * (size_t)rowBytes);
  if (!filtered) return EXR_FAIL;
  uint8_t *rgb = filtered + filteredBytes, *prior = rgb + rowBytes, *candidates = prior + rowBytes;
  memset(prior, 0, (size_t)rowBytes);
  for (int64_t y = 0; y < heightPx; y++) {
    const uint8_t *src = rgba + (size_t)y * 4 * (size_t)widthPx;
    for (int64_t x = 0; x < widthPx; x++) memcpy(rgb + 3 * x, src + 4 * x, 3);
    uint64_t cost[FILTER_COUNT];
    filter_row(rgb, prior, rowBytes, candidates, cost);
    int best = FILTER_NONE;
    for (int f = 1; f < FILTER_COUNT; f++) {
      if (cost[f] < cost[best]) best = f;
    }
    uint8_t *line = filtered + (size_t)y * (size_t)(1 + rowBytes);
    line[0] = (uint8_t)best;
    memcpy(line + 1, candidates + (size_t)best * (size_t)rowBytes, (size_t)rowBytes);
    memcpy(prior, rgb, (size_t)rowBytes);
  }
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  uint8_t *p = out;
  memcpy(p, signature, 8);
  p += 8;
  uint8_t *ihdr = p + 8;
  ihdr = put_u32be(ihdr, (uint32_t)widthPx);
  ihdr = put_u32be(ihdr, (uint32_t)heightPx);
  /* 8 bits, colour type 2 (RGB), deflate, adaptive filtering, no interlace */
  ihdr[0] = 8, ihdr[1] = 2, ihdr[2] = 0, ihdr[3] = 0, ihdr[4] = 0;
  p = close_chunk(p, "IHDR", 13);
  const size_t room = outBytes - (size_t)(p - out) - 12 - 12;
  const size_t compressed = libdeflate_zlib_compress(ctx->deflater, filtered, filteredBytes, p + 8, room);
  if (compressed == 0) return exr_fail(ctx, "PNG data did not fit its bound");
  p = close_chunk(p, "IDAT", compressed);
  p = close_chunk(p, "IEND", 0);
  return (int64_t)(p - out);
}
