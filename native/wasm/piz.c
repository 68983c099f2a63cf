// PIZ (piz.ts): the bitmap and reverse LUT, Huffman (huffman.c), the inverse wavelet per plane (its finest level, three
// quarters of the work, eight lanes at a time with SIMD128), then the LUT and the reorder into lines.
#include <wasm_simd128.h>

#include "kernels.h"

#define VALUE_RANGE 65536
#define BITMAP_BYTES (VALUE_RANGE >> 3)
/* Below this maximum value the wavelet uses plain (non-modular) arithmetic. */
#define WAVELET_14BIT_LIMIT (1 << 14)

/* ---------------------------------------------------------------------------------------------
 * The inverse wavelet (wav2Decode in piz.ts) */

/* The 16 low bits of v as a signed value. */
static inline int s16(int v) { return (int16_t)(uint16_t)v; }

/* One 2x2 group: a = (x, y), b = (x + p, y), c = (x, y + p), d = (x + p, y + p); columns (a, c) and (b, d) first, then
 * rows. The 14-bit inverse adds (h & 1) + (h >> 1), written as (h + 1) >> 1. */
static inline void block14(uint16_t *buf, size_t a, size_t b, size_t c, size_t d) {
  int h = s16(buf[c]);
  const int i00 = s16(buf[a]) + ((h + 1) >> 1);
  const int i10 = i00 - h;
  h = s16(buf[d]);
  const int i01 = s16(buf[b]) + ((h + 1) >> 1);
  const int i11 = i01 - h;
  h = s16(i01);
  int sum = s16(i00) + ((h + 1) >> 1);
  buf[a] = (uint16_t)sum;
  buf[b] = (uint16_t)(sum - h);
  h = s16(i11);
  sum = s16(i10) + ((h + 1) >> 1);
  buf[c] = (uint16_t)sum;
  buf[d] = (uint16_t)(sum - h);
}

static inline void pair14(uint16_t *buf, size_t a, size_t b) {
  const int h = s16(buf[b]);
  const int sum = s16(buf[a]) + ((h + 1) >> 1);
  buf[a] = (uint16_t)sum;
  buf[b] = (uint16_t)(sum - h);
}

/* The 16-bit variant works modulo 2^16 around an offset of 2^15. */
static inline void block16(uint16_t *buf, size_t a, size_t b, size_t c, size_t d) {
  int high = buf[c];
  int low = (buf[a] - (high >> 1)) & 0xffff;
  const int i00 = (high + low - 0x8000) & 0xffff;
  const int i10 = low;
  high = buf[d];
  low = (buf[b] - (high >> 1)) & 0xffff;
  const int i01 = (high + low - 0x8000) & 0xffff;
  const int i11 = low;
  low = (i00 - (i01 >> 1)) & 0xffff;
  buf[a] = (uint16_t)(i01 + low - 0x8000);
  buf[b] = (uint16_t)low;
  low = (i10 - (i11 >> 1)) & 0xffff;
  buf[c] = (uint16_t)(i11 + low - 0x8000);
  buf[d] = (uint16_t)low;
}

static inline void pair16(uint16_t *buf, size_t a, size_t b) {
  const int high = buf[b];
  const int low = (buf[a] - (high >> 1)) & 0xffff;
  buf[a] = (uint16_t)(high + low - 0x8000);
  buf[b] = (uint16_t)low;
}

/* One level of one word plane: groups p apart in blocks of 2p, then the leftover odd column and row. The first
 * `doneBlocks` groups of every row pair were decoded already (by the vector code). */
static void level(uint16_t *buf, size_t nx, size_t ox, size_t ny, size_t oy, size_t p, int w14, size_t doneBlocks) {
  const size_t p2 = 2 * p;
  const size_t oy1 = oy * p, oy2 = oy * p2, ox1 = ox * p, ox2 = ox * p2;
  size_t py = 0;
  for (size_t y = 0; y + p2 <= ny; y += p2, py += oy2) {
    size_t px = py + doneBlocks * ox2, x = doneBlocks * p2;
    if (w14) {
      for (; x + p2 <= nx; x += p2, px += ox2) block14(buf, px, px + ox1, px + oy1, px + oy1 + ox1);
      if (nx & p) pair14(buf, px, px + oy1);
    } else {
      for (; x + p2 <= nx; x += p2, px += ox2) block16(buf, px, px + ox1, px + oy1, px + oy1 + ox1);
      if (nx & p) pair16(buf, px, px + oy1);
    }
  }
  if (ny & p) {
    size_t px = py;
    for (size_t x = 0; x + p2 <= nx; x += p2, px += ox2) {
      if (w14)
        pair14(buf, px, px + ox1);
      else
        pair16(buf, px, px + ox1);
    }
  }
}

/* The finest level on 16 words of two rows at once: lanes hold (x, y) in `a`, (x + ox, y) in `b` and the same of row
 * y + 1 in `c`, `d`. For half channels (ox = 1) those are the even and odd words; for 32-bit channels (ox = 2) the even
 * and odd samples, both word planes side by side. 16-bit lanes wrap like the scalar code's truncations. */
static inline void split(const uint16_t *row, size_t ox, v128_t *even, v128_t *odd) {
  const v128_t lo = wasm_v128_load(row), hi = wasm_v128_load(row + 8);
  if (ox == 1) {
    *even = wasm_i16x8_shuffle(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14);
    *odd = wasm_i16x8_shuffle(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15);
  } else {
    *even = wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6);
    *odd = wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7);
  }
}

static inline void merge(uint16_t *row, size_t ox, v128_t even, v128_t odd) {
  if (ox == 1) {
    wasm_v128_store(row, wasm_i16x8_shuffle(even, odd, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(row + 8, wasm_i16x8_shuffle(even, odd, 4, 12, 5, 13, 6, 14, 7, 15));
  } else {
    wasm_v128_store(row, wasm_i32x4_shuffle(even, odd, 0, 4, 1, 5));
    wasm_v128_store(row + 8, wasm_i32x4_shuffle(even, odd, 2, 6, 3, 7));
  }
}

/* (h + 1) >> 1 as (h >> 1) + (h & 1), which cannot overflow a lane. */
static inline v128_t half_up(v128_t h) { return wasm_i16x8_add(wasm_i16x8_shr(h, 1), wasm_v128_and(h, wasm_i16x8_splat(1))); }

static void finest_vector(uint16_t *buf, size_t ox, size_t ny, size_t oy, int w14, size_t steps) {
  const v128_t offset = wasm_i16x8_splat((int16_t)0x8000);
  for (size_t y = 0, py = 0; y + 2 <= ny; y += 2, py += 2 * oy) {
    for (size_t step = 0; step < steps; step++) {
      uint16_t *top = buf + py + 16 * step, *bottom = top + oy;
      v128_t a, b, c, d;
      split(top, ox, &a, &b);
      split(bottom, ox, &c, &d);
      if (w14) {
        const v128_t i00 = wasm_i16x8_add(a, half_up(c)), i10 = wasm_i16x8_sub(i00, c);
        const v128_t i01 = wasm_i16x8_add(b, half_up(d)), i11 = wasm_i16x8_sub(i01, d);
        const v128_t top0 = wasm_i16x8_add(i00, half_up(i01)), bottom0 = wasm_i16x8_add(i10, half_up(i11));
        a = top0;
        b = wasm_i16x8_sub(top0, i01);
        c = bottom0;
        d = wasm_i16x8_sub(bottom0, i11);
      } else {
        v128_t low = wasm_i16x8_sub(a, wasm_u16x8_shr(c, 1));
        const v128_t i00 = wasm_i16x8_sub(wasm_i16x8_add(c, low), offset), i10 = low;
        low = wasm_i16x8_sub(b, wasm_u16x8_shr(d, 1));
        const v128_t i01 = wasm_i16x8_sub(wasm_i16x8_add(d, low), offset), i11 = low;
        low = wasm_i16x8_sub(i00, wasm_u16x8_shr(i01, 1));
        a = wasm_i16x8_sub(wasm_i16x8_add(i01, low), offset);
        b = low;
        low = wasm_i16x8_sub(i10, wasm_u16x8_shr(i11, 1));
        c = wasm_i16x8_sub(wasm_i16x8_add(i11, low), offset);
        d = low;
      }
      merge(top, ox, a, b);
      merge(bottom, ox, c, d);
    }
  }
}

/* One channel's plane: nx x ny samples of ox 16-bit words (1 or 2), rows oy words apart. */
static void wav2_decode_channel(uint16_t *words, size_t nx, size_t ox, size_t ny, size_t oy, int32_t maxValue) {
  const int w14 = maxValue < WAVELET_14BIT_LIMIT;
  const size_t n = nx < ny ? nx : ny;
  size_t top = 1;
  while (top <= n) top <<= 1;
  /* levels p = top / 4 .. 1 (none when the plane is narrower than 2 samples) */
  for (size_t word = 0; word < ox; word++)
    for (size_t p = top >> 2; p >= 2; p >>= 1) level(words + word, nx, ox, ny, oy, p, w14, 0);
  if (top < 4) return;
  /* each vector step covers 16 words: 8 groups of a half plane, 4 of each word plane of a 32-bit one */
  const size_t steps = (nx / 2) / (8 / ox);
  size_t doneBlocks = 0;
  if (steps > 0) {
    finest_vector(words, ox, ny, oy, w14, steps);
    doneBlocks = steps * (8 / ox);
  }
  for (size_t word = 0; word < ox; word++) level(words + word, nx, ox, ny, oy, 1, w14, doneBlocks);
}

/* ---------------------------------------------------------------------------------------------
 * The chunk */

/* The reverse LUT, kept zero past its used entries: the used ones are 0 then strictly increasing, so the stale tail of
 * an earlier chunk is exactly the non-zero run that follows. */
static uint16_t *reverseLut;

static int32_t build_reverse_lut(const uint8_t *bitmap, uint32_t minNonZero, uint32_t maxNonZero, uint16_t *lut) {
  uint32_t k = 0;
  lut[k++] = 0; /* zero is always present and never stored in the bitmap */
  for (uint32_t byte = minNonZero; byte <= maxNonZero; byte++) {
    uint32_t bits = bitmap[byte - minNonZero];
    while (bits) {
      const uint32_t value = byte * 8 + (uint32_t)__builtin_ctz(bits);
      bits &= bits - 1;
      if (value != 0) lut[k++] = (uint16_t)value;
    }
  }
  for (uint32_t i = k; i < VALUE_RANGE && lut[i] != 0; i++) lut[i] = 0;
  return (int32_t)k - 1;
}

/* Decodes up to the planes (`words`: the layout's 16-bit words): maxValue, or a failure negated. */
static int32_t decode_planes(const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint16_t *words, uint16_t *lut) {
  if (srcBytes < 4) return exr_fail("PIZ chunk is too short for its bitmap range");
  const uint32_t minNonZero = load_le16(src), maxNonZero = load_le16(src + 2);
  if (maxNonZero >= BITMAP_BYTES) return exr_fail_n("PIZ bitmap range ends at ", maxNonZero, ", beyond 8191");
  size_t pos = 4;
  int32_t maxValue;
  if (minNonZero <= maxNonZero) {
    const size_t length = maxNonZero - minNonZero + 1;
    if (pos + length > srcBytes) return exr_fail("PIZ bitmap runs past the end of the chunk");
    maxValue = build_reverse_lut(src + pos, minNonZero, maxNonZero, lut);
    pos += length;
  } else {
    maxValue = build_reverse_lut(src, 1, 0, lut);
  }
  if (pos + 4 > srcBytes) return exr_fail("PIZ chunk is too short for its Huffman length");
  const uint32_t huffmanBytes = load_le32(src + pos);
  pos += 4;
  if (huffmanBytes > srcBytes - pos) return exr_fail_n("PIZ Huffman block of ", huffmanBytes, " bytes runs past the end of the chunk");
  const int32_t decoded = exr_huffman_decode(src + pos, huffmanBytes, words, (size_t)(layout->totalBytes / 2));
  if (decoded < 0) return decoded;

  size_t start = 0;
  for (int32_t c = 0; c < layout->channelCount; c++) {
    const size_t width = (size_t)LAYOUT_WIDTH(layout, c), height = (size_t)LAYOUT_HEIGHT(layout, c);
    const size_t wordsPerSample = exr_bytes_per_sample(LAYOUT_TYPE(layout, c)) / 2;
    const size_t rowWords = width * wordsPerSample;
    wav2_decode_channel(words + start, width, wordsPerSample, height, rowWords, maxValue);
    start += rowWords * height;
  }
  return maxValue;
}

static void *planarKept, *cursorsKept;
static size_t planarKeptBytes, cursorsKeptBytes;

/* count values of from through lut into out (little-endian words), two a step: half the loads and stores. */
static void lut_row(const uint16_t *from, const uint16_t *lut, uint8_t *out, size_t count) {
  size_t k = 0;
  for (; k + 2 <= count; k += 2) {
    uint32_t two;
    __builtin_memcpy(&two, from + k, 4);
    two = lut[two & 0xffff] | ((uint32_t)lut[two >> 16] << 16);
    __builtin_memcpy(out + 2 * k, &two, 4);
  }
  for (; k < count; k++) store_le16(out + 2 * k, lut[from[k]]);
}

/* A PIZ chunk into dst (dstBytes, the layout's size) in line order: 0, or a failure negated. */
EXPORT("piz")
int32_t exr_piz(const uint8_t *src, size_t srcBytes, const int32_t *layoutWords, size_t layoutCount, uint8_t *dst, size_t dstBytes) {
  ExrLayout layout;
  const int32_t parsed = exr_layout_parse(layoutWords, layoutCount, &layout);
  if (parsed < 0) return parsed;
  if (layout.totalBytes != dstBytes)
    return exr_fail_n("PIZ block of ", (int64_t)layout.totalBytes, " bytes does not match the expected size");
  if (!reverseLut) reverseLut = exr_alloc(VALUE_RANGE * sizeof(uint16_t));
  uint16_t *planar = exr_keep(&planarKept, &planarKeptBytes, dstBytes);
  if (!reverseLut || !planar) return -EXR_WASM_NO_MEMORY;
  const int32_t maxValue = decode_planes(src, srcBytes, &layout, planar, reverseLut);
  if (maxValue < 0) return maxValue;
  /* the LUT is increasing from 0: the identity exactly when its last used entry maps to itself */
  const uint16_t *lut = reverseLut[maxValue] != maxValue ? reverseLut : NULL;

  /* each channel's next row in the planes, and its words a row */
  const int32_t channelCount = layout.channelCount;
  size_t *next = exr_keep(&cursorsKept, &cursorsKeptBytes, 2 * sizeof(size_t) * (size_t)channelCount);
  if (!next) return -EXR_WASM_NO_MEMORY;
  size_t *rowWords = next + channelCount;
  size_t start = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    next[c] = start;
    rowWords[c] = (size_t)LAYOUT_WIDTH(&layout, c) * (exr_bytes_per_sample(LAYOUT_TYPE(&layout, c)) / 2);
    start += rowWords[c] * (size_t)LAYOUT_HEIGHT(&layout, c);
  }
  uint8_t *out = dst;
  for (int32_t r = 0; r < layout.rowCount; r++) {
    const int32_t c = layout.rows[r];
    const uint16_t *from = planar + next[c];
    const size_t count = rowWords[c];
    next[c] += count;
    if (lut)
      lut_row(from, lut, out, count);
    else
      __builtin_memcpy(out, from, 2 * count);
    out += 2 * count;
  }
  return 0;
}

/* PIZ up to the channel planes: fills words (the layout's) and lut (65536 entries, zero past the last used one, kept
 * from call to call); the largest code in use, or a failure negated. */
EXPORT("piz_planes")
int32_t exr_piz_planes(const uint8_t *src, size_t srcBytes, const int32_t *layoutWords, size_t layoutCount, uint16_t *words,
                       uint16_t *lut) {
  ExrLayout layout;
  const int32_t parsed = exr_layout_parse(layoutWords, layoutCount, &layout);
  if (parsed < 0) return parsed;
  return decode_planes(src, srcBytes, &layout, words, lut);
}
