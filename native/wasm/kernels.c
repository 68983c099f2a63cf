// The WebAssembly kernels (built by scripts/build-wasm.mjs into exr_kernels.wasm) and what they share: the heap, the
// error text, the chunk layout, zlib inflation by libdeflate and ZIP's predictor and reorder with SIMD128; freestanding
// (no imports). PIZ, RLE and B44 have files of their own; codec/compression/wasm.ts loads and calls them.
#include <wasm_simd128.h>

#include "kernels.h"
#include "libdeflate.h"

/* ---------------------------------------------------------------------------------------------
 * Memory: a first-fit free list over blocks taken from the top of the heap (memory.grow). The callers hold a few
 * buffers they grow rarely (the source, the scratch, the output of a chunk), so nothing cleverer pays. */

typedef struct Block {
  size_t bytes; /* usable bytes after the header */
  struct Block *next;
  size_t pad[2]; /* keeps the usable bytes 16-byte aligned */
} Block;

extern unsigned char __heap_base;
static uintptr_t heapTop;
static Block *freeBlocks;

static size_t rounded(size_t bytes) { return (bytes + 15) & ~(size_t)15; }

EXPORT("alloc") void *exr_alloc(size_t bytes) {
  bytes = rounded(bytes ? bytes : 1);
  for (Block **link = &freeBlocks; *link; link = &(*link)->next) {
    if ((*link)->bytes < bytes) continue;
    Block *block = *link;
    *link = block->next;
    return block + 1;
  }
  if (!heapTop) heapTop = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
  if (bytes > SIZE_MAX - heapTop - sizeof(Block)) return NULL;
  const uintptr_t end = heapTop + sizeof(Block) + bytes;
  const uintptr_t have = __builtin_wasm_memory_size(0) * 65536u;
  if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (size_t)-1) return NULL;
  Block *block = (Block *)heapTop;
  block->bytes = bytes;
  heapTop = end;
  return block + 1;
}

EXPORT("free") void exr_free(void *pointer) {
  if (!pointer) return;
  Block *block = (Block *)pointer - 1;
  block->next = freeBlocks;
  freeBlocks = block;
}

void *exr_keep(void **slot, size_t *slotBytes, size_t bytes) {
  if (*slot && *slotBytes >= bytes) return *slot;
  exr_free(*slot);
  *slot = exr_alloc(bytes + 16);
  *slotBytes = *slot ? bytes : 0;
  return *slot;
}

/* ---------------------------------------------------------------------------------------------
 * Failures: the text of the last, NUL-terminated, for wasm.ts to read (error_text). */

static char errorText[256];

EXPORT("error_text") const char *exr_error_text(void) { return errorText; }

int32_t exr_fail_n(const char *what, int64_t number, const char *tail) {
  size_t at = 0;
  const size_t room = sizeof errorText - 1;
  for (; *what && at < room; what++) errorText[at++] = *what;
  if (number >= 0) {
    char digits[24];
    int count = 0;
    do digits[count++] = (char)('0' + number % 10);
    while ((number /= 10) > 0);
    while (count > 0 && at < room) errorText[at++] = digits[--count];
  }
  for (; *tail && at < room; tail++) errorText[at++] = *tail;
  errorText[at] = 0;
  return -EXR_WASM_CORRUPT;
}

/* ---------------------------------------------------------------------------------------------
 * The chunk layout: every count checked, so that a kernel may trust it. */

int32_t exr_layout_parse(const int32_t *words, size_t wordCount, ExrLayout *layout) {
  if (wordCount < 2) return exr_fail("chunk layout is too short");
  const int32_t channelCount = words[0], rowCount = words[1];
  if (channelCount < 0 || rowCount < 0 || (uint64_t)wordCount != 2 + 4 * (uint64_t)channelCount + (uint64_t)rowCount)
    return exr_fail_n("chunk layout does not hold its channels and rows: ", (int64_t)wordCount, " words");
  layout->channelCount = channelCount;
  layout->rowCount = rowCount;
  layout->channels = words + 2;
  layout->rows = words + 2 + 4 * (size_t)channelCount;
  uint64_t totalBytes = 0, heightSum = 0;
  for (int32_t c = 0; c < channelCount; c++) {
    const int32_t width = LAYOUT_WIDTH(layout, c), height = LAYOUT_HEIGHT(layout, c), type = LAYOUT_TYPE(layout, c);
    if (width < 0 || height < 0 || type < EXR_UINT || type > EXR_FLOAT) return exr_fail_n("chunk layout has a bad channel ", c, "");
    totalBytes += (uint64_t)width * (uint64_t)height * exr_bytes_per_sample(type);
    heightSum += (uint64_t)height;
  }
  if (heightSum != (uint64_t)rowCount) return exr_fail_n("chunk layout lists ", rowCount, " rows, not one per channel row");
  /* every channel owns exactly its heightSamples rows: a row naming a channel past its height is refused */
  static int32_t *seen;
  static size_t seenBytes;
  if (channelCount && !exr_keep((void **)&seen, &seenBytes, (size_t)channelCount * sizeof(int32_t))) return -EXR_WASM_NO_MEMORY;
  for (int32_t c = 0; c < channelCount; c++) seen[c] = 0;
  for (int32_t r = 0; r < rowCount; r++) {
    const int32_t c = layout->rows[r];
    if (c < 0 || c >= channelCount || ++seen[c] > LAYOUT_HEIGHT(layout, c))
      return exr_fail_n("chunk layout row ", r, " names a bad channel");
  }
  layout->totalBytes = totalBytes;
  return 0;
}

/* libdeflate's allocations (its one decompressor) come from the same heap. */
static void *deflate_malloc(size_t bytes) { return exr_alloc(bytes); }

/* ---------------------------------------------------------------------------------------------
 * Inflation */

static struct libdeflate_decompressor *inflater;

int64_t exr_inflate_into(const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  if (!inflater) {
    libdeflate_set_memory_allocator(deflate_malloc, exr_free);
    inflater = libdeflate_alloc_decompressor();
    if (!inflater) return -EXR_WASM_NO_MEMORY;
  }
  size_t written = 0;
  enum libdeflate_result result = libdeflate_zlib_decompress(inflater, src, srcBytes, dst, dstBytes, &written);
  if (result == LIBDEFLATE_INSUFFICIENT_SPACE) return -EXR_WASM_TOO_LONG;
  if (result != LIBDEFLATE_SUCCESS) return -EXR_WASM_CORRUPT;
  return (int64_t)written;
}

/* A zlib stream into dst: the bytes written, or a failure negated (more than dstBytes: EXR_WASM_TOO_LONG). */
EXPORT("inflate") int32_t exr_inflate(const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  return (int32_t)exr_inflate_into(src, srcBytes, dst, dstBytes);
}

/* ---------------------------------------------------------------------------------------------
 * ZIP's predictor and reorder (codec/compression/predictor.ts): each byte but the first is stored as
 * (byte - previous + 128) mod 256 over the even-indexed bytes then the odd-indexed ones, one running sum across both.
 * Decoding is a byte-wise prefix sum; the second half starts from the first half's total, so both halves are summed
 * in step, 16 bytes each, and interleaved straight into the output. */

static inline v128_t shifted_up(v128_t v, int bytes) {
  const v128_t zero = wasm_i8x16_splat(0);
  switch (bytes) {
  case 1: return wasm_i8x16_shuffle(zero, v, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
  case 2: return wasm_i8x16_shuffle(zero, v, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
  case 4: return wasm_i8x16_shuffle(zero, v, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
  default: return wasm_i8x16_shuffle(zero, v, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
  }
}

/* Byte-wise inclusive prefix sum of one vector, mod 256. */
static inline v128_t prefix_sum16(v128_t v) {
  v = wasm_i8x16_add(v, shifted_up(v, 1));
  v = wasm_i8x16_add(v, shifted_up(v, 2));
  v = wasm_i8x16_add(v, shifted_up(v, 4));
  return wasm_i8x16_add(v, shifted_up(v, 8));
}

static inline v128_t last_byte_everywhere(v128_t v) {
  return wasm_i8x16_shuffle(v, v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15);
}

/* The sum mod 256 of bytes[0..count), each less 128 (the bias). */
static uint8_t unbiased_total(const uint8_t *bytes, size_t count) {
  v128_t sums = wasm_i8x16_splat(0);
  size_t i = 0;
  for (; i + 16 <= count; i += 16) sums = wasm_i8x16_add(sums, wasm_v128_load(bytes + i));
  sums = prefix_sum16(sums);
  uint8_t total = (uint8_t)wasm_u8x16_extract_lane(sums, 15);
  for (; i < count; i++) total = (uint8_t)(total + bytes[i]);
  return (uint8_t)(total - (uint8_t)(count * 128));
}

/* Undoes the predictor and reorder of coded (byteCount bytes) into dst. */
void exr_unpredict(const uint8_t *coded, uint8_t *dst, size_t byteCount) {
  if (byteCount == 0) return;
  const size_t firstBytes = (byteCount + 1) / 2, pairs = byteCount / 2;
  const uint8_t *first = coded, *second = coded + firstBytes;
  /* the first byte carries no bias: sum it as if it had one, starting 128 higher */
  uint8_t runFirst = 128, runSecond = (uint8_t)(128 + unbiased_total(first, firstBytes));
  const v128_t bias = wasm_i8x16_splat((int8_t)0x80);
  v128_t carryFirst = wasm_i8x16_splat((int8_t)runFirst), carrySecond = wasm_i8x16_splat((int8_t)runSecond);
  size_t i = 0;
  for (; i + 16 <= pairs; i += 16) {
    const v128_t a = prefix_sum16(wasm_v128_xor(wasm_v128_load(first + i), bias));
    const v128_t b = prefix_sum16(wasm_v128_xor(wasm_v128_load(second + i), bias));
    const v128_t even = wasm_i8x16_add(a, carryFirst), odd = wasm_i8x16_add(b, carrySecond);
    carryFirst = wasm_i8x16_add(carryFirst, last_byte_everywhere(a));
    carrySecond = wasm_i8x16_add(carrySecond, last_byte_everywhere(b));
    wasm_v128_store(dst + 2 * i, wasm_i8x16_shuffle(even, odd, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
    wasm_v128_store(dst + 2 * i + 16, wasm_i8x16_shuffle(even, odd, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
  }
  runFirst = (uint8_t)wasm_u8x16_extract_lane(carryFirst, 0);
  runSecond = (uint8_t)wasm_u8x16_extract_lane(carrySecond, 0);
  for (; i < pairs; i++) {
    runFirst = (uint8_t)(runFirst + first[i] - 128);
    runSecond = (uint8_t)(runSecond + second[i] - 128);
    dst[2 * i] = runFirst;
    dst[2 * i + 1] = runSecond;
  }
  if (firstBytes > pairs) dst[byteCount - 1] = (uint8_t)(runFirst + first[pairs] - 128);
}

/* ZIP/ZIPS: inflates into scratch (dstBytes long), then undoes the predictor into dst when exactly dstBytes came out;
 * returns the bytes inflated, or a failure negated. */
EXPORT("zip") int32_t exr_zip(const uint8_t *src, size_t srcBytes, uint8_t *scratch, uint8_t *dst, size_t dstBytes) {
  const int64_t written = exr_inflate_into(src, srcBytes, scratch, dstBytes);
  if (written == (int64_t)dstBytes) exr_unpredict(scratch, dst, dstBytes);
  return (int32_t)written;
}
