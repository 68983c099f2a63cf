// OpenEXR's Huffman decoder for 16-bit values (PIZ): the block format and the checks of huffman.ts, with a 64-bit bit buffer.
//
// Every accept/reject decision and every decoded value matches huffman.ts (its tests compare the
// two on corrupted blocks); see that file for the block format and the canonical-code properties
// the table relies on.
#include <stdlib.h>

#include "kernels.h"

#define HEADER_BYTES 20
/* 65536 values plus the run-length pseudo-symbol. */
#define SYMBOL_COUNT 65537
#define MAX_CODE_BITS 58
#define SHORT_ZEROCODE_RUN 59
#define LONG_ZEROCODE_RUN 63
#define SHORTEST_LONG_RUN (2 + LONG_ZEROCODE_RUN - SHORT_ZEROCODE_RUN)
/* First-level lookup width: the codes of real PIZ data are nearly all this short. */
#define LOOKUP_BITS 14
#if LOOKUP_BITS > 14
#error "the fast loop takes four codes of at most 14 bits per refill"
#endif
#define MAX_VALUES_PER_BIT 29
/* shortSymbol marks the run-length code as RLC_ENTRY + its length, above every long-code hint. */
#define RLC_ENTRY 64

struct HuffmanTables {
  /* Code lengths, valid for the symbols in usedSymbols only (the zero runs between them are not written). */
  uint8_t codeLength[SYMBOL_COUNT];
  /* The symbols with a code, ascending, as read: the table is built from these alone. A DWA chunk's AC table spans
   * nearly all 65,536 values and codes a few hundred; walking the whole span, twice, was 3x the time of decoding. */
  int32_t usedSymbols[SYMBOL_COUNT];
  int32_t usedCount;
  int32_t lengthCount[MAX_CODE_BITS + 2];
  /* Canonical first (lowest) code of each length. */
  int64_t firstCode[MAX_CODE_BITS + 2];
  /* Index in symbolsByCode of the first symbol of each code length. */
  int32_t symbolOffset[MAX_CODE_BITS + 2];
  int32_t rankCursor[MAX_CODE_BITS + 2];
  /* Symbols ordered by code length, then by code (= by symbol within a length). */
  int32_t symbolsByCode[SYMBOL_COUNT];
  /* Indexed by the next LOOKUP_BITS bits: the length of the plain code starting there when it is
   * at most LOOKUP_BITS long, its symbol in shortSymbol. Else 0, and shortSymbol says why:
   * RLC_ENTRY + length for the run-length code, the length of the shortest longer code with that
   * prefix, or 0 where no code starts with it. Lengths apart from symbols keep the table on the
   * decoder's serial chain small (16 KiB: it stays in L1). */
  uint8_t shortLength[1 << LOOKUP_BITS];
  uint16_t shortSymbol[1 << LOOKUP_BITS];
  int minLength, maxLength;
};

static HuffmanTables *tables_of(ExrContext *ctx) {
  if (!ctx->huffman) ctx->huffman = (HuffmanTables *)calloc(1, sizeof(HuffmanTables));
  if (!ctx->huffman) exr_fail(ctx, "out of memory allocating the Huffman tables");
  return ctx->huffman;
}

/* Unpacks the code lengths of symbols im..iM; returns the byte offset just past the table, or -1. */
static int64_t read_code_lengths(ExrContext *ctx, HuffmanTables *t, const uint8_t *src, size_t end, uint32_t im, uint32_t iM) {
  size_t pos = HEADER_BYTES;
  uint32_t bits = 0;
  int bitCount = 0;
  t->usedCount = 0;
  for (uint32_t symbol = im; symbol <= iM; symbol++) {
    if (bitCount < 6) {
      if (pos >= end) return exr_fail(ctx, "Huffman code table is truncated");
      bits = (bits << 8) | src[pos++];
      bitCount += 8;
    }
    bitCount -= 6;
    uint32_t length = (bits >> bitCount) & 63;
    bits &= (1u << bitCount) - 1;
    if (length < SHORT_ZEROCODE_RUN) {
      t->codeLength[symbol] = (uint8_t)length;
      if (length) t->usedSymbols[t->usedCount++] = (int32_t)symbol;
      continue;
    }
    uint32_t run;
    if (length == LONG_ZEROCODE_RUN) {
      if (bitCount < 8) {
        if (pos >= end) return exr_fail(ctx, "Huffman code table is truncated");
        bits = (bits << 8) | src[pos++];
        bitCount += 8;
      }
      bitCount -= 8;
      run = ((bits >> bitCount) & 255) + SHORTEST_LONG_RUN;
      bits &= (1u << bitCount) - 1;
    } else {
      run = length - SHORT_ZEROCODE_RUN + 2;
    }
    if (symbol + run > iM + 1) return exr_fail(ctx, "Huffman code table runs past its last symbol");
    symbol += run - 1;
  }
  return (int64_t)pos;
}

/* Builds the canonical code and the lookup table from the lengths of usedSymbols (see buildDecoder in huffman.ts). */
static int build_decoder(ExrContext *ctx, HuffmanTables *t, uint32_t im, uint32_t iM) {
  // four histograms, added up after: one would make every count wait for the last one's store when lengths repeat
  int32_t counts[4][MAX_CODE_BITS + 2];
  memset(counts, 0, sizeof counts);
  const int32_t *used = t->usedSymbols;
  const int32_t usedCount = t->usedCount;
  int32_t u = 0;
  for (; u + 4 <= usedCount; u += 4) {
    counts[0][t->codeLength[used[u]]]++;
    counts[1][t->codeLength[used[u + 1]]]++;
    counts[2][t->codeLength[used[u + 2]]]++;
    counts[3][t->codeLength[used[u + 3]]]++;
  }
  for (; u < usedCount; u++) counts[0][t->codeLength[used[u]]]++;
  for (int length = 0; length < MAX_CODE_BITS + 2; length++)
    t->lengthCount[length] = counts[0][length] + counts[1][length] + counts[2][length] + counts[3][length];
  t->lengthCount[0] = (int32_t)(iM - im + 1) - usedCount;
  int minLength = 0, maxLength = 0;
  for (int length = 1; length <= MAX_CODE_BITS; length++) {
    if (t->lengthCount[length] == 0) continue;
    if (minLength == 0) minLength = length;
    maxLength = length;
  }
  t->minLength = minLength;
  t->maxLength = maxLength;
  if (maxLength == 0) return EXR_OK;

  int64_t code = 0;
  for (int length = MAX_CODE_BITS; length >= 1; length--) {
    t->firstCode[length] = code;
    int64_t next = code + t->lengthCount[length];
    if ((next & 1) != 0 && length - 1 >= minLength) return exr_fail(ctx, "Huffman code table is not a prefix code");
    code = next >> 1;
  }
  if (t->firstCode[minLength] + t->lengthCount[minLength] > ((int64_t)1 << minLength)) {
    return exr_fail(ctx, "Huffman code table is over-subscribed");
  }

  int32_t offset = 0;
  for (int length = 1; length <= maxLength; length++) {
    t->symbolOffset[length] = offset;
    offset += t->lengthCount[length];
  }
  memset(t->rankCursor, 0, sizeof t->rankCursor);
  for (u = 0; u < usedCount; u++) {
    const int length = t->codeLength[used[u]];
    t->symbolsByCode[t->symbolOffset[length] + t->rankCursor[length]++] = used[u];
  }

  const int64_t tableSize = (int64_t)1 << LOOKUP_BITS;
  memset(t->shortLength, 0, sizeof t->shortLength);
  memset(t->shortSymbol, 0, sizeof t->shortSymbol);
  for (int length = minLength; length <= LOOKUP_BITS && length <= maxLength; length++) {
    int64_t span = (int64_t)1 << (LOOKUP_BITS - length);
    int32_t count = t->lengthCount[length];
    int32_t base = t->symbolOffset[length];
    int64_t start = t->firstCode[length] * span;
    // Kraft's inequality (checked above) keeps every code inside the table; checked again for safety.
    if (start + (int64_t)count * span > tableSize) return exr_fail(ctx, "Huffman code table is over-subscribed");
    for (int32_t rank = 0; rank < count; rank++) {
      uint32_t symbol = (uint32_t)t->symbolsByCode[base + rank];
      // every symbol but the run-length code (iM, up to 65536) fits 16 bits
      uint8_t shortLength = symbol == iM ? 0 : (uint8_t)length;
      uint16_t shortSymbol = symbol == iM ? (uint16_t)(RLC_ENTRY + length) : (uint16_t)symbol;
      for (int64_t end = start + span; start < end; start++) {
        t->shortLength[start] = shortLength;
        t->shortSymbol[start] = shortSymbol;
      }
    }
  }
  for (int length = LOOKUP_BITS + 1; length <= maxLength; length++) {
    int shift = length - LOOKUP_BITS;
    int32_t count = t->lengthCount[length];
    int64_t first = t->firstCode[length];
    for (int32_t rank = 0; rank < count; rank++) {
      int64_t prefix = (first + rank) >> shift;
      if (prefix >= tableSize) return exr_fail(ctx, "Huffman code table is over-subscribed");
      if (t->shortLength[prefix] == 0 && t->shortSymbol[prefix] == 0) t->shortSymbol[prefix] = (uint16_t)length;
    }
  }
  return EXR_OK;
}

/* Decodes one code bit by bit from bit `pos` (relative to data); returns (symbol << 6) | length, or -1. */
static int64_t decode_code_slowly(ExrContext *ctx, const HuffmanTables *t, const uint8_t *data, uint64_t pos, uint64_t endBit) {
  int64_t value = 0;
  for (int length = 1; length <= t->maxLength; length++) {
    uint64_t bit = pos + (uint64_t)length - 1;
    if (bit >= endBit) return exr_fail(ctx, "Huffman data ends inside a code");
    value = value * 2 + ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    if (length < t->minLength) continue;
    int64_t first = t->firstCode[length];
    if (value >= first) {
      int64_t rank = value - first;
      if (rank >= t->lengthCount[length]) break;
      return ((int64_t)t->symbolsByCode[t->symbolOffset[length] + rank] << 6) | length;
    }
  }
  return exr_fail(ctx, "Huffman data holds an undefined code");
}

static int read_byte_slowly(ExrContext *ctx, const uint8_t *data, uint64_t pos, uint64_t endBit) {
  if (pos + 8 > endBit) return exr_fail(ctx, "Huffman data ends inside a run length");
  const uint8_t *at = data + (pos >> 3);
  unsigned shift = pos & 7;
  return shift == 0 ? at[0] : ((at[0] << shift) | (at[1] >> (8 - shift))) & 255;
}

static inline uint64_t load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

/* Appends a decoded symbol: the value itself, or `run` more copies of the previous value. */
#define EMIT_RUN(run)                                                                                                                      \
  do {                                                                                                                                     \
    size_t run_ = (run);                                                                                                                   \
    if (o == 0 || o + run_ > outCount) return exr_fail(ctx, "Huffman run-length code out of place");                                       \
    uint16_t value_ = out[o - 1];                                                                                                          \
    for (size_t k_ = 0; k_ < run_; k_++) out[o + k_] = value_;                                                                             \
    o += run_;                                                                                                                             \
  } while (0)

int exr_huffman_decode(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint16_t *out, size_t outCount) {
  if (srcBytes < HEADER_BYTES) {
    if (outCount != 0) return exr_fail(ctx, "Huffman block of %zu bytes is shorter than its header", srcBytes);
    return EXR_OK;
  }
  uint32_t im = load_le32(src), iM = load_le32(src + 4), nBits = load_le32(src + 12);
  if ((uint64_t)outCount > (uint64_t)nBits * MAX_VALUES_PER_BIT + 1) {
    return exr_fail(ctx, "Huffman block of %u bits cannot hold %zu values", nBits, outCount);
  }
  if (im >= SYMBOL_COUNT || iM >= SYMBOL_COUNT || im > iM) return exr_fail(ctx, "Huffman symbol range %u..%u is out of bounds", im, iM);
  HuffmanTables *t = tables_of(ctx);
  if (!t) return EXR_FAIL;
  int64_t dataStart = read_code_lengths(ctx, t, src, srcBytes, im, iM);
  if (dataStart < 0) return EXR_FAIL;
  uint64_t dataEnd = (uint64_t)dataStart + ((uint64_t)nBits + 7) / 8;
  if (dataEnd > srcBytes) return exr_fail(ctx, "Huffman data of %u bits runs past the end of its block", nBits);
  if (outCount == 0) return EXR_OK;
  if (build_decoder(ctx, t, im, iM) != EXR_OK) return EXR_FAIL;
  if (t->maxLength == 0) return exr_fail(ctx, "Huffman code table is empty");

  const uint8_t *data = src + dataStart;
  const uint8_t *shortLength = t->shortLength;
  const uint16_t *shortSymbol = t->shortSymbol;
  const uint32_t rlc = iM;
  const int maxLength = t->maxLength;
  size_t o = 0;

  // `buffer` holds the next bufferBits stream bits left-aligned; the bits below them are the
  // stream's next bits too (the start of byte p). The refill loads 8 bytes at p, so the fast loop
  // stops 16 bytes short of the end: every bit it consumes lies before nBits (like huffman.ts).
  const uint8_t *p = data;
#define REFILL()                                                                                                                           \
  do {                                                                                                                                     \
    buffer |= load_be64(p) >> bufferBits;                                                                                                  \
    p += (63 - bufferBits) >> 3;                                                                                                           \
    bufferBits |= 56;                                                                                                                      \
  } while (0)
#define INDEX() (buffer >> (64 - LOOKUP_BITS))
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
      // Up to four short codes per refill: each takes at most LOOKUP_BITS of the >= 56 bits loaded,
      // so the fourth lookup still sees LOOKUP_BITS real bits. Only the length load is on the chain.
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
      if (hint == 0) return exr_fail(ctx, "Huffman data holds an undefined code");
      // Canonical search from the shortest length sharing this prefix.
      int found = 0;
      length = hint;
      int limit = maxLength < bufferBits ? maxLength : bufferBits;
      symbol = 0;
      for (; length <= limit; length++) {
        int64_t value = (int64_t)(buffer >> (64 - length));
        int64_t first = t->firstCode[length];
        if (value >= first) {
          int64_t rank = value - first;
          if (rank >= t->lengthCount[length]) return exr_fail(ctx, "Huffman data holds an undefined code");
          symbol = (uint32_t)t->symbolsByCode[t->symbolOffset[length] + rank];
          found = 1;
          break;
        }
      }
      if (found) {
        buffer <<= length;
        bufferBits -= length;
      } else {
        // Longer than the buffer holds: decode from the byte stream, then re-seat the buffer after it.
        uint64_t pos = (uint64_t)(p - data) * 8 - (uint64_t)bufferBits;
        int64_t packed = decode_code_slowly(ctx, t, data, pos, nBits);
        if (packed < 0) return EXR_FAIL;
        symbol = (uint32_t)(packed >> 6);
        pos += (uint64_t)(packed & 63);
        if (symbol == rlc) {
          int run = read_byte_slowly(ctx, data, pos, nBits);
          if (run < 0) return EXR_FAIL;
          pos += 8;
          EMIT_RUN((size_t)run);
        } else {
          out[o++] = (uint16_t)symbol;
        }
        // Re-seat the buffer at bit `pos`: 8 bytes from its byte, the bits before it shifted out.
        p = data + (pos >> 3);
        unsigned skip = pos & 7;
        if (p < fastEnd) {
          buffer = load_be64(p) << skip;
          p += 7;
          bufferBits = 56 - (int)skip;
        } else {
          // the slow tail below goes on from bit pos
          p += 1;
          buffer = 0;
          bufferBits = 8 - (int)skip;
        }
        continue;
      }
    }
    if (symbol == rlc) {
      if (bufferBits < 8) REFILL();
      size_t run = (size_t)(buffer >> 56);
      buffer <<= 8;
      bufferBits -= 8;
      EMIT_RUN(run);
    } else {
      out[o++] = (uint16_t)symbol;
    }
  }

  // The last bytes, with every read checked against nBits.
  uint64_t pos = (uint64_t)(p - data) * 8 - (uint64_t)bufferBits;
  while (o < outCount) {
    int64_t packed = decode_code_slowly(ctx, t, data, pos, nBits);
    if (packed < 0) return EXR_FAIL;
    uint32_t symbol = (uint32_t)(packed >> 6);
    pos += (uint64_t)(packed & 63);
    if (symbol == rlc) {
      int run = read_byte_slowly(ctx, data, pos, nBits);
      if (run < 0) return EXR_FAIL;
      pos += 8;
      EMIT_RUN((size_t)run);
    } else {
      out[o++] = (uint16_t)symbol;
    }
  }
  return EXR_OK;
}
