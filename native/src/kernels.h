// Shared declarations of the exrview decompression kernels: the per-thread context, the chunk layout, errors.
#ifndef EXR_KERNELS_H
#define EXR_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** Bumped whenever an exported function changes its arguments: native.ts refuses an addon of another version. */
#define EXR_KERNELS_ABI 12

/** Scratch buffers of one context; each kernel uses its own so that they never alias each other. */
enum {
  SCRATCH_INFLATED, /* zlib output before the predictor (ZIP, RLE) or the byte planes (PXR24) */
  SCRATCH_PLANAR,   /* PIZ channel planes, 16-bit words */
  SCRATCH_LAYOUT,   /* per-channel and per-row tables derived from a layout */
  SCRATCH_COLUMNS,  /* thumbnails: the box filter's column sums (float64), the finishing's means (float32) */
  SCRATCH_PNG_ROWS, /* PNG: the filtered rows, the row being filtered and its candidates */
  SCRATCH_PNG_OUT,  /* PNG: the file's bytes, before they are copied to an ArrayBuffer of their size */
  SCRATCH_COUNT
};

struct libdeflate_decompressor;
struct libdeflate_compressor;
typedef struct HuffmanTables HuffmanTables;

/**
 * Everything a kernel keeps between calls. One per Node-API instance (one per thread), so that
 * worker_threads never share mutable state.
 */
typedef struct ExrContext {
  struct libdeflate_decompressor *inflater;
  /** PNG output's compressor, made for deflaterLevel. */
  struct libdeflate_compressor *deflater;
  int deflaterLevel;
  void *scratch[SCRATCH_COUNT];
  size_t scratchBytes[SCRATCH_COUNT];
  HuffmanTables *huffman;
  /** PIZ reverse LUT: entries at and above the used count are zero. */
  uint16_t *reverseLut;
  /** Why the last kernel failed (damaged input). */
  char error[256];
} ExrContext;

/** Kernels return EXR_OK or EXR_FAIL; on EXR_FAIL ctx->error says what was wrong with the input. */
#define EXR_OK 0
#define EXR_FAIL (-1)

/** Sets ctx->error (printf-style) and returns EXR_FAIL. */
int exr_fail(ExrContext *ctx, const char *format, ...) __attribute__((format(printf, 2, 3)));

/** A scratch buffer of at least byteCount bytes (16-byte aligned), or NULL with ctx->error set. */
void *exr_scratch(ExrContext *ctx, int slot, size_t byteCount);
/** Frees scratch buffers larger than kept between calls, so that one huge chunk does not pin its size. */
void exr_scratch_trim(ExrContext *ctx);
void exr_context_free(ExrContext *ctx);

/** One channel of an unpack (reader.ts's UnpackPlan): bytes of its line in the block, of them skipped and copied, and
 * where the copy goes in its plane (column offset, bytes a plane row). */
typedef struct {
  int32_t lineBytes, skipBytes, copyBytes, dstColBytes, rowBytes, ySampling;
} ExrUnpackChannel;

/** A block's lines y0 .. y0 + rows - 1, those in [regionYMin, regionYMax] copied to planes laid out from frameYMin. */
typedef struct {
  int32_t channelCount, y0, rows, regionYMin, regionYMax, frameYMin;
  const ExrUnpackChannel *channels;
} ExrUnpackPlan;

/** The reader's unpack (unpack.c): planes[c] is NULL for a channel not wanted; each copy is checked against its plane. */
int exr_unpack_rows(ExrContext *ctx, const uint8_t *raw, size_t rawBytes, const ExrUnpackPlan *plan, uint8_t *const *planes,
                    const size_t *planeBytes);

/** Pixel type codes of a layout, in the file's order. */
enum { EXR_UINT = 0, EXR_HALF = 1, EXR_FLOAT = 2 };

/**
 * A chunk's uncompressed layout, as native.ts describes it (an Int32Array):
 *   [channelCount, rowCount,
 *    channelCount x (widthSamples, heightSamples, pixelType, pLinear),
 *    rowCount x channel index]
 * The rows are the chunk's line runs in output order (line by line, channels in header order),
 * each widthSamples samples of its channel. Parsing checks every count, so a kernel may trust it.
 */
typedef struct ExrLayout {
  int32_t channelCount;
  int32_t rowCount;
  const int32_t *channels; /* 4 ints per channel */
  const int32_t *rows;
  /** Sum over channels of widthSamples * heightSamples * bytes per sample. */
  uint64_t totalBytes;
  /** The same in 16-bit words (PIZ planes). */
  uint64_t totalWords;
} ExrLayout;

#define LAYOUT_WIDTH(layout, c) ((layout)->channels[4 * (c)])
#define LAYOUT_HEIGHT(layout, c) ((layout)->channels[4 * (c) + 1])
#define LAYOUT_TYPE(layout, c) ((layout)->channels[4 * (c) + 2])
#define LAYOUT_PLINEAR(layout, c) ((layout)->channels[4 * (c) + 3])

int exr_layout_parse(ExrContext *ctx, const int32_t *words, size_t wordCount, ExrLayout *layout);

static inline uint32_t exr_bytes_per_sample(int32_t pixelType) { return pixelType == EXR_HALF ? 2 : 4; }

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the kernels copy samples in host order into little-endian layouts: little-endian hosts only"
/** out[code] = the value SANE_HALF gives half bits lut[code], for code < used: a PIZ chunk's codes as values. */
void exr_compose_half_table(const uint16_t *lut, int64_t used, float *out);

/** The most bytes exr_png_rgb8 writes for an image of this size. */
size_t exr_png_bound(int64_t widthPx, int64_t heightPx);
/** 8-bit RGBA (rgbaBytes = 4 x pixels) to a PNG of its RGB at libdeflate's compression `level` (0 to 12), into out
 * (at least exr_png_bound bytes): the PNG's length, or EXR_FAIL with ctx->error set. */
int64_t exr_png_rgb8(ExrContext *ctx, const uint8_t *rgba, size_t rgbaBytes, int64_t widthPx, int64_t heightPx, int level, uint8_t *out,
                     size_t outBytes);

#endif

/* Little-endian loads and stores at any alignment: memcpy compiles to one move, and unlike byte
 * stores through uint8_t pointers it does not make the compiler assume every store aliases. */
static inline uint16_t load_le16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}
static inline uint32_t load_le32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline void store_le16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void store_le32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* ---- kernels (one file each) ---- */

/** zlib-inflates src into exactly dstBytes of dst; `what` names the data in errors ("ZIP"). */
int exr_inflate_exact(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes, const char *what);
/** zlib-inflates src into at most dstBytes of dst; returns the bytes written or EXR_FAIL (as a negative). */
int64_t exr_inflate(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);

int exr_zip_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);
int exr_rle_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);
int exr_rle_bytes_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);
int exr_dwa_dc_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);

/** Decodes a whole Huffman block (from its 20-byte header) into exactly outCount values. */
int exr_huffman_decode(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint16_t *out, size_t outCount);

/** PIZ's inverse wavelet of one channel's plane: nx x ny samples of ox 16-bit words (1 or 2), rows oy words apart. */
void exr_wav2_decode_channel(uint16_t *words, int64_t nx, int64_t ox, int64_t ny, int64_t oy, int32_t maxValue);

/** PIZ up to the channel planes: fills `words` (layout->totalWords) and `lut` (65536, zero past the last used entry); returns maxCode or EXR_FAIL. */
int32_t exr_piz_planes(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint16_t *words, uint16_t *lut);
int exr_piz_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint8_t *dst, size_t dstBytes);

int exr_pxr24_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint8_t *dst, size_t dstBytes);

/** logTable: the 65536-entry pLinear table of b44-log-table.ts, or NULL when no channel is pLinear half. */
int exr_b44_into(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, const uint16_t *logTable, uint8_t *dst,
                 size_t dstBytes);

/** DWA: one RLE channel's byte planes from data[start] into its rows of the chunk (byte offsets rowOffsets[0..height)). */
int exr_dwa_rle_plane(ExrContext *ctx, const uint8_t *data, size_t dataBytes, size_t start, size_t width, size_t height, int wide,
                      const int32_t *rowOffsets, size_t rowOffsetCount, uint8_t *out, size_t outBytes);

/** Lines of half samples to sum into one row of thumbnail bins (see bins.ts's sumHalfLines); lengths in elements. */
typedef struct ExrHalfLines {
  const uint16_t *samples;
  size_t samplesLength;
  int64_t firstIndex, lineStride, lineCount, firstX, n, rowStart;
  const int32_t *binOf;
  size_t binOfLength;
  const int32_t *runEnd;
  size_t runEndLength;
  double *acc;
  size_t accLength;
} ExrHalfLines;

/** A thumbnail job's sums (band-sums.ts) to finish into half RGBA; lengths in elements. */
typedef struct ExrThumbnailSums {
  const double *sums; /* the job's buffer as float64: the band slots */
  size_t sumsLength;
  int64_t channelCount, widthPx, heightPx, bandCount;
  const int32_t *bands;          /* per band: element offset of its slot, first bin row, elements a channel */
  const double *countX, *countY; /* per channel: samples in each bin column (widthPx) and bin row (heightPx) */
  size_t countXLength, countYLength;
  int32_t rgba[4]; /* channel of R, G, B, A, or -1 (0 for a colour, 1.0 for alpha) */
  uint16_t *out;
  size_t outLength;
  const int16_t *memo; /* a per-channel view's memo (65536 entries, -1 where not computed yet), or NULL */
  uint8_t *rgba8;      /* 8-bit RGBA through the memo (with memo) */
  size_t rgba8Length;
  int64_t firstMiss; /* set: the first pixel whose R, G or B value the memo has no entry for (pixels when none, or no memo) */
} ExrThumbnailSums;

/** The x86 vector units this CPU has, as EXR_CPU_* bits (0 elsewhere); asked once. */
enum { EXR_CPU_AVX2 = 1, EXR_CPU_F16C = 2, EXR_CPU_AVX512 = 4 };
int exr_cpu_vectors(void);

/** Floats clamped to ±65504 and rounded to half bits (nearest even), with the vector units in `vectors` (EXR_CPU_*
 * bits) where they help: the finishing's conversion, for the harness to compare with none. */
void exr_halves_row(const float *means, int64_t width, uint16_t *halves, int vectors);

/** Adds the bands up, divides by the bins' counts, writes half RGBA (composeThumbnail's result), and 8-bit RGBA from
 * the memo up to t->firstMiss. */
int exr_finish_thumbnail(ExrContext *ctx, ExrThumbnailSums *t);

/** table: 65536 floats, the value of each half code. halfBits: the table is SANE_HALF, so the CPU may convert the
 * halves itself. anyOrder: every bin holds at most 2^13 samples, so its sums are exact in any order (see bins.c).
 * Checks every index against the lengths. */
int exr_sum_half_lines(ExrContext *ctx, const ExrHalfLines *lines, const float *table, int halfBits, int anyOrder);

/** out[code] = the value SANE_HALF gives half bits lut[code], for code < used: a PIZ chunk's codes as values. */
void exr_compose_half_table(const uint16_t *lut, int64_t used, float *out);

/** The most bytes exr_png_rgb8 writes for an image of this size. */
size_t exr_png_bound(int64_t widthPx, int64_t heightPx);
/** 8-bit RGBA (rgbaBytes = 4 x pixels) to a PNG of its RGB at libdeflate's compression `level` (0 to 12), into out
 * (at least exr_png_bound bytes): the PNG's length, or EXR_FAIL with ctx->error set. */
int64_t exr_png_rgb8(ExrContext *ctx, const uint8_t *rgba, size_t rgbaBytes, int64_t widthPx, int64_t heightPx, int level, uint8_t *out,
                     size_t outBytes);

#endif
