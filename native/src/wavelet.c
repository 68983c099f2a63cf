// PIZ's inverse wavelet (wav2Decode in piz.ts): scalar coarse levels; the finest level, three quarters of the work, eight lanes at a time with SSE2.
#include "kernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Below this maximum value the wavelet uses plain (non-modular) arithmetic. */
#define WAVELET_14BIT_LIMIT (1 << 14)

/* The 16 low bits of v as a signed value (gcc and clang convert modulo 2^16). */
static inline int s16(int v) { return (int16_t)(uint16_t)v; }

/*
 * One 2x2 group: a = (x, y), b = (x + p, y), c = (x, y + p), d = (x + p, y + p); columns (a, c) and
 * (b, d) first, then rows. The 14-bit inverse adds (h & 1) + (h >> 1), written as (h + 1) >> 1.
 */
static inline void block14(uint16_t *buf, int64_t a, int64_t b, int64_t c, int64_t d) {
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

static inline void pair14(uint16_t *buf, int64_t a, int64_t b) {
  const int h = s16(buf[b]);
  const int sum = s16(buf[a]) + ((h + 1) >> 1);
  buf[a] = (uint16_t)sum;
  buf[b] = (uint16_t)(sum - h);
}

/* The 16-bit variant works modulo 2^16 around an offset of 2^15. */
static inline void block16(uint16_t *buf, int64_t a, int64_t b, int64_t c, int64_t d) {
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

static inline void pair16(uint16_t *buf, int64_t a, int64_t b) {
  const int high = buf[b];
  const int low = (buf[a] - (high >> 1)) & 0xffff;
  buf[a] = (uint16_t)(high + low - 0x8000);
  buf[b] = (uint16_t)low;
}

/*
 * One level of one word plane: groups p apart in blocks of 2p, then the leftover odd column and
 * row. The first `doneBlocks` groups of every row pair were already decoded (by the vector code).
 */
static void level(uint16_t *buf, int64_t nx, int64_t ox, int64_t ny, int64_t oy, int64_t p, int w14, int64_t doneBlocks) {
  const int64_t p2 = 2 * p;
  const int64_t oy1 = oy * p, oy2 = oy * p2, ox1 = ox * p, ox2 = ox * p2;
  const int64_t ey = oy * (ny - p2);
  int64_t py = 0;
  for (; py <= ey; py += oy2) {
    const int64_t ex = py + ox * (nx - p2);
    int64_t px = py + doneBlocks * ox2;
    if (w14) {
      for (; px <= ex; px += ox2) block14(buf, px, px + ox1, px + oy1, px + oy1 + ox1);
      if (nx & p) pair14(buf, px, px + oy1);
    } else {
      for (; px <= ex; px += ox2) block16(buf, px, px + ox1, px + oy1, px + oy1 + ox1);
      if (nx & p) pair16(buf, px, px + oy1);
    }
  }
  if (ny & p) {
    const int64_t ex = py + ox * (nx - p2);
    for (int64_t px = py; px <= ex; px += ox2) {
      if (w14)
        pair14(buf, px, px + ox1);
      else
        pair16(buf, px, px + ox1);
    }
  }
}

#if defined(__SSE2__)
/*
 * The finest level on 16 words of two rows at once: lanes hold (x, y) in `a`, (x + ox, y) in `b`
 * and the same of row y + 1 in `c`, `d`. For half channels (ox = 1) those are the even and odd
 * words; for 32-bit channels (ox = 2) the even and odd samples, both word planes side by side.
 * 16-bit lanes wrap like the scalar code's truncations; (h + 1) >> 1 is (h >> 1) + (h & 1) here,
 * which cannot overflow a lane.
 */
static inline void split(const uint16_t *row, int64_t ox, __m128i *even, __m128i *odd) {
  const __m128i lo = _mm_loadu_si128((const __m128i *)row), hi = _mm_loadu_si128((const __m128i *)(row + 8));
  if (ox == 1) {
    *even = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(lo, 16), 16), _mm_srai_epi32(_mm_slli_epi32(hi, 16), 16));
    *odd = _mm_packs_epi32(_mm_srai_epi32(lo, 16), _mm_srai_epi32(hi, 16));
  } else {
    *even = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(lo), _mm_castsi128_ps(hi), _MM_SHUFFLE(2, 0, 2, 0)));
    *odd = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(lo), _mm_castsi128_ps(hi), _MM_SHUFFLE(3, 1, 3, 1)));
  }
}

static inline void merge(uint16_t *row, int64_t ox, __m128i even, __m128i odd) {
  const __m128i lo = ox == 1 ? _mm_unpacklo_epi16(even, odd) : _mm_unpacklo_epi32(even, odd);
  const __m128i hi = ox == 1 ? _mm_unpackhi_epi16(even, odd) : _mm_unpackhi_epi32(even, odd);
  _mm_storeu_si128((__m128i *)row, lo);
  _mm_storeu_si128((__m128i *)(row + 8), hi);
}

static inline __m128i half_up(__m128i h) { return _mm_add_epi16(_mm_srai_epi16(h, 1), _mm_and_si128(h, _mm_set1_epi16(1))); }

static void finest_vector(uint16_t *buf, int64_t ox, int64_t ny, int64_t oy, int w14, int64_t steps) {
  const __m128i offset = _mm_set1_epi16((short)0x8000);
  for (int64_t py = 0; py <= oy * (ny - 2); py += 2 * oy) {
    for (int64_t step = 0; step < steps; step++) {
      uint16_t *top = buf + py + 16 * step, *bottom = top + oy;
      __m128i a, b, c, d;
      split(top, ox, &a, &b);
      split(bottom, ox, &c, &d);
      if (w14) {
        const __m128i i00 = _mm_add_epi16(a, half_up(c)), i10 = _mm_sub_epi16(i00, c);
        const __m128i i01 = _mm_add_epi16(b, half_up(d)), i11 = _mm_sub_epi16(i01, d);
        const __m128i top0 = _mm_add_epi16(i00, half_up(i01)), bottom0 = _mm_add_epi16(i10, half_up(i11));
        a = top0;
        b = _mm_sub_epi16(top0, i01);
        c = bottom0;
        d = _mm_sub_epi16(bottom0, i11);
      } else {
        __m128i low = _mm_sub_epi16(a, _mm_srli_epi16(c, 1));
        const __m128i i00 = _mm_sub_epi16(_mm_add_epi16(c, low), offset), i10 = low;
        low = _mm_sub_epi16(b, _mm_srli_epi16(d, 1));
        const __m128i i01 = _mm_sub_epi16(_mm_add_epi16(d, low), offset), i11 = low;
        low = _mm_sub_epi16(i00, _mm_srli_epi16(i01, 1));
        a = _mm_sub_epi16(_mm_add_epi16(i01, low), offset);
        b = low;
        low = _mm_sub_epi16(i10, _mm_srli_epi16(i11, 1));
        c = _mm_sub_epi16(_mm_add_epi16(i11, low), offset);
        d = low;
      }
      merge(top, ox, a, b);
      merge(bottom, ox, c, d);
    }
  }
}
#endif

void exr_wav2_decode_channel(uint16_t *words, int64_t nx, int64_t ox, int64_t ny, int64_t oy, int32_t maxValue) {
  const int w14 = maxValue < WAVELET_14BIT_LIMIT;
  const int64_t n = nx < ny ? nx : ny;
  int64_t top = 1;
  while (top <= n) top <<= 1;
  // levels p = top / 4 .. 1 (none when the plane is narrower than 2 samples)
  for (int64_t word = 0; word < ox; word++) {
    for (int64_t p = top >> 2; p >= 2; p >>= 1) level(words + word, nx, ox, ny, oy, p, w14, 0);
  }
  if (top < 4) return;
  int64_t doneBlocks = 0;
#if defined(__SSE2__)
  // each vector step covers 16 words: 8 groups of a half plane, 4 of each word plane of a 32-bit one
  const int64_t steps = (nx / 2) / (8 / ox);
  if (ox <= 2 && steps > 0) {
    finest_vector(words, ox, ny, oy, w14, steps);
    doneBlocks = steps * (8 / ox);
  }
#endif
  for (int64_t word = 0; word < ox; word++) level(words + word, nx, ox, ny, oy, 1, w14, doneBlocks);
}
