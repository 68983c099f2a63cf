// Node-API glue of the exrview kernels: argument checks, one kernel context per instance (thread), errors as JS exceptions.
//
// Every function takes typed arrays (any backing store, SharedArrayBuffer included) and writes
// only inside the arrays it is given. Damaged input throws an Error with code ERR_EXR_INVALID and
// the kernel's reason; a wrong argument (a bug in the caller) throws a TypeError.
/* madvise and MADV_HUGEPAGE are outside strict C11 */
#define _DEFAULT_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "kernels.h"

typedef struct View {
  void *data;
  size_t length; /* elements */
} View;

/* Zero-length typed arrays may have no data pointer: kernels get this one instead (never written). */
static uint8_t emptyBytes[16];

static napi_value throw_type_error(napi_env env, const char *what, const char *expected) {
  char message[160];
  snprintf(message, sizeof message, "exr_kernels: %s must be a %s", what, expected);
  napi_throw_type_error(env, "ERR_EXR_NATIVE_ARGUMENT", message);
  return NULL;
}

static const char *type_name(napi_typedarray_type type) {
  switch (type) {
  case napi_uint8_array: return "Uint8Array";
  case napi_uint16_array: return "Uint16Array";
  case napi_int16_array: return "Int16Array";
  case napi_int32_array: return "Int32Array";
  case napi_float32_array: return "Float32Array";
  case napi_float64_array: return "Float64Array";
  default: return "typed array";
  }
}

/* Reads a typed array of the wanted type into view; on a mismatch throws and returns 0. */
static int get_view(napi_env env, napi_value value, napi_typedarray_type want, const char *what, View *view) {
  bool isTypedArray = false;
  napi_typedarray_type type;
  napi_value buffer;
  size_t byteOffset;
  if (napi_is_typedarray(env, value, &isTypedArray) != napi_ok || !isTypedArray ||
      napi_get_typedarray_info(env, value, &type, &view->length, &view->data, &buffer, &byteOffset) != napi_ok || type != want) {
    throw_type_error(env, what, type_name(want));
    return 0;
  }
  if (!view->data) view->data = emptyBytes;
  return 1;
}

static int is_nullish(napi_env env, napi_value value) {
  napi_valuetype type;
  return napi_typeof(env, value, &type) == napi_ok && (type == napi_null || type == napi_undefined);
}

/* The context and up to `count` arguments; throws (returns NULL) when fewer were passed. */
static ExrContext *get_args(napi_env env, napi_callback_info info, size_t count, napi_value *args) {
  size_t given = count;
  void *data = NULL;
  if (napi_get_cb_info(env, info, &given, args, NULL, &data) != napi_ok) return NULL;
  if (given < count) {
    napi_throw_type_error(env, "ERR_EXR_NATIVE_ARGUMENT", "exr_kernels: too few arguments");
    return NULL;
  }
  return (ExrContext *)data;
}

static napi_value finish(napi_env env, ExrContext *ctx, int status) {
  exr_scratch_trim(ctx);
  if (status != EXR_OK) napi_throw_error(env, "ERR_EXR_INVALID", ctx->error);
  return NULL;
}

static napi_value number(napi_env env, double value) {
  napi_value result;
  napi_create_double(env, value, &result);
  return result;
}

static int get_layout(napi_env env, ExrContext *ctx, napi_value value, ExrLayout *layout) {
  View words;
  if (!get_view(env, value, napi_int32_array, "layout", &words)) return 0;
  if (exr_layout_parse(ctx, (const int32_t *)words.data, words.length, layout) != EXR_OK) {
    // the layout comes from native.ts, never from a file: a bad one is a bug
    napi_throw_type_error(env, "ERR_EXR_NATIVE_ARGUMENT", ctx->error);
    return 0;
  }
  return 1;
}

/* The context and the two arguments (src: Uint8Array, then a destination of type dstType); NULL, thrown, on a mismatch. */
static ExrContext *get_src_dst(napi_env env, napi_callback_info info, napi_typedarray_type dstType, const char *dstName, View *src,
                               View *dst) {
  napi_value args[2];
  ExrContext *ctx = get_args(env, info, 2, args);
  if (!ctx || !get_view(env, args[0], napi_uint8_array, "src", src) || !get_view(env, args[1], dstType, dstName, dst)) return NULL;
  return ctx;
}

/* A kernel from src into exactly dst.length bytes of dst (both Uint8Array). */
typedef int (*SrcDstKernel)(ExrContext *ctx, const uint8_t *src, size_t srcBytes, uint8_t *dst, size_t dstBytes);

static napi_value src_dst_into(napi_env env, napi_callback_info info, SrcDstKernel kernel) {
  View src, dst;
  ExrContext *ctx = get_src_dst(env, info, napi_uint8_array, "dst", &src, &dst);
  return ctx ? finish(env, ctx, kernel(ctx, src.data, src.length, dst.data, dst.length)) : NULL;
}

/* zipInto(src, dst): inflates exactly dst.length bytes, undoes the predictor into dst. */
static napi_value zip_into(napi_env env, napi_callback_info info) { return src_dst_into(env, info, exr_zip_into); }
/* rleInto(src, dst) */
static napi_value rle_into(napi_env env, napi_callback_info info) { return src_dst_into(env, info, exr_rle_into); }
/* rleBytesInto(src, dst): DWA's RLE section, no predictor, exactly dst.length bytes */
static napi_value rle_bytes_into(napi_env env, napi_callback_info info) { return src_dst_into(env, info, exr_rle_bytes_into); }
/* dwaDcInto(src, dst): DWA's DC section, zlib then the predictor, exactly dst.length bytes */
static napi_value dwa_dc_into(napi_env env, napi_callback_info info) { return src_dst_into(env, info, exr_dwa_dc_into); }

/* inflate(src: Uint8Array, dst: Uint8Array): number of bytes written (throws past dst.length). */
static napi_value inflate(napi_env env, napi_callback_info info) {
  View src, dst;
  ExrContext *ctx = get_src_dst(env, info, napi_uint8_array, "dst", &src, &dst);
  if (!ctx) return NULL;
  int64_t written = exr_inflate(ctx, src.data, src.length, dst.data, dst.length);
  if (written < 0) return finish(env, ctx, EXR_FAIL);
  finish(env, ctx, EXR_OK);
  return number(env, (double)written);
}

/* huffmanInto(src: Uint8Array, out: Uint16Array): one whole Huffman block (PIZ's coding, DWA's AC values) filling out exactly. */
static napi_value huffman_into(napi_env env, napi_callback_info info) {
  View src, out;
  ExrContext *ctx = get_src_dst(env, info, napi_uint16_array, "out", &src, &out);
  return ctx ? finish(env, ctx, exr_huffman_decode(ctx, src.data, src.length, out.data, out.length)) : NULL;
}

/* dwaRlePlane(data: Uint8Array, start, width, height, wide: 0 | 1, rowOffsets: Int32Array, out: Uint8Array) */
static napi_value dwa_rle_plane(napi_env env, napi_callback_info info) {
  napi_value args[7];
  View data, rowOffsets, out;
  double start, width, height, wide;
  ExrContext *ctx = get_args(env, info, 7, args);
  if (!ctx || !get_view(env, args[0], napi_uint8_array, "data", &data) ||
      !get_view(env, args[5], napi_int32_array, "rowOffsets", &rowOffsets) || !get_view(env, args[6], napi_uint8_array, "out", &out))
    return NULL;
  if (napi_get_value_double(env, args[1], &start) != napi_ok || napi_get_value_double(env, args[2], &width) != napi_ok ||
      napi_get_value_double(env, args[3], &height) != napi_ok || napi_get_value_double(env, args[4], &wide) != napi_ok ||
      !(start >= 0 && width >= 0 && height >= 0 && start <= 9007199254740991.0 && width <= 2147483647.0 && height <= 2147483647.0)) {
    napi_throw_type_error(env, "ERR_EXR_NATIVE_ARGUMENT", "exr_kernels: dwaRlePlane's start, width and height must be whole numbers");
    return NULL;
  }
  return finish(env, ctx,
                exr_dwa_rle_plane(ctx, data.data, data.length, (size_t)start, (size_t)width, (size_t)height, wide != 0, rowOffsets.data,
                                  rowOffsets.length, out.data, out.length));
}

/* unpackRows(raw: Uint8Array, plan: Int32Array, planes: (Uint8Array | null)[]): reader.ts's unpackBlock. plan: channel
 * count, y0, rows, region's yMin and yMax, frame's yMin, then per channel lineBytes, skipBytes, copyBytes, dstColBytes,
 * rowBytes, ySampling. A plan comes from reader.ts, never from a file: a malformed one is a bug (a type error). */
static napi_value unpack_rows(napi_env env, napi_callback_info info) {
  napi_value args[3];
  View raw, words;
  ExrContext *ctx = get_args(env, info, 3, args);
  if (!ctx || !get_view(env, args[0], napi_uint8_array, "raw", &raw) || !get_view(env, args[1], napi_int32_array, "plan", &words))
    return NULL;
  const int32_t *w = (const int32_t *)words.data;
  if (words.length < 6 || w[0] < 0 || w[0] > 65536 || words.length != 6 + 6 * (size_t)w[0] || w[2] < 0)
    return throw_type_error(env, "plan", "Int32Array of 6 numbers and 6 a channel");
  uint32_t arrayLength = 0;
  bool isArray = false;
  if (napi_is_array(env, args[2], &isArray) != napi_ok || !isArray || napi_get_array_length(env, args[2], &arrayLength) != napi_ok ||
      arrayLength != (uint32_t)w[0]) {
    return throw_type_error(env, "planes", "array of a Uint8Array or null a channel");
  }
  const size_t count = (size_t)w[0];
  char *scratch = exr_scratch(ctx, SCRATCH_LAYOUT, count * (sizeof(ExrUnpackChannel) + sizeof(uint8_t *) + sizeof(size_t)) + 16);
  if (!scratch) return finish(env, ctx, EXR_FAIL);
  ExrUnpackChannel *channels = (ExrUnpackChannel *)scratch;
  uint8_t **planes = (uint8_t **)(scratch + count * sizeof(ExrUnpackChannel));
  size_t *planeBytes = (size_t *)(scratch + count * (sizeof(ExrUnpackChannel) + sizeof(uint8_t *)));
  for (size_t c = 0; c < count; c++) {
    const int32_t *cw = w + 6 + 6 * c;
    ExrUnpackChannel ch = {cw[0], cw[1], cw[2], cw[3], cw[4], cw[5]};
    if (ch.lineBytes < 0 || ch.skipBytes < 0 || ch.copyBytes < 0 || (int64_t)ch.skipBytes + ch.copyBytes > ch.lineBytes ||
        ch.dstColBytes < 0 || ch.rowBytes < 0 || ch.ySampling < 1) {
      return throw_type_error(env, "plan", "channels whose copies lie in their lines");
    }
    channels[c] = ch;
    napi_value element;
    if (napi_get_element(env, args[2], (uint32_t)c, &element) != napi_ok) return NULL;
    if (is_nullish(env, element)) {
      planes[c] = NULL;
      planeBytes[c] = 0;
      continue;
    }
    View plane;
    if (!get_view(env, element, napi_uint8_array, "planes[c]", &plane)) return NULL;
    planes[c] = plane.data;
    planeBytes[c] = plane.length;
  }
  const ExrUnpackPlan plan = {w[0], w[1], w[2], w[3], w[4], w[5], channels};
  return finish(env, ctx, exr_unpack_rows(ctx, raw.data, raw.length, &plan, planes, planeBytes));
}

/* The context and `count` arguments, the first three src (Uint8Array), a layout (Int32Array) and a destination of type
 * dstType; NULL, thrown, on a mismatch. */
static ExrContext *get_src_layout_dst(napi_env env, napi_callback_info info, size_t count, napi_value *args, napi_typedarray_type dstType,
                                      const char *dstName, View *src, ExrLayout *layout, View *dst) {
  ExrContext *ctx = get_args(env, info, count, args);
  if (!ctx || !get_view(env, args[0], napi_uint8_array, "src", src) || !get_layout(env, ctx, args[1], layout) ||
      !get_view(env, args[2], dstType, dstName, dst)) {
    return NULL;
  }
  return ctx;
}

/* A kernel from src, laid out by a layout, into exactly dstBytes of dst. */
typedef int (*LayoutKernel)(ExrContext *ctx, const uint8_t *src, size_t srcBytes, const ExrLayout *layout, uint8_t *dst, size_t dstBytes);

/* kernel(src: Uint8Array, layout: Int32Array, dst: Uint8Array) */
static napi_value layout_into(napi_env env, napi_callback_info info, LayoutKernel kernel) {
  napi_value args[3];
  View src, dst;
  ExrLayout layout;
  ExrContext *ctx = get_src_layout_dst(env, info, 3, args, napi_uint8_array, "dst", &src, &layout, &dst);
  return ctx ? finish(env, ctx, kernel(ctx, src.data, src.length, &layout, dst.data, dst.length)) : NULL;
}

/* pizInto(src: Uint8Array, layout: Int32Array, dst: Uint8Array) */
static napi_value piz_into(napi_env env, napi_callback_info info) { return layout_into(env, info, exr_piz_into); }
/* pxr24Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array) */
static napi_value pxr24_into(napi_env env, napi_callback_info info) { return layout_into(env, info, exr_pxr24_into); }

/* pizPlanes(src: Uint8Array, layout: Int32Array, words: Uint16Array, lut: Uint16Array): the largest code in use. */
static napi_value piz_planes(napi_env env, napi_callback_info info) {
  napi_value args[4];
  View src, words, lut;
  ExrLayout layout;
  ExrContext *ctx = get_src_layout_dst(env, info, 4, args, napi_uint16_array, "words", &src, &layout, &words);
  if (!ctx || !get_view(env, args[3], napi_uint16_array, "lut", &lut)) return NULL;
  if (words.length != layout.totalWords) return throw_type_error(env, "words", "Uint16Array of the layout's word count");
  if (lut.length != 65536) return throw_type_error(env, "lut", "Uint16Array of 65536 entries");
  int32_t maxCode = exr_piz_planes(ctx, src.data, src.length, &layout, words.data, lut.data);
  if (maxCode < 0) return finish(env, ctx, EXR_FAIL);
  finish(env, ctx, EXR_OK);
  return number(env, maxCode);
}

/* b44Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array, logTable: Uint16Array | null) */
static napi_value b44_into(napi_env env, napi_callback_info info) {
  napi_value args[4];
  View src, dst, table = {NULL, 0};
  ExrLayout layout;
  ExrContext *ctx = get_src_layout_dst(env, info, 4, args, napi_uint8_array, "dst", &src, &layout, &dst);
  if (!ctx) return NULL;
  if (!is_nullish(env, args[3])) {
    if (!get_view(env, args[3], napi_uint16_array, "logTable", &table)) return NULL;
    if (table.length != 65536) return throw_type_error(env, "logTable", "Uint16Array of 65536 entries");
  }
  for (int32_t c = 0; c < layout.channelCount; c++) {
    if (LAYOUT_TYPE(&layout, c) == EXR_HALF && LAYOUT_PLINEAR(&layout, c) && !table.data) {
      return throw_type_error(env, "logTable", "Uint16Array (a pLinear half channel needs it)");
    }
  }
  return finish(env, ctx, exr_b44_into(ctx, src.data, src.length, &layout, table.data, dst.data, dst.length));
}

static int get_int64(napi_env env, napi_value value, const char *what, int64_t *out) {
  double d;
  if (napi_get_value_double(env, value, &d) != napi_ok || d != d || d < -9007199254740991.0 || d > 9007199254740991.0 ||
      (double)(int64_t)d != d) {
    throw_type_error(env, what, "integer");
    return 0;
  }
  *out = (int64_t)d;
  return 1;
}

/* sumHalfLines(samples: Uint16Array, firstIndex, lineStride, lineCount, firstX, n, binOf: Int32Array, runEnd: Int32Array,
 *              acc: Float64Array, rowStart, table: Float32Array, halfBits: boolean, anyOrder: boolean) */
static napi_value sum_half_lines(napi_env env, napi_callback_info info) {
  napi_value args[13];
  View samples, binOf, runEnd, acc, table;
  ExrHalfLines lines;
  bool halfBits = false, anyOrder = false;
  ExrContext *ctx = get_args(env, info, 13, args);
  if (!ctx || !get_view(env, args[0], napi_uint16_array, "samples", &samples) ||
      !get_int64(env, args[1], "firstIndex", &lines.firstIndex) || !get_int64(env, args[2], "lineStride", &lines.lineStride) ||
      !get_int64(env, args[3], "lineCount", &lines.lineCount) || !get_int64(env, args[4], "firstX", &lines.firstX) ||
      !get_int64(env, args[5], "n", &lines.n) || !get_view(env, args[6], napi_int32_array, "binOf", &binOf) ||
      !get_view(env, args[7], napi_int32_array, "runEnd", &runEnd) || !get_view(env, args[8], napi_float64_array, "acc", &acc) ||
      !get_int64(env, args[9], "rowStart", &lines.rowStart) || !get_view(env, args[10], napi_float32_array, "table", &table)) {
    return NULL;
  }
  if (napi_get_value_bool(env, args[11], &halfBits) != napi_ok) return throw_type_error(env, "halfBits", "boolean");
  if (napi_get_value_bool(env, args[12], &anyOrder) != napi_ok) return throw_type_error(env, "anyOrder", "boolean");
  if (table.length != 65536) return throw_type_error(env, "table", "Float32Array of 65536 entries");
  lines.samples = samples.data;
  lines.samplesLength = samples.length;
  lines.binOf = binOf.data;
  lines.binOfLength = binOf.length;
  lines.runEnd = runEnd.data;
  lines.runEndLength = runEnd.length;
  lines.acc = acc.data;
  lines.accLength = acc.length;
  return finish(env, ctx, exr_sum_half_lines(ctx, &lines, table.data, halfBits, anyOrder));
}

/* finishThumbnail(sums: Float64Array, bands: Int32Array, channelCount, widthPx, heightPx, countX: Float64Array,
 *                 countY: Float64Array, rgba: Int32Array(4), out: Uint16Array, memo: Int16Array(65536) | null,
 *                 rgba8: Uint8Array | null): number, the first pixel the memo had no entry for (pixels when none) */
static napi_value finish_thumbnail(napi_env env, napi_callback_info info) {
  napi_value args[11];
  View sums, bands, countX, countY, rgba, out, memo = {0}, rgba8 = {0};
  ExrThumbnailSums t;
  ExrContext *ctx = get_args(env, info, 11, args);
  if (!ctx || !get_view(env, args[0], napi_float64_array, "sums", &sums) || !get_view(env, args[1], napi_int32_array, "bands", &bands) ||
      !get_int64(env, args[2], "channelCount", &t.channelCount) || !get_int64(env, args[3], "widthPx", &t.widthPx) ||
      !get_int64(env, args[4], "heightPx", &t.heightPx) || !get_view(env, args[5], napi_float64_array, "countX", &countX) ||
      !get_view(env, args[6], napi_float64_array, "countY", &countY) || !get_view(env, args[7], napi_int32_array, "rgba", &rgba) ||
      !get_view(env, args[8], napi_uint16_array, "out", &out)) {
    return NULL;
  }
  const int withMemo = !is_nullish(env, args[9]);
  if (withMemo && (!get_view(env, args[9], napi_int16_array, "memo", &memo) || !get_view(env, args[10], napi_uint8_array, "rgba8", &rgba8)))
    return NULL;
  if (withMemo && memo.length != 65536) return throw_type_error(env, "memo", "Int16Array of 65536 entries");
  if (bands.length % 3 != 0) return throw_type_error(env, "bands", "Int32Array of 3 numbers a band");
  if (rgba.length != 4) return throw_type_error(env, "rgba", "Int32Array of 4 channel indices");
  t.sums = sums.data;
  t.sumsLength = sums.length;
  t.bands = bands.data;
  t.bandCount = (int64_t)(bands.length / 3);
  t.countX = countX.data;
  t.countXLength = countX.length;
  t.countY = countY.data;
  t.countYLength = countY.length;
  memcpy(t.rgba, rgba.data, sizeof t.rgba);
  t.out = out.data;
  t.outLength = out.length;
  t.memo = withMemo ? memo.data : NULL;
  t.rgba8 = withMemo ? rgba8.data : NULL;
  t.rgba8Length = withMemo ? rgba8.length : 0;
  const int status = exr_finish_thumbnail(ctx, &t);
  finish(env, ctx, status);
  return status == EXR_OK ? number(env, (double)t.firstMiss) : NULL;
}

/* composeHalfTable(lut: Uint16Array, used: number, out: Float32Array): out[code] = SANE_HALF[lut[code]] for code < used */
static napi_value compose_half_table(napi_env env, napi_callback_info info) {
  napi_value args[3];
  View lut, out;
  int64_t used;
  if (!get_args(env, info, 3, args) || !get_view(env, args[0], napi_uint16_array, "lut", &lut) || !get_int64(env, args[1], "used", &used) ||
      !get_view(env, args[2], napi_float32_array, "out", &out)) {
    return NULL;
  }
  if (used < 0 || (uint64_t)used > lut.length || (uint64_t)used > out.length)
    return throw_type_error(env, "used", "count within both arrays");
  exr_compose_half_table(lut.data, used, out.data);
  return NULL;
}

/* adviseHugePages(view: Uint8Array): boolean. Asks Linux to back the view's whole 4 KB pages with 2 MB pages
 * (MADV_HUGEPAGE) before they are first touched: first touch of fresh memory costs a fault a 4 KB page, and one fault
 * a 2 MB page is far cheaper per byte. Only advice: false where the OS has no such call or refused it. */
static napi_value advise_huge_pages(napi_env env, napi_callback_info info) {
  napi_value args[1];
  View view;
  napi_value result;
  if (!get_args(env, info, 1, args) || !get_view(env, args[0], napi_uint8_array, "view", &view)) return NULL;
  bool advised = false;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t page = 4096;
  uintptr_t start = ((uintptr_t)view.data + page - 1) & ~(page - 1);
  uintptr_t end = ((uintptr_t)view.data + view.length) & ~(page - 1);
  if (view.data != emptyBytes && end > start) advised = madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
#endif
  napi_get_boolean(env, advised, &result);
  return result;
}

/* reserveFileDescriptors(count): grows the process's descriptor table to hold `count` (capped by RLIMIT_NOFILE) by
 * duplicating a descriptor to the top of that range and closing it: one growth now instead of several later, each of
 * which, in a multi-threaded process, makes every thread that opens a file wait out an RCU grace period (Linux).
 * Returns the table size asked for, or 0 where nothing was done (not Linux, or over 65536 entries). */
static napi_value reserve_file_descriptors(napi_env env, napi_callback_info info) {
  napi_value args[1];
  int64_t count = 0, reserved = 0;
  napi_value result;
  if (!get_args(env, info, 1, args) || !get_int64(env, args[0], "count", &count)) return NULL;
#ifdef __linux__
  struct rlimit limit;
  if (count > 65536) count = 0; /* a table that large is no reservation but a mistake */
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (uint64_t)count > (uint64_t)limit.rlim_cur)
    count = (int64_t)limit.rlim_cur;
  if (count > 1) {
    const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      const int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)(count - 1));
      if (high >= 0) {
        reserved = count;
        close(high);
      }
      close(fd);
    }
  }
#endif
  napi_create_int64(env, reserved, &result);
  return result;
}

/* pngRgb8(rgba8: Uint8Array, widthPx, heightPx, level): ArrayBuffer, a PNG of the image's RGB (alpha dropped). */
static napi_value png_rgb8(napi_env env, napi_callback_info info) {
  napi_value args[4];
  View rgba;
  int64_t widthPx, heightPx, level;
  ExrContext *ctx = get_args(env, info, 4, args);
  if (!ctx || !get_view(env, args[0], napi_uint8_array, "rgba8", &rgba) || !get_int64(env, args[1], "widthPx", &widthPx) ||
      !get_int64(env, args[2], "heightPx", &heightPx) || !get_int64(env, args[3], "level", &level)) {
    return NULL;
  }
  if (widthPx < 1 || heightPx < 1 || widthPx > 65535 || heightPx > 65535)
    return throw_type_error(env, "widthPx and heightPx", "number from 1 to 65535");
  if (level < 0 || level > 12) return throw_type_error(env, "level", "number from 0 to 12");
  const size_t bound = exr_png_bound(widthPx, heightPx);
  uint8_t *bytes = exr_scratch(ctx, SCRATCH_PNG_OUT, bound);
  const int64_t length = bytes ? exr_png_rgb8(ctx, rgba.data, rgba.length, widthPx, heightPx, (int)level, bytes, bound) : EXR_FAIL;
  if (length < 0) return finish(env, ctx, EXR_FAIL);
  void *data = NULL;
  napi_value result;
  if (napi_create_arraybuffer(env, (size_t)length, &data, &result) != napi_ok) {
    finish(env, ctx, EXR_OK);
    napi_throw_error(env, NULL, "exr_kernels: out of memory for a PNG");
    return NULL;
  }
  memcpy(data, bytes, (size_t)length);
  finish(env, ctx, EXR_OK);
  return result;
}

static void free_context(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  exr_context_free((ExrContext *)data);
}

NAPI_MODULE_INIT() {
  ExrContext *ctx = (ExrContext *)calloc(1, sizeof(ExrContext));
  if (!ctx || napi_set_instance_data(env, ctx, free_context, NULL) != napi_ok) {
    free(ctx);
    napi_throw_error(env, NULL, "exr_kernels: out of memory");
    return NULL;
  }
  napi_value abi = number(env, EXR_KERNELS_ABI);
  napi_property_descriptor properties[] = {
      {"abi", NULL, NULL, NULL, NULL, abi, napi_enumerable, NULL},
      {"zipInto", NULL, zip_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"unpackRows", NULL, unpack_rows, NULL, NULL, NULL, napi_enumerable, ctx},
      {"rleInto", NULL, rle_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"rleBytesInto", NULL, rle_bytes_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"dwaDcInto", NULL, dwa_dc_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"inflate", NULL, inflate, NULL, NULL, NULL, napi_enumerable, ctx},
      {"huffmanInto", NULL, huffman_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"dwaRlePlane", NULL, dwa_rle_plane, NULL, NULL, NULL, napi_enumerable, ctx},
      {"pizInto", NULL, piz_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"pizPlanes", NULL, piz_planes, NULL, NULL, NULL, napi_enumerable, ctx},
      {"pxr24Into", NULL, pxr24_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"b44Into", NULL, b44_into, NULL, NULL, NULL, napi_enumerable, ctx},
      {"sumHalfLines", NULL, sum_half_lines, NULL, NULL, NULL, napi_enumerable, ctx},
      {"finishThumbnail", NULL, finish_thumbnail, NULL, NULL, NULL, napi_enumerable, ctx},
      {"composeHalfTable", NULL, compose_half_table, NULL, NULL, NULL, napi_enumerable, ctx},
      {"adviseHugePages", NULL, advise_huge_pages, NULL, NULL, NULL, napi_enumerable, ctx},
      {"reserveFileDescriptors", NULL, reserve_file_descriptors, NULL, NULL, NULL, napi_enumerable, ctx},
      {"pngRgb8", NULL, png_rgb8, NULL, NULL, NULL, napi_enumerable, ctx},
  };
  if (napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties) != napi_ok) return NULL;
  return exports;
}
