// RLE (rle.ts): byte records (a count byte c < 0: -c literal bytes follow; else one byte, repeated c + 1 times) into a
// scratch, then ZIP's predictor and reorder (kernels.c) into the chunk.
#include <wasm_simd128.h>

#include "kernels.h"

static void *codedKept;
static size_t codedKeptBytes;

/* The records of src into exactly dstBytes of coded: 0, or a failure negated. Records hold at most 128 bytes: they are
 * copied and filled 16 bytes a step, past their end where the buffers have room (later records overwrite the excess;
 * coded has 16 spare bytes). */
static int32_t unrun(const uint8_t *src, size_t srcBytes, uint8_t *coded, size_t dstBytes) {
  size_t inPos = 0, outPos = 0;
  while (inPos < srcBytes) {
    const uint8_t count = src[inPos];
    if (count >= 128) {
      const size_t length = 256u - count;
      if (length > srcBytes - inPos - 1) return exr_fail("RLE literal run extends past the end of the chunk");
      if (length > dstBytes - outPos) return exr_fail("RLE data decompresses to more bytes than the chunk holds");
      const uint8_t *from = src + inPos + 1;
      if (length + 16 <= srcBytes - inPos - 1) {
        for (size_t k = 0; k < length; k += 16) wasm_v128_store(coded + outPos + k, wasm_v128_load(from + k));
      } else {
        for (size_t k = 0; k < length; k++) coded[outPos + k] = from[k];
      }
      inPos += 1 + length;
      outPos += length;
    } else {
      if (srcBytes - inPos < 2) return exr_fail("RLE run is missing its value byte");
      const size_t length = (size_t)count + 1;
      if (length > dstBytes - outPos) return exr_fail("RLE data decompresses to more bytes than the chunk holds");
      const v128_t value = wasm_i8x16_splat((int8_t)src[inPos + 1]);
      for (size_t k = 0; k < length; k += 16) wasm_v128_store(coded + outPos + k, value);
      inPos += 2;
      outPos += length;
    }
  }
  if (outPos != dstBytes) return exr_fail_n("RLE data decompresses to ", (int64_t)outPos, " bytes, fewer than the chunk holds");
  return 0;
}

/* An RLE chunk into dst (dstBytes): 0, or a failure negated. */
EXPORT("rle") int32_t exr_rle(const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes) {
  uint8_t *coded = exr_keep(&codedKept, &codedKeptBytes, dstBytes);
  if (!coded) return -EXR_WASM_NO_MEMORY;
  const int32_t unrun_ = unrun(src, srcBytes, coded, dstBytes);
  if (unrun_ < 0) return unrun_;
  exr_unpredict(coded, dst, dstBytes);
  return 0;
}
