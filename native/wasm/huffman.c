// OpenEXR's Huffman decoder for 16-bit values (PIZ), as huffman.ts decodes it: the same block format, the same checks
// and the same values, with a 64-bit bit buffer and a 14-bit first-level table.
#include <wasm_simd128.h>

#include "kernels.h"

#define HEADER_BYTES 20
/* 65536 values plus the run-length pseudo-symbol. */
#define SYMBOL_COUNT 65537
#define MAX_CODE_BITS 58
#define SHORT_ZEROCODE_RUN 59
#define LONG_ZEROCODE_RUN 63
#define SHORTEST_LONG_RUN (2 + LONG_ZEROCODE_RUN - SHORT_ZEROCODE_RUN)
/* First-level lookup width: the codes of real PIZ data are nearly all this short; four fit one refill of 56 bits. */
#define LOOKUP_BITS 14
#define MAX_VALUES_PER_BIT 29
/* shortSymbol marks the run-length code as RLC_ENTRY + its length, above every long-code hint. */
#define RLC_ENTRY 64

typedef struct {
  /* code lengths, valid for the symbols in usedSymbols only (the zero runs between them are not written) */
  uint8_t codeLength[SYMBOL_COUNT];
  /* the symbols with a code, ascending: the table is built from these alone (a DWA table spans 65,536 values and codes
   * a few hundred) */
  int32_t usedSymbols[SYMBOL_COUNT];
  int32_t usedCount;
  int32_t lengthCount[MAX_CODE_BITS + 2];
  /* canonical first (lowest) code of each length */
  int64_t firstCode[MAX_CODE_BITS + 2];
  /* index in symbolsByCode of the first symbol of each length */
  int32_t symbolOffset[MAX_CODE_BITS + 2];
  int32_t rankCursor[MAX_CODE_BITS + 2];
  /* symbols ordered by code length, then by code */
  int32_t symbolsByCode[SYMBOL_COUNT];
  /* Indexed by the next LOOKUP_BITS bits: the length of the code starting there when at most LOOKUP_BITS long, its
   * symbol in shortSymbol. Else 0, and shortSymbol says why: RLC_ENTRY + length for the run-length code, the length of
   * the shortest longer code with that prefix, or 0 where no code starts with it. Lengths apart from symbols keep the
   * table on the decoder's serial chain at 16 KiB. */
  uint8_t shortLength[1 << LOOKUP_BITS];
  uint16_t shortSymbol[1 << LOOKUP_BITS];
  int minLength, maxLength;
} HuffmanTables;

static HuffmanTables *tables;

/* Unpacks the code lengths of symbols im..iM; returns the byte offset just past the table, or a failure negated. */
static int64_t read_code_lengths(HuffmanTables *t, const uint8_t *src, size_t end, uint32_t im, uint32_t iM) {
  size_t pos = HEADER_BYTES;
  uint32_t bits = 0;
  int bitCount = 0;
  t->usedCount = 0;
  for (uint32_t symbol = im; symbol <= iM; symbol++) {
    if (bitCount < 6) {
      if (pos >= end) return exr_fail("Huffman code table is truncated");
      bits = (bits << 8) | src[pos++];
      bitCount += 8;
    }
    bitCount -= 6;
    const uint32_t length = (bits >> bitCount) & 63;
    bits &= (1u << bitCount) - 1;
    if (length < SHORT_ZEROCODE_RUN) {
      t->codeLength[symbol] = (uint8_t)length;
      if (length) t->usedSymbols[t->usedCount++] = (int32_t)symbol;
      continue;
    }
    uint32_t run;
    if (length == LONG_ZEROCODE_RUN) {
      if (bitCount < 8) {
        if (pos >= end) return exr_fail("Huffman code table is truncated");
        bits = (bits << 8) | src[pos++];
        bitCount += 8;
      }
      bitCount -= 8;
      run = ((bits >> bitCount) & 255) + SHORTEST_LONG_RUN;
      bits &= (1u << bitCount) - 1;
    } else {
      run = length - SHORT_ZEROCODE_RUN + 2;
    }
    if (symbol + run > iM + 1) return exr_fail("Huffman code table runs past its last symbol");
    symbol += run - 1;
  }
  return (int64_t)pos;
}

/* The canonical code and the lookup table from the lengths of usedSymbols (buildDecoder in huffman.ts). */
static int32_t build_decoder(HuffmanTables *t, uint32_t im, uint32_t iM) {
  for (int length = 0; length < MAX_CODE_BITS + 2; length++) t->lengthCount[length] = 0;
  const int32_t *used = t->usedSymbols;
  const int32_t usedCount = t->usedCount;
  for (int32_t u = 0; u < usedCount; u++) t->lengthCount[t->codeLength[used[u]]]++;
  t->lengthCount[0] = (int32_t)(iM - im + 1) - usedCount;
  int minLength = 0, maxLength = 0;
  for (int length = 1; length <= MAX_CODE_BITS; length++) {
    if (t->lengthCount[length] == 0) continue;
    if (minLength == 0) minLength = length;
    maxLength = length;
  }
  t->minLength = minLength;
  t->maxLength = maxLength;
  if (maxLength == 0) return 0;

  int64_t code = 0;
  for (int length = MAX_CODE_BITS; length >= 1; length--) {
    t->firstCode[length] = code;
    const int64_t next = code + t->lengthCount[length];
    if ((next & 1) != 0 && length - 1 >= minLength) return exr_fail("Huffman code table is not a prefix code");
    code = next >> 1;
  }
  if (t->firstCode[minLength] + t->lengthCount[minLength] > ((int64_t)1 << minLength))
    return exr_fail("Huffman code table is over-subscribed");

  int32_t offset = 0;
  for (int length = 1; length <= maxLength; length++) {
    t->symbolOffset[length] = offset;
    t->rankCursor[length] = 0;
    offset += t->lengthCount[length];
  }
  for (int32_t u = 0; u < usedCount; u++) {
    const int length = t->codeLength[used[u]];
    t->symbolsByCode[t->symbolOffset[length] + t->rankCursor[length]++] = used[u];
  }

  const int64_t tableSize = (int64_t)1 << LOOKUP_BITS;
  __builtin_memset(t->shortLength, 0, sizeof t->shortLength);
  __builtin_memset(t->shortSymbol, 0, sizeof t->shortSymbol);
  for (int length = minLength; length <= LOOKUP_BITS && length <= maxLength; length++) {
    const int64_t span = (int64_t)1 << (LOOKUP_BITS - length);
    const int32_t count = t->lengthCount[length], base = t->symbolOffset[length];
    int64_t start = t->firstCode[length] * span;
    if (start + (int64_t)count * span > tableSize) return exr_fail("Huffman code table is over-subscribed");
    for (int32_t rank = 0; rank < count; rank++) {
      const uint32_t symbol = (uint32_t)t->symbolsByCode[base + rank];
      /* every symbol but the run-length code (iM, up to 65536) fits 16 bits */
      const uint8_t shortLength = symbol == iM ? 0 : (uint8_t)length;
      const uint16_t shortSymbol = symbol == iM ? (uint16_t)(RLC_ENTRY + length) : (uint16_t)symbol;
      for (const int64_t end = start + span; start < end; start++) {
        t->shortLength[start] = shortLength;
        t->shortSymbol[start] = shortSymbol;
      }
    }
  }
  for (int length = LOOKUP_BITS + 1; length <= maxLength; length++) {
    const int shift = length - LOOKUP_BITS;
    const int32_t count = t->lengthCount[length];
    const int64_t first = t->firstCode[length];
    for (int32_t rank = 0; rank < count; rank++) {
      const int64_t prefix = (first + rank) >> shift;
      if (prefix >= tableSize) return exr_fail("Huffman code table is over-subscribed");
      if (t->shortLength[prefix] == 0 && t->shortSymbol[prefix] == 0) t->shortSymbol[prefix] = (uint16_t)length;
    }
  }
  return 0;
}

/* Decodes one code bit by bit from bit `pos` of data: (symbol << 6) | length, or a failure negated. */
static int64_t decode_code_slowly(const HuffmanTables *t, const uint8_t *data, uint64_t pos, uint64_t endBit) {
  int64_t value = 0;
  for (int length = 1; length <= t->maxLength; length++) {
    const uint64_t bit = pos + (uint64_t)length - 1;
    if (bit >= endBit) return exr_fail("Huffman data ends inside a code");
    value = value * 2 + ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    if (length < t->minLength) continue;
    const int64_t first = t->firstCode[length];
    if (value >= first) {
      const int64_t rank = value - first;
      if (rank >= t->lengthCount[length]) break;
      return ((int64_t)t->symbolsByCode[t->symbolOffset[length] + rank] << 6) | length;
    }
  }
  return exr_fail("Huffman data holds an undefined code");
}

static int32_t read_byte_slowly(const uint8_t *data, uint64_t pos, uint64_t endBit) {
  if (pos + 8 > endBit) return exr_fail("Huffman data ends inside a run length");
  const uint8_t *at = data + (pos >> 3);
  const unsigned shift = pos & 7;
  return shift == 0 ? at[0] : ((at[0] << shift) | (at[1] >> (8 - shift))) & 255;
}

/* Eight bytes big-endian: WebAssembly has no byte swap, and the shifts and masks clang makes of one cost more than a
 * shuffle. */
static inline uint64_t load_be64(const uint8_t *p) {
  const v128_t v = wasm_v128_load64_zero(p);
  return wasm_u64x2_extract_lane(wasm_i8x16_shuffle(v, v, 7, 6, 5, 4, 3, 2, 1, 0, 8, 9, 10, 11, 12, 13, 14, 15), 0);
}

/* Appends `run` more copies of the previous value. */
#define EMIT_RUN(run)                                                                                                                      \
  do {                                                                                                                                     \
    const size_t run_ = (run);                                                                                                             \
    if (o == 0 || o + run_ > outCount) return exr_fail("Huffman run-length code out of place");                                            \
    const uint16_t value_ = out[o - 1];                                                                                                    \
    for (size_t k_ = 0; k_ < run_; k_++) out[o + k_] = value_;                                                                             \
    o += run_;                                                                                                                             \
  } while (0)

int32_t exr_huffman_decode(const uint8_t *src, size_t srcBytes, uint16_t *out, size_t outCount) {
  if (srcBytes < HEADER_BYTES) {
    if (outCount != 0) return exr_fail_n("Huffman block of ", (int64_t)srcBytes, " bytes is shorter than its header");
    return 0;
  }
  const uint32_t im = load_le32(src), iM = load_le32(src + 4), nBits = load_le32(src + 12);
  if ((uint64_t)outCount > (uint64_t)nBits * MAX_VALUES_PER_BIT + 1)
    return exr_fail_n("Huffman block of ", nBits, " bits cannot hold the values asked for");
  if (im >= SYMBOL_COUNT || iM >= SYMBOL_COUNT || im > iM) return exr_fail("Huffman symbol range is out of bounds");
  if (!tables) tables = exr_alloc(sizeof(HuffmanTables));
  if (!tables) return -EXR_WASM_NO_MEMORY;
  HuffmanTables *t = tables;
  const int64_t dataStart = read_code_lengths(t, src, srcBytes, im, iM);
  if (dataStart < 0) return (int32_t)dataStart;
  const uint64_t dataEnd = (uint64_t)dataStart + ((uint64_t)nBits + 7) / 8;
  if (dataEnd > srcBytes) return exr_fail_n("Huffman data of ", nBits, " bits runs past the end of its block");
  if (outCount == 0) return 0;
  const int32_t built = build_decoder(t, im, iM);
  if (built < 0) return built;
  if (t->maxLength == 0) return exr_fail("Huffman code table is empty");

  const uint8_t *data = src + dataStart;
  const uint8_t *shortLength = t->shortLength;
  const uint16_t *shortSymbol = t->shortSymbol;
  const uint32_t rlc = iM;
  const int maxLength = t->maxLength;
  size_t o = 0;

  /* `buffer` holds the next bufferBits stream bits left-aligned. The refill loads 8 bytes at p, so the fast loop stops
   * 16 bytes short of the end: every bit it consumes lies before nBits (like huffman.ts). */
  const uint8_t *p = data;
#define REFILL()                                                                                                                           \
  do {                                                                                                                                     \
    buffer |= load_be64(p) >> bufferBits;                                                                                                  \
    p += (63 - bufferBits) >> 3;                                                                                                           \
    bufferBits |= 56;                                                                                                                      \
  } while (0)
#define INDEX() (size_t)(buffer >> (64 - LOOKUP_BITS))
#define TAKE(index, length)                                                                                                                \
  do {                                                                                                                                     \
    buffer <<= (length);                                                                                                                   \
    bufferBits -= (length);                                                                                                                \
    out[o++] = shortSymbol[index];                                                                                                         \
  } while (0)
  const uint8_t *fastEnd = dataEnd - (uint64_t)dataStart >= 16 ? src + dataEnd - 16 : data;
  uint64_t buffer = 0;
  int bufferBits = 0;
  while (o < outCount && p < fastEnd) {
    REFILL();
    size_t index = INDEX();
    int length = shortLength[index];
    if (length) {
      /* up to four short codes a refill: each takes at most LOOKUP_BITS of the >= 56 bits loaded */
      TAKE(index, length);
      if (outCount - o < 3) continue;
      if (!(length = shortLength[index = INDEX()])) continue;
      TAKE(index, length);
      if (!(length = shortLength[index = INDEX()])) continue;
      TAKE(index, length);
      if (!(length = shortLength[index = INDEX()])) continue;
      TAKE(index, length);
      continue;
    }
    const int hint = shortSymbol[index];
    uint32_t symbol;
    if (hint >= RLC_ENTRY) {
      symbol = rlc;
      length = hint - RLC_ENTRY;
      buffer <<= length;
      bufferBits -= length;
    } else {
      if (hint == 0) return exr_fail("Huffman data holds an undefined code");
      /* canonical search from the shortest length sharing this prefix */
      int found = 0;
      length = hint;
      const int limit = maxLength < bufferBits ? maxLength : bufferBits;
      symbol = 0;
      for (; length <= limit; length++) {
        const int64_t value = (int64_t)(buffer >> (64 - length));
        const int64_t first = t->firstCode[length];
        if (value >= first) {
          const int64_t rank = value - first;
          if (rank >= t->lengthCount[length]) return exr_fail("Huffman data holds an undefined code");
          symbol = (uint32_t)t->symbolsByCode[t->symbolOffset[length] + rank];
          found = 1;
          break;
        }
      }
      if (found) {
        buffer <<= length;
        bufferBits -= length;
      } else {
        /* longer than the buffer holds: decode from the byte stream, then re-seat the buffer after it */
        uint64_t pos = (uint64_t)(p - data) * 8 - (uint64_t)bufferBits;
        const int64_t packed = decode_code_slowly(t, data, pos, nBits);
        if (packed < 0) return (int32_t)packed;
        symbol = (uint32_t)(packed >> 6);
        pos += (uint64_t)(packed & 63);
        if (symbol == rlc) {
          const int32_t run = read_byte_slowly(data, pos, nBits);
          if (run < 0) return run;
          pos += 8;
          EMIT_RUN((size_t)run);
        } else {
          out[o++] = (uint16_t)symbol;
        }
        p = data + (pos >> 3);
        const unsigned skip = pos & 7;
        if (p < fastEnd) {
          buffer = load_be64(p) << skip;
          p += 7;
          bufferBits = 56 - (int)skip;
        } else {
          /* the slow tail below goes on from bit pos */
          p += 1;
          buffer = 0;
          bufferBits = 8 - (int)skip;
        }
        continue;
      }
    }
    if (symbol == rlc) {
      if (bufferBits < 8) REFILL();
      const size_t run = (size_t)(buffer >> 56);
      buffer <<= 8;
      bufferBits -= 8;
      EMIT_RUN(run);
    } else {
      out[o++] = (uint16_t)symbol;
    }
  }

  /* the last bytes, every read checked against nBits */
  uint64_t pos = (uint64_t)(p - data) * 8 - (uint64_t)bufferBits;
  while (o < outCount) {
    const int64_t packed = decode_code_slowly(t, data, pos, nBits);
    if (packed < 0) return (int32_t)packed;
    const uint32_t symbol = (uint32_t)(packed >> 6);
    pos += (uint64_t)(packed & 63);
    if (symbol == rlc) {
      const int32_t run = read_byte_slowly(data, pos, nBits);
      if (run < 0) return run;
      pos += 8;
      EMIT_RUN((size_t)run);
    } else {
      out[o++] = (uint16_t)symbol;
    }
  }
  return 0;
}

/* A whole Huffman block into exactly outCount values (DWA's AC values): 0, or a failure negated. */
EXPORT("huffman") int32_t exr_huffman(const uint8_t *src, size_t srcBytes, uint16_t *out, size_t outCount) {
  return exr_huffman_decode(src, srcBytes, out, outCount);
}
