// Thumbnail box filter: half samples of up to four lines of one channel summed into their bins, as bins.ts does.
//
// Why this may add in another order than the TypeScript kernel and still give its sums bit for bit: a half (NaN read
// as 0, infinities as ±65504) is k * 2^-24 with |k| < 2^40, so any sum of at most 2^13 of them is a multiple of 2^-24
// below 2^53 of them, exact in float64 whatever the order. Where the caller says every bin holds at most 2^13 samples
// (anyOrder: a 256-pixel thumbnail of an image up to 23,000 pixels wide), every sum this kernel or the TypeScript one
// makes, the bins' running totals included, is exact; so this one adds all the lines column by column (vectors where
// the CPU has F16C) and then each run once, with no chain of dependent adds. Otherwise it adds in the TypeScript
// kernel's order.
#include "kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EXR_X86_VECTORS 1
#endif

/** The value SANE_HALF gives a half: NaN as 0, ±Inf as ±65504, else exactly the half's value. */
static inline float sane_half(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exponent = (h >> 10) & 31, mantissa = h & 0x3ff;
  if (exponent == 31) return mantissa ? 0.0f : sign ? -65504.0f : 65504.0f;
  if (exponent == 0) {
    float v = (float)mantissa * (1.0f / 16777216.0f); // a subnormal is mantissa * 2^-24, exact in float
    return sign ? -v : v;
  }
  uint32_t bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/** col[i] = the sum of column i over all `lineCount` lines, through the table: four lines at a time, their loads
 * independent, in registers until the column is done. */
static void columns_by_table(const uint16_t *first, int64_t stride, int64_t lineCount, int64_t n, const float *table, double *col) {
  for (int64_t i = 0; i < n; i++) {
    const uint16_t *p = first + i;
    double v = 0;
    int64_t l = 0;
    for (; l + 4 <= lineCount; l += 4, p += 4 * stride)
      v += ((double)table[p[0]] + (double)table[p[stride]]) + ((double)table[p[2 * stride]] + (double)table[p[3 * stride]]);
    for (; l < lineCount; l++, p += stride) v += (double)table[p[0]];
    col[i] = v;
  }
}

#ifdef EXR_X86_VECTORS
/** table[idx] for eight indices. The gather merges into its destination register, so the compiler's gathers each
 * waited for the last instruction that wrote that register, a chain of table lookups one latency after another;
 * zeroing the destination first, which only asm can ask for, ends the chain. */
__attribute__((target("avx2"))) static inline __m256 gather_eight(const float *table, __m256i idx) {
  __m256 out;
  __m256 mask = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  __asm__("vxorps %[out], %[out], %[out]\n\tvgatherdps %[mask], (%[base], %[idx], 4), %[out]"
          : [out] "=&x"(out), [mask] "+x"(mask)
          : [base] "r"(table), [idx] "x"(idx)
          : "memory");
  return out;
}

/** Sixteen column sums, four vectors of four, stored in order. */
__attribute__((target("avx2"))) static inline void store_sixteen(double *col, __m256d a, __m256d b, __m256d c, __m256d d) {
  _mm256_storeu_pd(col, a);
  _mm256_storeu_pd(col + 4, b);
  _mm256_storeu_pd(col + 8, c);
  _mm256_storeu_pd(col + 12, d);
}

/** Eight columns of columns_by_gather: a line's codes widened, their values gathered, added in float64. */
#define GATHER_EIGHT(codes8, lo, hi)                                                                                                       \
  do {                                                                                                                                     \
    const __m256 f_ = gather_eight(table, _mm256_cvtepu16_epi32(codes8));                                                                  \
    lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(f_)));                                                                   \
    hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(f_, 1)));                                                                 \
  } while (0)

/** columns_by_table, sixteen columns at a time: the table's values gathered by the codes (a PIZ chunk's table, its
 * codes' values composed with SANE_HALF, has no NaN or infinity left to look out for). */
__attribute__((target("avx2"))) static void columns_by_gather(const uint16_t *first, int64_t stride, int64_t lineCount, int64_t n,
                                                              const float *table, double *col) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd(), c = _mm256_setzero_pd(), d = _mm256_setzero_pd();
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) {
      const __m256i codes = _mm256_loadu_si256((const __m256i *)p);
      GATHER_EIGHT(_mm256_castsi256_si128(codes), a, b);
      GATHER_EIGHT(_mm256_extracti128_si256(codes, 1), c, d);
    }
    store_sixteen(col + i, a, b, c, d);
  }
  for (; i + 8 <= n; i += 8) {
    __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) GATHER_EIGHT(_mm_loadu_si128((const __m128i *)p), lo, hi);
    _mm256_storeu_pd(col + i, lo);
    _mm256_storeu_pd(col + i + 4, hi);
  }
  if (i < n) columns_by_table(first + i, stride, lineCount, n - i, table, col + i);
}
#undef GATHER_EIGHT

/** Sixteen columns of columns_by_gather_512: a line's codes widened, their values gathered, added in float64. */
#define GATHER_SIXTEEN(codes16, lo, hi)                                                                                                    \
  do {                                                                                                                                     \
    const __m512 f_ = _mm512_i32gather_ps(_mm512_cvtepu16_epi32(codes16), table, 4);                                                       \
    lo = _mm512_add_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(f_)));                                                                   \
    hi = _mm512_add_pd(hi, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f_), 1))));                            \
  } while (0)

/** columns_by_gather with AVX-512's sixteen-wide gathers, thirty-two columns at a time, the rest by columns_by_gather:
 * kept because it beats the AVX2 form on both small and full tables. GCC's AVX-512 gathers start from a zeroed
 * register, so they need no asm to break a chain (see gather_eight). */
__attribute__((target("avx512f,avx512bw,avx2"))) static void columns_by_gather_512(const uint16_t *first, int64_t stride, int64_t lineCount,
                                                                                   int64_t n, const float *table, double *col) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m512d a = _mm512_setzero_pd(), b = _mm512_setzero_pd(), c = _mm512_setzero_pd(), d = _mm512_setzero_pd();
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) {
      const __m512i codes = _mm512_loadu_si512((const void *)p);
      GATHER_SIXTEEN(_mm512_castsi512_si256(codes), a, b);
      GATHER_SIXTEEN(_mm512_extracti64x4_epi64(codes, 1), c, d);
    }
    _mm512_storeu_pd(col + i, a);
    _mm512_storeu_pd(col + i + 8, b);
    _mm512_storeu_pd(col + i + 16, c);
    _mm512_storeu_pd(col + i + 24, d);
  }
  if (i < n) columns_by_gather(first + i, stride, lineCount, n - i, table, col + i);
}
#undef GATHER_SIXTEEN

/** Columns [i, i + count) summed through sane_half, one by one: where a NaN or infinity is among them. */
static void columns_by_sane_half(const uint16_t *first, int64_t stride, int64_t lineCount, int64_t i, int64_t count, double *col) {
  for (int64_t k = i; k < i + count; k++) {
    double v = 0;
    for (int64_t l = 0; l < lineCount; l++) v += sane_half(first[l * stride + k]);
    col[k] = v;
  }
}

/** Eight columns of columns_by_f16c: the halves converted, added in float64, NaN and infinities noted. */
#define F16C_EIGHT(h8, lo, hi, special)                                                                                                    \
  do {                                                                                                                                     \
    const __m128i h_ = (h8);                                                                                                               \
    special = _mm_or_si128(special, _mm_cmpeq_epi16(_mm_and_si128(h_, exponentBits), exponentBits));                                       \
    const __m256 f_ = _mm256_cvtph_ps(h_);                                                                                                 \
    lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(f_)));                                                                   \
    hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(f_, 1)));                                                                 \
  } while (0)

/** col[i] = the sum of column i over all `lineCount` lines (SANE_HALF's values), sixteen columns at a time (two
 * independent chains of adds, as columns_by_gather): the CPU converts the halves; NaN and infinities (exponent bits
 * all set) send their columns through sane_half. */
__attribute__((target("avx2,f16c"))) static void columns_by_f16c(const uint16_t *first, int64_t stride, int64_t lineCount, int64_t n,
                                                                 double *col) {
  const __m128i exponentBits = _mm_set1_epi16(0x7c00);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd(), c = _mm256_setzero_pd(), d = _mm256_setzero_pd();
    __m128i special = _mm_setzero_si128();
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) {
      F16C_EIGHT(_mm_loadu_si128((const __m128i *)p), a, b, special);
      F16C_EIGHT(_mm_loadu_si128((const __m128i *)(p + 8)), c, d, special);
    }
    if (_mm_movemask_epi8(special)) {
      columns_by_sane_half(first, stride, lineCount, i, 16, col);
      continue;
    }
    store_sixteen(col + i, a, b, c, d);
  }
  for (; i + 8 <= n; i += 8) {
    __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
    __m128i special = _mm_setzero_si128();
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) F16C_EIGHT(_mm_loadu_si128((const __m128i *)p), lo, hi, special);
    if (_mm_movemask_epi8(special)) {
      columns_by_sane_half(first, stride, lineCount, i, 8, col);
      continue;
    }
    _mm256_storeu_pd(col + i, lo);
    _mm256_storeu_pd(col + i + 4, hi);
  }
  if (i < n) columns_by_sane_half(first, stride, lineCount, i, n - i, col);
}
#undef F16C_EIGHT

/** Sixteen columns of columns_by_f16c_512: the halves converted, added in float64. */
#define F16C_SIXTEEN(h16, lo, hi)                                                                                                          \
  do {                                                                                                                                     \
    const __m512 f_ = _mm512_cvtph_ps(h16);                                                                                                \
    lo = _mm512_add_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(f_)));                                                                   \
    hi = _mm512_add_pd(hi, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f_), 1))));                            \
  } while (0)

/** columns_by_f16c with AVX-512, thirty-two columns at a time, the rest by columns_by_f16c: kept because it beats the
 * AVX2 form on both AMD and Intel CPUs. */
__attribute__((target("avx512f,avx512bw,avx2,f16c"))) static void columns_by_f16c_512(const uint16_t *first, int64_t stride,
                                                                                      int64_t lineCount, int64_t n, double *col) {
  const __m512i exponentBits = _mm512_set1_epi16(0x7c00);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m512d a = _mm512_setzero_pd(), b = _mm512_setzero_pd(), c = _mm512_setzero_pd(), d = _mm512_setzero_pd();
    __mmask32 special = 0;
    const uint16_t *p = first + i;
    for (int64_t l = 0; l < lineCount; l++, p += stride) {
      const __m512i h = _mm512_loadu_si512((const void *)p);
      special |= _mm512_cmpeq_epi16_mask(_mm512_and_si512(h, exponentBits), exponentBits);
      F16C_SIXTEEN(_mm512_castsi512_si256(h), a, b);
      F16C_SIXTEEN(_mm512_extracti64x4_epi64(h, 1), c, d);
    }
    if (special) {
      columns_by_sane_half(first, stride, lineCount, i, 32, col);
      continue;
    }
    _mm512_storeu_pd(col + i, a);
    _mm512_storeu_pd(col + i + 8, b);
    _mm512_storeu_pd(col + i + 16, c);
    _mm512_storeu_pd(col + i + 24, d);
  }
  if (i < n) columns_by_f16c(first + i, stride, lineCount, n - i, col + i);
}
#undef F16C_SIXTEEN
#endif

/** The TypeScript kernel's order, for bins too large to sum in any order: lines in groups of up to four, per group
 * and run column by column, each column's lines paired ((a + b) + (c + d)). */
static int sum_in_order(ExrContext *ctx, const ExrHalfLines *lines, const float *table) {
  const int32_t *binOf = lines->binOf, *runEnd = lines->runEnd;
  const int64_t last = lines->firstX + lines->n, stride = lines->lineStride;
  for (int64_t l = 0; l < lines->lineCount;) {
    const int64_t together = lines->lineCount - l >= 4 ? 4 : lines->lineCount - l >= 2 ? 2 : 1;
    const uint16_t *p0 = lines->samples + lines->firstIndex + l * stride;
    const uint16_t *p1 = p0 + stride, *p2 = p0 + 2 * stride, *p3 = p0 + 3 * stride;
    int64_t s = lines->firstX, i = 0;
    while (s < last) {
      const int32_t tx = binOf[s];
      if (tx < 0 || (uint64_t)tx >= lines->runEndLength || (uint64_t)(lines->rowStart + tx) >= lines->accLength)
        return exr_fail(ctx, "bin outside the row");
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
      lines->acc[lines->rowStart + tx] += sum;
    }
    l += together;
  }
  return EXR_OK;
}

/** A run of column sums and the bin it goes to. */
typedef struct {
  int64_t end;
  int32_t bin;
} BinRun;

/** The run that starts at column s, in bin `bin` or a later one (bins whose runs end before s are empty and stepped
 * over): found from the last bin, not from binOf[s], which would make every bin wait for two loads that wait for the
 * bin before. end -1, the failure set, where the bin lies outside the row or the map does not put s in it. */
static inline BinRun next_run(ExrContext *ctx, const ExrHalfLines *lines, int32_t bin, int64_t s, int64_t last) {
  for (;; bin++) {
    if (bin < 0 || (uint64_t)bin >= lines->runEndLength || (uint64_t)(lines->rowStart + bin) >= lines->accLength) {
      exr_fail(ctx, "bin outside the row");
      return (BinRun){-1, bin};
    }
    const int64_t end = lines->runEnd[bin] < last ? lines->runEnd[bin] : last;
    if (end <= s) continue;
    if (lines->binOf[s] != bin) {
      exr_fail(ctx, "bin map and runs disagree");
      return (BinRun){-1, bin};
    }
    return (BinRun){end, bin};
  }
}

#ifdef EXR_X86_VECTORS
/** Sixteen all-ones words then sixteen zeros: the sixteen from RUN_MASKS + 16 - len keep a run's first len columns. */
static const int64_t RUN_MASKS[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

/** sum_runs with vectors: each run read sixteen columns at a time, the columns past its end masked to zero, so the
 * runs' varying lengths (a 4K line's 15, an 1,708-pixel crop's 6 and 7) cost no mispredicted loop exits, which were
 * most of a call that sums only a few lines. `col` is readable sixteen columns past its end. */
__attribute__((target("avx2"))) static int sum_runs_avx2(ExrContext *ctx, const ExrHalfLines *lines, const double *col) {
  const int64_t firstX = lines->firstX, last = firstX + lines->n;
  const double *c = col - firstX;
  int32_t tx = lines->binOf[firstX];
  for (int64_t s = firstX; s < last; tx++) {
    const BinRun run = next_run(ctx, lines, tx, s, last);
    if (run.end < 0) return EXR_FAIL;
    const int64_t end = run.end;
    tx = run.bin;
    const double *p = c + s;
    int64_t left = end - s;
    __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd();
    for (; left > 16; left -= 16, p += 16) {
      a = _mm256_add_pd(a, _mm256_add_pd(_mm256_loadu_pd(p), _mm256_loadu_pd(p + 4)));
      b = _mm256_add_pd(b, _mm256_add_pd(_mm256_loadu_pd(p + 8), _mm256_loadu_pd(p + 12)));
    }
    const double *m = (const double *)(RUN_MASKS + 16 - left);
    a = _mm256_add_pd(a, _mm256_add_pd(_mm256_and_pd(_mm256_loadu_pd(p), _mm256_loadu_pd(m)),
                                       _mm256_and_pd(_mm256_loadu_pd(p + 4), _mm256_loadu_pd(m + 4))));
    b = _mm256_add_pd(b, _mm256_add_pd(_mm256_and_pd(_mm256_loadu_pd(p + 8), _mm256_loadu_pd(m + 8)),
                                       _mm256_and_pd(_mm256_loadu_pd(p + 12), _mm256_loadu_pd(m + 12))));
    const __m256d ab = _mm256_add_pd(a, b);
    const __m128d half = _mm_add_pd(_mm256_castpd256_pd128(ab), _mm256_extractf128_pd(ab, 1));
    lines->acc[lines->rowStart + tx] += _mm_cvtsd_f64(_mm_add_sd(half, _mm_unpackhi_pd(half, half)));
    s = end;
  }
  return EXR_OK;
}
#endif

/** Adds each run of the column sums to its bin (four accumulators: the sums are exact in any order). */
static int sum_runs(ExrContext *ctx, const ExrHalfLines *lines, const double *col) {
#ifdef EXR_X86_VECTORS
  if (exr_cpu_vectors() & EXR_CPU_AVX2) return sum_runs_avx2(ctx, lines, col);
#endif
  const int64_t firstX = lines->firstX, last = firstX + lines->n;
  const double *c = col - firstX;
  // bins walked by next_run, as sum_runs_avx2 walks them, so both take and refuse the same maps
  int32_t tx = lines->binOf[firstX];
  for (int64_t s = firstX; s < last; tx++) {
    const BinRun run = next_run(ctx, lines, tx, s, last);
    if (run.end < 0) return EXR_FAIL;
    const int64_t end = run.end;
    tx = run.bin;
    double a = 0, b = 0, d = 0, e = 0;
    for (; s + 3 < end; s += 4) {
      a += c[s];
      b += c[s + 1];
      d += c[s + 2];
      e += c[s + 3];
    }
    for (; s < end; s++) a += c[s];
    lines->acc[lines->rowStart + tx] += (a + b) + (d + e);
  }
  return EXR_OK;
}

int exr_sum_half_lines(ExrContext *ctx, const ExrHalfLines *lines, const float *table, int halfBits, int anyOrder) {
  const int64_t lineCount = lines->lineCount, n = lines->n, firstX = lines->firstX, stride = lines->lineStride;
  if (lineCount < 0 || n < 0 || firstX < 0 || lines->firstIndex < 0 || stride < 0 || lines->rowStart < 0)
    return exr_fail(ctx, "negative line geometry");
  if (lineCount == 0 || n == 0) return EXR_OK;
  if ((uint64_t)(firstX + n) > lines->binOfLength) return exr_fail(ctx, "sample columns past the bin map");
  if ((uint64_t)(lines->firstIndex + (lineCount - 1) * stride + n) > lines->samplesLength) return exr_fail(ctx, "lines past the samples");
  if (!anyOrder) return sum_in_order(ctx, lines, table);
  // sixteen columns more, zeros, for sum_runs_avx2's loads past the last run
  double *col = exr_scratch(ctx, SCRATCH_COLUMNS, ((size_t)n + 16) * sizeof(double));
  if (!col) return EXR_FAIL;
  memset(col + n, 0, 16 * sizeof(double));
  const uint16_t *first = lines->samples + lines->firstIndex;
#ifdef EXR_X86_VECTORS
  const int vectors = exr_cpu_vectors();
  // F16C converts the halves; the double vectors it adds them in are AVX2's (or AVX-512's)
  if (halfBits && vectors == (EXR_CPU_AVX2 | EXR_CPU_F16C | EXR_CPU_AVX512)) {
    columns_by_f16c_512(first, stride, lineCount, n, col);
    return sum_runs(ctx, lines, col);
  }
  if (halfBits && (vectors & (EXR_CPU_AVX2 | EXR_CPU_F16C)) == (EXR_CPU_AVX2 | EXR_CPU_F16C)) {
    columns_by_f16c(first, stride, lineCount, n, col);
    return sum_runs(ctx, lines, col);
  }
  if (vectors == (EXR_CPU_AVX2 | EXR_CPU_F16C | EXR_CPU_AVX512)) {
    columns_by_gather_512(first, stride, lineCount, n, table, col);
    return sum_runs(ctx, lines, col);
  }
  if (vectors & EXR_CPU_AVX2) {
    columns_by_gather(first, stride, lineCount, n, table, col);
    return sum_runs(ctx, lines, col);
  }
#endif
  (void)halfBits;
  columns_by_table(first, stride, lineCount, n, table, col);
  return sum_runs(ctx, lines, col);
}

#ifdef EXR_X86_VECTORS
/** exr_compose_half_table eight codes at a time: the CPU converts the halves; NaN and infinities (exponent bits all
 * set) are then put right by sane_half. A PIZ chunk's table has up to 65,536 codes and is made for every chunk of a
 * thumbnail, so one code at a time was a large share of a PIZ file's box filter. A sixteen-wide AVX-512 form was no
 * faster than this one, so AVX-512 CPUs use this too. */
__attribute__((target("avx2,f16c"))) static void compose_half_table_avx2(const uint16_t *lut, int64_t used, float *out) {
  const __m128i exponentBits = _mm_set1_epi16(0x7c00);
  int64_t code = 0;
  for (; code + 8 <= used; code += 8) {
    const __m128i h = _mm_loadu_si128((const __m128i *)(lut + code));
    _mm256_storeu_ps(out + code, _mm256_cvtph_ps(h));
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(h, exponentBits), exponentBits))) {
      for (int64_t k = code; k < code + 8; k++) out[k] = sane_half(lut[k]);
    }
  }
  for (; code < used; code++) out[code] = sane_half(lut[code]);
}
#endif

void exr_compose_half_table(const uint16_t *lut, int64_t used, float *out) {
#ifdef EXR_X86_VECTORS
  const int vectors = exr_cpu_vectors();
  if ((vectors & (EXR_CPU_AVX2 | EXR_CPU_F16C)) == (EXR_CPU_AVX2 | EXR_CPU_F16C)) {
    compose_half_table_avx2(lut, used, out);
    return;
  }
#endif
  for (int64_t code = 0; code < used; code++) out[code] = sane_half(lut[code]);
}
