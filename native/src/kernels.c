/* Native kernels for the codec's hottest loops (PIZ/DWA Huffman decoding, PIZ inverse wavelet).
 * Each mirrors a TypeScript function in electron/exr/compression/ that stays the fallback and the
 * test oracle: same inputs, same outputs, same refusals of damaged data. */
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 20
#define SYMBOL_COUNT 65537
#define MAX_CODE_BITS 58
#define SHORT_ZEROCODE_RUN 59
#define LONG_ZEROCODE_RUN 63
#define SHORTEST_LONG_RUN (2 + LONG_ZEROCODE_RUN - SHORT_ZEROCODE_RUN)
#define LOOKUP_BITS 14

/* Per-thread decoder tables: a worker decodes one block at a time. */
typedef struct {
  uint8_t code_length[SYMBOL_COUNT];
  int32_t length_count[MAX_CODE_BITS + 2];
  uint64_t first_code[MAX_CODE_BITS + 2];
  int32_t symbol_offset[MAX_CODE_BITS + 2];
  int32_t symbols_by_code[SYMBOL_COUNT];
  int32_t cursor[MAX_CODE_BITS + 2];
  /* (symbol << 6) | length for codes up to LOOKUP_BITS; 0 where a longer code starts */
  int32_t lookup[1 << LOOKUP_BITS];
  int min_length, max_length;
} Decoder;

static _Thread_local Decoder* tls_decoder = NULL;

static uint32_t read_u32(const uint8_t* p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24); }

/* Returns NULL on success, or the reason the block is damaged. */
static const char* read_code_lengths(Decoder* d, const uint8_t* src, size_t len, uint32_t im, uint32_t iM, size_t* data_start) {
  size_t pos = HEADER_BYTES;
  uint64_t bits = 0;
  int bit_count = 0;
  for (uint32_t symbol = im; symbol <= iM; symbol++) {
    if (bit_count < 6) {
      if (pos >= len) return "Huffman code table is truncated";
      bits = (bits << 8) | src[pos++];
      bit_count += 8;
    }
    bit_count -= 6;
    int length = (int)((bits >> bit_count) & 63);
    bits &= (1ull << bit_count) - 1;
    if (length < SHORT_ZEROCODE_RUN) {
      d->code_length[symbol] = (uint8_t)length;
      continue;
    }
    uint32_t run;
    if (length == LONG_ZEROCODE_RUN) {
      if (bit_count < 8) {
        if (pos >= len) return "Huffman code table is truncated";
        bits = (bits << 8) | src[pos++];
        bit_count += 8;
      }
      bit_count -= 8;
      run = (uint32_t)((bits >> bit_count) & 255) + SHORTEST_LONG_RUN;
      bits &= (1ull << bit_count) - 1;
    } else {
      run = (uint32_t)(length - SHORT_ZEROCODE_RUN + 2);
    }
    if ((uint64_t)symbol + run > (uint64_t)iM + 1) return "Huffman code table runs past its last symbol";
    memset(d->code_length + symbol, 0, run);
    symbol += run - 1;
  }
  *data_start = pos;
  return NULL;
}

static const char* build_decoder(Decoder* d, uint32_t im, uint32_t iM) {
  memset(d->length_count, 0, sizeof d->length_count);
  for (uint32_t s = im; s <= iM; s++) d->length_count[d->code_length[s]]++;
  d->min_length = 0;
  d->max_length = 0;
  for (int l = 1; l <= MAX_CODE_BITS; l++) {
    if (!d->length_count[l]) continue;
    if (!d->min_length) d->min_length = l;
    d->max_length = l;
  }
  if (!d->max_length) return "Huffman code table is empty";
  uint64_t code = 0;
  for (int l = MAX_CODE_BITS; l >= 1; l--) {
    d->first_code[l] = code;
    uint64_t next = code + (uint64_t)d->length_count[l];
    if ((next & 1) && l - 1 >= d->min_length) return "Huffman code table is not a prefix code";
    code = next >> 1;
  }
  if (d->first_code[d->min_length] + (uint64_t)d->length_count[d->min_length] > (1ull << d->min_length)) return "Huffman code table is over-subscribed";
  int32_t offset = 0;
  for (int l = 1; l <= d->max_length; l++) {
    d->symbol_offset[l] = offset;
    offset += d->length_count[l];
  }
  memset(d->cursor, 0, sizeof d->cursor);
  for (uint32_t s = im; s <= iM; s++) {
    int l = d->code_length[s];
    if (l) d->symbols_by_code[d->symbol_offset[l] + d->cursor[l]++] = (int32_t)s;
  }
  memset(d->lookup, 0, sizeof d->lookup);
  int lookup_max = d->max_length < LOOKUP_BITS ? d->max_length : LOOKUP_BITS;
  for (int l = d->min_length; l <= lookup_max; l++) {
    uint32_t span = 1u << (LOOKUP_BITS - l);
    uint64_t start = d->first_code[l] * span;
    for (int32_t r = 0; r < d->length_count[l]; r++, start += span) {
      int32_t entry = (d->symbols_by_code[d->symbol_offset[l] + r] << 6) | l;
      for (uint32_t k = 0; k < span; k++) d->lookup[start + k] = entry;
    }
  }
  return NULL;
}

/* Decodes one code from the top of `window` (64 bits, MSB first) by the canonical search; returns (symbol << 6) | length or -1. */
static int32_t decode_long(const Decoder* d, uint64_t window) {
  for (int l = LOOKUP_BITS + 1; l <= d->max_length; l++) {
    uint64_t value = window >> (64 - l);
    if (value >= d->first_code[l]) {
      uint64_t rank = value - d->first_code[l];
      if (rank >= (uint64_t)d->length_count[l]) return -1;
      return (d->symbols_by_code[d->symbol_offset[l] + rank] << 6) | l;
    }
  }
  return -1;
}

static const char* huffman_decode(const uint8_t* src, size_t len, uint16_t* out, size_t out_count) {
  if (len < HEADER_BYTES) return out_count ? "Huffman block is shorter than its header" : NULL;
  uint32_t im = read_u32(src), iM = read_u32(src + 4), n_bits = read_u32(src + 12);
  if ((uint64_t)out_count > (uint64_t)n_bits * 29 + 1) return "Huffman block has too few bits for its values";
  if (im >= SYMBOL_COUNT || iM >= SYMBOL_COUNT || im > iM) return "Huffman symbol range is out of bounds";
  if (!tls_decoder) {
    tls_decoder = (Decoder*)malloc(sizeof(Decoder));
    if (!tls_decoder) return "out of memory for the Huffman decoder";
  }
  Decoder* d = tls_decoder;
  size_t data_start;
  const char* err = read_code_lengths(d, src, len, im, iM, &data_start);
  if (err) return err;
  size_t data_end = data_start + ((size_t)n_bits + 7) / 8;
  if (data_end > len) return "Huffman data runs past the end of its block";
  if (!out_count) return NULL;
  err = build_decoder(d, im, iM);
  if (err) return err;

  const uint8_t* p = src + data_start;
  uint64_t bits_left = n_bits; /* bits not yet loaded into the window */
  uint64_t window = 0;        /* next bits, MSB first; `have` of them are valid */
  int have = 0;
  size_t o = 0;
  const uint32_t rlc = iM;
  while (o < out_count) {
    /* refill to at least 57 valid bits (or all that remain) */
    while (have <= 56 && bits_left > 0) {
      uint64_t byte = *p++;
      int take = bits_left >= 8 ? 8 : (int)bits_left;
      window |= (byte >> (8 - take)) << (64 - have - take);
      have += take;
      bits_left -= (uint64_t)take;
    }
    if (have == 0) return "Huffman data ends before all values are decoded";
    int32_t entry = d->lookup[window >> (64 - LOOKUP_BITS)];
    if (entry == 0) entry = decode_long(d, window);
    if (entry < 0 || entry == 0) return "Huffman data holds an undefined code";
    int length = entry & 63;
    if (length > have) return "Huffman data ends inside a code";
    uint32_t symbol = (uint32_t)entry >> 6;
    window <<= length;
    have -= length;
    if (symbol == rlc) {
      if (have < 8) return "Huffman data ends inside a run length";
      uint32_t run = (uint32_t)(window >> 56);
      window <<= 8;
      have -= 8;
      if (o == 0 || o + run > out_count) return "Huffman run-length code out of place";
      uint16_t value = out[o - 1];
      for (uint32_t k = 0; k < run; k++) out[o++] = value;
    } else {
      out[o++] = (uint16_t)symbol;
    }
  }
  return NULL;
}

/* In-place inverse 2D wavelet of one plane; see wav2Decode in electron/exr/compression/piz.ts. */
static void wav2_decode(uint16_t* buf, size_t base, int nx, int ox, int ny, int oy, int max_value) {
  int w14 = max_value < (1 << 14);
  int n = nx < ny ? nx : ny;
  int p = 1;
  while (p <= n) p <<= 1;
  p >>= 1;
  int p2 = p;
  p >>= 1;
  while (p >= 1) {
    size_t oy1 = (size_t)oy * p, oy2 = (size_t)oy * p2, ox1 = (size_t)ox * p, ox2 = (size_t)ox * p2;
    size_t ey = base + (size_t)oy * (ny - p2);
    size_t py = base;
    for (; py <= ey; py += oy2) {
      size_t ex = py + (size_t)ox * (nx - p2);
      size_t px = py;
      if (w14) {
        for (; px <= ex; px += ox2) {
          size_t p01 = px + ox1, p10 = px + oy1, p11 = p10 + ox1;
          int h = (int16_t)buf[p10];
          int i00 = (int16_t)buf[px] + (h & 1) + (h >> 1);
          int i10 = i00 - h;
          h = (int16_t)buf[p11];
          int i01 = (int16_t)buf[p01] + (h & 1) + (h >> 1);
          int i11 = i01 - h;
          h = (int16_t)i01;
          int a = (int16_t)i00 + (h & 1) + (h >> 1);
          buf[px] = (uint16_t)a;
          buf[p01] = (uint16_t)(a - h);
          h = (int16_t)i11;
          a = (int16_t)i10 + (h & 1) + (h >> 1);
          buf[p10] = (uint16_t)a;
          buf[p11] = (uint16_t)(a - h);
        }
        if (nx & p) {
          size_t p10 = px + oy1;
          int h = (int16_t)buf[p10];
          int a = (int16_t)buf[px] + (h & 1) + (h >> 1);
          buf[px] = (uint16_t)a;
          buf[p10] = (uint16_t)(a - h);
        }
      } else {
        for (; px <= ex; px += ox2) {
          size_t p01 = px + ox1, p10 = px + oy1, p11 = p10 + ox1;
          int d = buf[p10];
          int b = (buf[px] - (d >> 1)) & 0xffff;
          int i00 = (d + b - 0x8000) & 0xffff;
          int i10 = b;
          d = buf[p11];
          b = (buf[p01] - (d >> 1)) & 0xffff;
          int i01 = (d + b - 0x8000) & 0xffff;
          int i11 = b;
          b = (i00 - (i01 >> 1)) & 0xffff;
          buf[px] = (uint16_t)(i01 + b - 0x8000);
          buf[p01] = (uint16_t)b;
          b = (i10 - (i11 >> 1)) & 0xffff;
          buf[p10] = (uint16_t)(i11 + b - 0x8000);
          buf[p11] = (uint16_t)b;
        }
        if (nx & p) {
          size_t p10 = px + oy1;
          int d = buf[p10];
          int b = (buf[px] - (d >> 1)) & 0xffff;
          buf[px] = (uint16_t)(d + b - 0x8000);
          buf[p10] = (uint16_t)b;
        }
      }
    }
    if (ny & p) {
      size_t ex = py + (size_t)ox * (nx - p2);
      for (size_t px = py; px <= ex; px += ox2) {
        size_t p01 = px + ox1;
        if (w14) {
          int h = (int16_t)buf[p01];
          int a = (int16_t)buf[px] + (h & 1) + (h >> 1);
          buf[px] = (uint16_t)a;
          buf[p01] = (uint16_t)(a - h);
        } else {
          int d = buf[p01];
          int b = (buf[px] - (d >> 1)) & 0xffff;
          buf[px] = (uint16_t)(d + b - 0x8000);
          buf[p01] = (uint16_t)b;
        }
      }
    }
    p2 = p;
    p >>= 1;
  }
}

/* ---- N-API glue ---- */

static int typed_array(napi_env env, napi_value v, napi_typedarray_type want, void** data, size_t* length) {
  bool is;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  if (napi_get_typedarray_info(env, v, &type, length, data, NULL, NULL) != napi_ok || type != want) return 0;
  return 1;
}

/* huffmanDecodeInto(src: Uint8Array, out: Uint16Array): undefined, or null/string reason when damaged */
static napi_value js_huffman_decode(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *src, *out;
  size_t src_len, out_len;
  if (argc < 2 || !typed_array(env, argv[0], napi_uint8_array, &src, &src_len) || !typed_array(env, argv[1], napi_uint16_array, &out, &out_len)) {
    napi_throw_type_error(env, NULL, "huffmanDecodeInto(Uint8Array, Uint16Array)");
    return NULL;
  }
  const char* err = huffman_decode((const uint8_t*)src, src_len, (uint16_t*)out, out_len);
  if (err) {
    napi_create_string_utf8(env, err, NAPI_AUTO_LENGTH, &result);
    return result;
  }
  napi_get_null(env, &result);
  return result;
}

/* wav2Decode(buf: Uint16Array, base, nx, ox, ny, oy, maxValue): the caller checked the geometry fits */
static napi_value js_wav2_decode(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void* buf;
  size_t len;
  int32_t a[6];
  if (argc < 7 || !typed_array(env, argv[0], napi_uint16_array, &buf, &len)) {
    napi_throw_type_error(env, NULL, "wav2Decode(Uint16Array, base, nx, ox, ny, oy, maxValue)");
    return NULL;
  }
  for (int i = 0; i < 6; i++) napi_get_value_int32(env, argv[i + 1], &a[i]);
  int base = a[0], nx = a[1], ox = a[2], ny = a[3], oy = a[4];
  /* the last sample touched must lie inside the buffer */
  if (base < 0 || nx < 1 || ny < 1 || ox < 1 || oy < 1 || (uint64_t)base + (uint64_t)ox * (nx - 1) + (uint64_t)oy * (ny - 1) >= len) {
    napi_throw_range_error(env, NULL, "wavelet plane lies outside its buffer");
    return NULL;
  }
  wav2_decode((uint16_t*)buf, (size_t)base, nx, ox, ny, oy, a[5]);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "huffmanDecodeInto", NAPI_AUTO_LENGTH, js_huffman_decode, NULL, &fn);
  napi_set_named_property(env, exports, "huffmanDecodeInto", fn);
  napi_create_function(env, "wav2Decode", NAPI_AUTO_LENGTH, js_wav2_decode, NULL, &fn);
  napi_set_named_property(env, exports, "wav2Decode", fn);
  return exports;
}
