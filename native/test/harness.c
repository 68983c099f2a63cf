// A C driver of the kernels without Node: times them on dumped chunks, or runs them on corrupted chunks under ASan/UBSan.
//
//   harness bench CHUNKS [ROUNDS]          best-of-ROUNDS CPU time per kernel over every chunk
//   harness fuzz CHUNKS CASES [SEED]       each case: one chunk with bytes flipped, cut or spliced;
//                                          the kernel must accept or refuse it, never touch memory
//                                          outside its buffers (buffers are exact-size mallocs)
//   harness png CASES [SEED]               the PNG encoder on images of random size and content, in
//                                          exact-size buffers (its output exactly exr_png_bound bytes)
//   harness halves                         the finishing's float-to-half conversion with this CPU's vector units
//                                          against the scalar one, on every float (exits 1 on a difference)
// CHUNKS comes from native/test/dump-chunks.ts. See native/README.md.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/kernels.h"

enum { K_ZIP, K_RLE, K_PIZ, K_PXR24, K_B44, K_COUNT, K_LOG_TABLE = 99 };
static const char *const KERNEL_NAMES[K_COUNT] = {"zip", "rle", "piz", "pxr24", "b44"};

typedef struct Record {
  uint32_t kernel, srcBytes, dstBytes, layoutWords;
  uint8_t *src;
  int32_t *layout;
} Record;

static uint16_t *logTable;

static Record *read_records(const char *path, size_t *count) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  size_t capacity = 64, n = 0;
  Record *records = malloc(capacity * sizeof *records);
  uint32_t head[4];
  while (fread(head, 4, 4, f) == 4) {
    Record r = {head[0], head[1], head[2], head[3], malloc(head[1] ? head[1] : 1), malloc(head[3] ? head[3] * 4 : 4)};
    if (fread(r.src, 1, r.srcBytes, f) != r.srcBytes || fread(r.layout, 4, r.layoutWords, f) != r.layoutWords) {
      fprintf(stderr, "%s: truncated record\n", path);
      exit(1);
    }
    if (r.kernel == K_LOG_TABLE) {
      free(logTable);
      logTable = (uint16_t *)r.src;
      free(r.layout);
      continue;
    }
    if (n == capacity) records = realloc(records, (capacity *= 2) * sizeof *records);
    records[n++] = r;
  }
  fclose(f);
  *count = n;
  return records;
}

/* Runs one kernel call; EXR_OK or EXR_FAIL. */
static int run(ExrContext *ctx, const Record *r, const uint8_t *src, size_t srcBytes, uint8_t *dst) {
  ExrLayout layout;
  if (r->kernel >= K_PIZ && exr_layout_parse(ctx, r->layout, r->layoutWords, &layout) != EXR_OK) {
    fprintf(stderr, "bad layout in the dump: %s\n", ctx->error);
    exit(1);
  }
  int status;
  switch (r->kernel) {
  case K_ZIP: status = exr_zip_into(ctx, src, srcBytes, dst, r->dstBytes); break;
  case K_RLE: status = exr_rle_into(ctx, src, srcBytes, dst, r->dstBytes); break;
  case K_PIZ: status = exr_piz_into(ctx, src, srcBytes, &layout, dst, r->dstBytes); break;
  case K_PXR24: status = exr_pxr24_into(ctx, src, srcBytes, &layout, dst, r->dstBytes); break;
  default: status = exr_b44_into(ctx, src, srcBytes, &layout, logTable, dst, r->dstBytes); break;
  }
  exr_scratch_trim(ctx);
  return status;
}

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void bench(Record *records, size_t count, int rounds) {
  ExrContext *ctx = calloc(1, sizeof *ctx);
  double best[K_COUNT];
  uint64_t bytes[K_COUNT] = {0};
  for (int k = 0; k < K_COUNT; k++) best[k] = 1e300;
  // one output buffer for every chunk, as the reader's decompressTransient reuses one
  size_t largest = 1;
  for (size_t i = 0; i < count; i++) largest = records[i].dstBytes > largest ? records[i].dstBytes : largest;
  uint8_t *dst = malloc(largest);
  for (int round = 0; round < rounds; round++) {
    double spent[K_COUNT] = {0};
    for (size_t i = 0; i < count; i++) {
      double t0 = cpu_ms();
      if (run(ctx, &records[i], records[i].src, records[i].srcBytes, dst) != EXR_OK) {
        fprintf(stderr, "chunk %zu refused: %s\n", i, ctx->error);
        exit(1);
      }
      spent[records[i].kernel] += cpu_ms() - t0;
      if (round == 0) bytes[records[i].kernel] += records[i].dstBytes;
    }
    for (int k = 0; k < K_COUNT; k++) best[k] = spent[k] < best[k] ? spent[k] : best[k];
  }
  for (int k = 0; k < K_COUNT; k++) {
    if (bytes[k]) printf("%-6s %8.1f ms  %7.1f MB/s out\n", KERNEL_NAMES[k], best[k], bytes[k] / 1e3 / best[k]);
  }
  free(dst);
  exr_context_free(ctx);
}

static uint64_t rng_state;
static uint32_t rng(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

static void fuzz(Record *records, size_t count, long cases, uint64_t seed) {
  ExrContext *ctx = calloc(1, sizeof *ctx);
  rng_state = seed;
  long accepted = 0, refused = 0;
  for (long c = 0; c < cases; c++) {
    const Record *r = &records[rng() % count];
    size_t srcBytes = r->srcBytes;
    uint8_t *src = malloc(srcBytes + 1);
    memcpy(src, r->src, srcBytes);
    switch (rng() % 4) {
    case 0: // flip a few bytes, mostly near the start where the tables are
    case 1:
      for (int flips = 1 + rng() % 6; flips > 0 && srcBytes; flips--) {
        size_t at = rng() % 2 ? rng() % (srcBytes < 64 ? srcBytes : 64) : rng() % srcBytes;
        src[at] ^= (uint8_t)(1 + rng() % 255);
      }
      break;
    case 2: // cut
      srcBytes = srcBytes ? rng() % srcBytes : 0;
      break;
    default: { // splice another chunk's bytes in
      const Record *other = &records[rng() % count];
      size_t at = srcBytes ? rng() % srcBytes : 0;
      size_t span = other->srcBytes ? rng() % other->srcBytes : 0;
      if (span > srcBytes - at) span = srcBytes - at;
      memcpy(src + at, other->src, span);
      break;
    }
    }
    // exact-size copies so that ASan sees any access past either end
    uint8_t *exactSrc = malloc(srcBytes ? srcBytes : 1);
    memcpy(exactSrc, src, srcBytes);
    uint8_t *dst = malloc(r->dstBytes ? r->dstBytes : 1);
    if (run(ctx, r, exactSrc, srcBytes, dst) == EXR_OK)
      accepted++;
    else
      refused++;
    free(dst);
    free(exactSrc);
    free(src);
  }
  printf("%ld cases: %ld decoded, %ld refused\n", cases, accepted, refused);
  exr_context_free(ctx);
}

static void fuzz_png(long cases, uint64_t seed) {
  ExrContext *ctx = calloc(1, sizeof *ctx);
  rng_state = seed;
  uint64_t encodedBytes = 0;
  for (long c = 0; c < cases; c++) {
    // mostly small; now and then a row or a column wider than a compression block
    const int64_t width = 1 + (rng() % 8 ? rng() % 300 : rng() % 70000), height = 1 + (width > 300 ? rng() % 3 : rng() % 200);
    const size_t rgbaBytes = (size_t)(4 * width * height);
    uint8_t *rgba = malloc(rgbaBytes);
    const uint32_t kind = rng() % 3;
    for (size_t i = 0; i < rgbaBytes; i++)
      rgba[i] = kind == 0 ? (uint8_t)rng() : kind == 1 ? (uint8_t)(i / 4 % (size_t)width + i % 4 * 40) : 7;
    const size_t bound = exr_png_bound(width, height);
    uint8_t *out = malloc(bound);
    const int64_t length = exr_png_rgb8(ctx, rgba, rgbaBytes, width, height, (int)(rng() % 13), out, bound);
    if (length < 0 || (size_t)length > bound) {
      fprintf(stderr, "png %lldx%lld: %s\n", (long long)width, (long long)height, length < 0 ? ctx->error : "past the bound");
      exit(1);
    }
    encodedBytes += (uint64_t)length;
    exr_scratch_trim(ctx);
    free(out);
    free(rgba);
  }
  printf("%ld PNGs encoded, %llu bytes\n", cases, (unsigned long long)encodedBytes);
  exr_context_free(ctx);
}

/** Every finite float (and the infinities, which clamp to ±65504) through the vector conversion and the scalar one. */
static int check_halves(void) {
  const int vectors = exr_cpu_vectors();
  enum { BATCH = 1 << 16 };
  static float in[BATCH];
  static uint16_t scalar[BATCH], vector[BATCH];
  uint64_t differences = 0;
  for (uint64_t base = 0; base < ((uint64_t)1 << 32); base += BATCH) {
    int n = 0;
    for (uint32_t i = 0; i < BATCH; i++) {
      const uint32_t bits = (uint32_t)(base + i);
      if ((bits & 0x7fffffff) > 0x7f800000) continue; /* NaN: a mean never is */
      memcpy(&in[n++], &bits, 4);
    }
    exr_halves_row(in, n, scalar, 0);
    exr_halves_row(in, n, vector, vectors);
    for (int i = 0; i < n; i++) {
      if (scalar[i] != vector[i] && differences++ < 10)
        fprintf(stderr, "%a: scalar %04x, vector %04x\n", (double)in[i], scalar[i], vector[i]);
    }
  }
  printf("halves: %llu differences (vector units %d)\n", (unsigned long long)differences, vectors);
  return differences ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "halves")) return check_halves();
  if (argc >= 3 && !strcmp(argv[1], "png")) {
    fuzz_png(atol(argv[2]), argc > 3 ? strtoull(argv[3], NULL, 10) : 1);
    return 0;
  }
  if (argc < 3 || (strcmp(argv[1], "bench") && strcmp(argv[1], "fuzz")) || (!strcmp(argv[1], "fuzz") && argc < 4)) {
    fprintf(stderr,
            "usage: harness bench CHUNKS [ROUNDS] | harness fuzz CHUNKS CASES [SEED] | harness png CASES [SEED] | harness halves\n");
    return 2;
  }
  size_t count;
  Record *records = read_records(argv[2], &count);
  if (count == 0) {
    fprintf(stderr, "%s holds no chunks\n", argv[2]);
    return 1;
  }
  if (!strcmp(argv[1], "bench"))
    bench(records, count, argc > 3 ? atoi(argv[3]) : 5);
  else
    fuzz(records, count, atol(argv[3]), argc > 4 ? strtoull(argv[4], NULL, 10) : 1);
  // freed so that LeakSanitizer reports only what the kernels leak
  for (size_t i = 0; i < count; i++) {
    free(records[i].src);
    free(records[i].layout);
  }
  free(records);
  free(logTable);
  return 0;
}
