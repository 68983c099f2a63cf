// B44 and B44A (b44.ts): half channels in 4x4 blocks of 14 bytes (3 when flat), other channels stored raw.
#include <wasm_simd128.h>

#include "kernels.h"

/* Byte 2 of a block holds shift << 2 in a 14-byte block (shift <= 12); larger values mark a flat 3-byte block. */
#define FLAT_BLOCK_MIN_BYTE2 (13 << 2)

/* Unpacks the 14-byte block at b into s (ordered codes); uint16_t stores wrap like OpenEXR's unsigned short. */
static void unpack14(const uint8_t *b, uint16_t s[16]) {
  const unsigned shift = b[2] >> 2;
  const unsigned bias = 0x20u << shift;
  /* first column top to bottom, then each row left to right; every step adds a 6-bit difference */
  s[0] = (uint16_t)((b[0] << 8) | b[1]);
  s[4] = (uint16_t)(s[0] + ((((b[2] << 4) | (b[3] >> 4)) & 0x3fu) << shift) - bias);
  s[8] = (uint16_t)(s[4] + ((((b[3] << 2) | (b[4] >> 6)) & 0x3fu) << shift) - bias);
  s[12] = (uint16_t)(s[8] + ((b[4] & 0x3fu) << shift) - bias);
  s[1] = (uint16_t)(s[0] + ((unsigned)(b[5] >> 2) << shift) - bias);
  s[5] = (uint16_t)(s[4] + ((((b[5] << 4) | (b[6] >> 4)) & 0x3fu) << shift) - bias);
  s[9] = (uint16_t)(s[8] + ((((b[6] << 2) | (b[7] >> 6)) & 0x3fu) << shift) - bias);
  s[13] = (uint16_t)(s[12] + ((b[7] & 0x3fu) << shift) - bias);
  s[2] = (uint16_t)(s[1] + ((unsigned)(b[8] >> 2) << shift) - bias);
  s[6] = (uint16_t)(s[5] + ((((b[8] << 4) | (b[9] >> 4)) & 0x3fu) << shift) - bias);
  s[10] = (uint16_t)(s[9] + ((((b[9] << 2) | (b[10] >> 6)) & 0x3fu) << shift) - bias);
  s[14] = (uint16_t)(s[13] + ((b[10] & 0x3fu) << shift) - bias);
  s[3] = (uint16_t)(s[2] + ((unsigned)(b[11] >> 2) << shift) - bias);
  s[7] = (uint16_t)(s[6] + ((((b[11] << 4) | (b[12] >> 4)) & 0x3fu) << shift) - bias);
  s[11] = (uint16_t)(s[10] + ((((b[12] << 2) | (b[13] >> 6)) & 0x3fu) << shift) - bias);
  s[15] = (uint16_t)(s[14] + ((b[13] & 0x3fu) << shift) - bias);
}

/* Ordered codes (larger code = larger value) back to half bits, eight lanes at once: code & 0x7fff where the top bit is
 * set, else ~code. */
static inline v128_t codes_to_halves(v128_t codes) {
  const v128_t negative = wasm_i16x8_shr(codes, 15);
  return wasm_v128_bitselect(wasm_v128_and(codes, wasm_i16x8_splat(0x7fff)), wasm_v128_not(codes), negative);
}

static void *offsetsKept;
static size_t offsetsKeptBytes;

/* A B44 or B44A chunk into dst (dstBytes, the layout's size); logTable (b44-log-table.ts, 65536 entries) is needed when
 * a half channel is pLinear: 0, or a failure negated. */
EXPORT("b44")
int32_t exr_b44(const uint8_t *src, size_t srcBytes, const int32_t *layoutWords, size_t layoutCount, const uint16_t *logTable, uint8_t *dst,
                size_t dstBytes) {
  ExrLayout layout;
  const int32_t parsed = exr_layout_parse(layoutWords, layoutCount, &layout);
  if (parsed < 0) return parsed;
  if (layout.totalBytes != dstBytes) return exr_fail_n("B44 chunk layout holds ", (int64_t)layout.totalBytes, " bytes, not the chunk's");
  const int32_t channelCount = layout.channelCount;
  /* the output byte offset of every row, grouped by channel: firstRow[c] is channel c's first */
  size_t *rowOffset = exr_keep(&offsetsKept, &offsetsKeptBytes, ((size_t)layout.rowCount + 2 * (size_t)channelCount) * sizeof(size_t));
  if (!rowOffset) return -EXR_WASM_NO_MEMORY;
  size_t *firstRow = rowOffset + layout.rowCount, *cursor = firstRow + channelCount;
  size_t rows = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    firstRow[c] = cursor[c] = rows;
    rows += (size_t)LAYOUT_HEIGHT(&layout, c);
  }
  size_t byteOffset = 0;
  for (int32_t r = 0; r < layout.rowCount; r++) {
    const int32_t c = layout.rows[r];
    rowOffset[cursor[c]++] = byteOffset;
    byteOffset += (size_t)LAYOUT_WIDTH(&layout, c) * exr_bytes_per_sample(LAYOUT_TYPE(&layout, c));
  }

  size_t inPos = 0;
  uint16_t s[16] __attribute__((aligned(16)));
  uint16_t halves[16] __attribute__((aligned(16)));
  for (int32_t c = 0; c < channelCount; c++) {
    const size_t width = (size_t)LAYOUT_WIDTH(&layout, c), height = (size_t)LAYOUT_HEIGHT(&layout, c);
    const size_t *offsets = rowOffset + firstRow[c];
    if (width == 0 || height == 0) continue;
    if (LAYOUT_TYPE(&layout, c) != EXR_HALF) {
      const size_t rowBytes = width * 4;
      if (height > (srcBytes - inPos) / rowBytes) return exr_fail("B44 chunk ends inside an uncompressed channel");
      for (size_t row = 0; row < height; row++) {
        __builtin_memcpy(dst + offsets[row], src + inPos, rowBytes);
        inPos += rowBytes;
      }
      continue;
    }
    const uint16_t *table = LAYOUT_PLINEAR(&layout, c) ? logTable : NULL;
    if (LAYOUT_PLINEAR(&layout, c) && !table) return exr_fail("B44 chunk has a pLinear channel and no log table was given");
    for (size_t blockY = 0; blockY < height; blockY += 4) {
      const size_t rowsInBlock = height - blockY < 4 ? height - blockY : 4;
      for (size_t blockX = 0; blockX < width; blockX += 4) {
        if (srcBytes - inPos < 3) return exr_fail("B44 chunk ends inside a block");
        v128_t top, bottom;
        if (src[inPos + 2] >= FLAT_BLOCK_MIN_BYTE2) {
          top = bottom = wasm_i16x8_splat((int16_t)((src[inPos] << 8) | src[inPos + 1]));
          inPos += 3;
        } else {
          if (srcBytes - inPos < 14) return exr_fail("B44 chunk ends inside a block");
          unpack14(src + inPos, s);
          top = wasm_v128_load(s);
          bottom = wasm_v128_load(s + 8);
          inPos += 14;
        }
        wasm_v128_store(halves, codes_to_halves(top));
        wasm_v128_store(halves + 8, codes_to_halves(bottom));
        if (table)
          for (int i = 0; i < 16; i++) halves[i] = table[halves[i]];
        const size_t columns = width - blockX < 4 ? width - blockX : 4;
        for (size_t row = 0; row < rowsInBlock; row++) {
          uint8_t *out = dst + offsets[blockY + row] + 2 * blockX;
          if (columns == 4)
            __builtin_memcpy(out, halves + 4 * row, 8);
          else
            __builtin_memcpy(out, halves + 4 * row, 2 * columns);
        }
      }
    }
  }
  if (inPos != srcBytes) return exr_fail_n("B44 chunk holds ", (int64_t)(srcBytes - inPos), " bytes past its last block");
  return 0;
}
