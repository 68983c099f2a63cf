// B44 and B44A: half channels in 4x4 blocks of 14 bytes (3 when flat), other channels stored raw (b44.ts).
#include "kernels.h"

/* Byte 2 of a block holds shift << 2 in a 14-byte block (shift <= 12); larger values mark a flat 3-byte block. */
#define FLAT_BLOCK_MIN_BYTE2 (13 << 2)

/* Ordered 16-bit code (larger code = larger value) back to half bits. */
static inline uint16_t code_to_half(uint16_t code) { return code & 0x8000 ? (uint16_t)(code & 0x7fff) : (uint16_t)~code; }

/* Unpacks the 14-byte block at b into s (ordered codes); uint16_t stores wrap like OpenEXR's unsigned short. */
static void unpack14(const uint8_t *b, uint16_t s[16]) {
  const unsigned shift = b[2] >> 2;
  const unsigned bias = 0x20u << shift;
  // First column top to bottom, then each row left to right; every step adds a 6-bit difference.
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

int exr_b44_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, const uint16_t *logTable, uint8_t *dst,
                 size_t dstBytes) {
  if (layout->totalBytes != dstBytes) {
    return exr_fail(ctx, "B44 chunk layout holds %llu bytes, expected %zu", (unsigned long long)layout->totalBytes, dstBytes);
  }
  const int32_t channelCount = layout->channelCount;
  // Output byte offset of every row, grouped by channel: firstRow[c] is channel c's first entry.
  uint64_t *rowOffset = exr_scratch(ctx, SCRATCH_LAYOUT, ((size_t)layout->rowCount + 2 * (size_t)channelCount + 1) * sizeof(uint64_t));
  if (!rowOffset) return EXR_FAIL;
  uint64_t *firstRow = rowOffset + layout->rowCount;
  uint64_t *cursor = firstRow + channelCount;
  uint64_t rows = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    firstRow[c] = cursor[c] = rows;
    rows += (uint64_t)LAYOUT_HEIGHT(layout, c);
  }
  uint64_t byteOffset = 0;
  for (int32_t r = 0; r < layout->rowCount; r++) {
    const int32_t c = layout->rows[r];
    rowOffset[cursor[c]++] = byteOffset;
    byteOffset += (uint64_t)LAYOUT_WIDTH(layout, c) * exr_bytes_per_sample(LAYOUT_TYPE(layout, c));
  }

  size_t inPos = 0;
  uint16_t s[16];
  for (int32_t c = 0; c < channelCount; c++) {
    const size_t width = (size_t)LAYOUT_WIDTH(layout, c), height = (size_t)LAYOUT_HEIGHT(layout, c);
    const uint64_t *offsets = rowOffset + firstRow[c];
    if (width == 0 || height == 0) continue;
    if (LAYOUT_TYPE(layout, c) != EXR_HALF) {
      const size_t rowBytes = width * 4;
      if (height > (srcBytes - inPos) / rowBytes) return exr_fail(ctx, "B44 chunk ends inside an uncompressed channel");
      for (size_t row = 0; row < height; row++) {
        memmove(dst + offsets[row], src + inPos, rowBytes);
        inPos += rowBytes;
      }
      continue;
    }
    const uint16_t *table = LAYOUT_PLINEAR(layout, c) ? logTable : NULL;
    for (size_t blockY = 0; blockY < height; blockY += 4) {
      const size_t rowsInBlock = height - blockY < 4 ? height - blockY : 4;
      for (size_t blockX = 0; blockX < width; blockX += 4) {
        if (srcBytes - inPos < 3) return exr_fail(ctx, "B44 chunk ends inside a block");
        if (src[inPos + 2] >= FLAT_BLOCK_MIN_BYTE2) {
          const uint16_t flat = (uint16_t)((src[inPos] << 8) | src[inPos + 1]);
          for (int i = 0; i < 16; i++) s[i] = flat;
          inPos += 3;
        } else {
          if (srcBytes - inPos < 14) return exr_fail(ctx, "B44 chunk ends inside a block");
          unpack14(src + inPos, s);
          inPos += 14;
        }
        const size_t columns = width - blockX < 4 ? width - blockX : 4;
        for (size_t row = 0; row < rowsInBlock; row++) {
          uint8_t *out = dst + offsets[blockY + row] + 2 * blockX;
          for (size_t column = 0; column < columns; column++) {
            const uint16_t half = code_to_half(s[row * 4 + column]);
            store_le16(out + 2 * column, table ? table[half] : half);
          }
        }
      }
    }
  }
  if (inPos != srcBytes) return exr_fail(ctx, "B44 chunk holds %zu bytes past its last block", srcBytes - inPos);
  return EXR_OK;
}
