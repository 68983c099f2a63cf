// What the WebAssembly kernels (native/wasm/*.c) share: exports, the heap, failures with their words, the chunk layout.
#ifndef EXR_WASM_KERNELS_H
#define EXR_WASM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* Failures, returned negated: CORRUPT says what was wrong in exr_error_text (wasm.ts reads it); the others wasm.ts words
 * itself. */
enum { EXR_WASM_CORRUPT = 1, EXR_WASM_TOO_LONG = 3, EXR_WASM_NO_MEMORY = 4 };

/** Sets the error text to `what` followed by `number` (when not negative) and `tail`; returns -EXR_WASM_CORRUPT. */
int32_t exr_fail_n(const char *what, int64_t number, const char *tail);
static inline int32_t exr_fail(const char *what) { return exr_fail_n(what, -1, ""); }

void *exr_alloc(size_t bytes);
void exr_free(void *pointer);
/** A buffer of this thread kept between calls in *slot (its size in *slotBytes), grown when a call needs more; NULL
 * where the memory cannot grow. 16 spare bytes: vector loops may load (never store) a little past the end. */
void *exr_keep(void **slot, size_t *slotBytes, size_t bytes);

/** zlib into dst: the bytes written, or a failure negated (more than dstBytes: EXR_WASM_TOO_LONG). */
int64_t exr_inflate_into(const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);
/** Undoes ZIP's and RLE's predictor and reorder of coded (byteCount bytes) into dst. */
void exr_unpredict(const uint8_t *coded, uint8_t *dst, size_t byteCount);

/** A chunk's layout as native-layout.ts builds it: [channelCount, rowCount, channelCount x (widthSamples, heightSamples,
 * pixelType, pLinear), rowCount x channel index], checked by exr_layout_parse. */
enum { EXR_UINT = 0, EXR_HALF = 1, EXR_FLOAT = 2 };
typedef struct ExrLayout {
  int32_t channelCount, rowCount;
  const int32_t *channels; /* 4 words a channel */
  const int32_t *rows;
  uint64_t totalBytes;
} ExrLayout;
#define LAYOUT_WIDTH(layout, c) ((layout)->channels[4 * (c)])
#define LAYOUT_HEIGHT(layout, c) ((layout)->channels[4 * (c) + 1])
#define LAYOUT_TYPE(layout, c) ((layout)->channels[4 * (c) + 2])
#define LAYOUT_PLINEAR(layout, c) ((layout)->channels[4 * (c) + 3])

static inline uint32_t exr_bytes_per_sample(int32_t pixelType) { return pixelType == EXR_HALF ? 2 : 4; }

/** 0, or a failure negated (the text set). */
int32_t exr_layout_parse(const int32_t *words, size_t wordCount, ExrLayout *layout);

/** Decodes a whole Huffman block (from its 20-byte header) into exactly outCount values: 0 or a failure negated. */
int32_t exr_huffman_decode(const uint8_t *src, size_t srcBytes, uint16_t *out, size_t outCount);

static inline uint16_t load_le16(const uint8_t *p) {
  uint16_t v;
  __builtin_memcpy(&v, p, 2);
  return v;
}
static inline uint32_t load_le32(const uint8_t *p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}
static inline void store_le16(uint8_t *p, uint16_t v) { __builtin_memcpy(p, &v, 2); }

#endif
