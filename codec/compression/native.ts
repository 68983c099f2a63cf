// Loads the optional native kernels (dist/native/exr_kernels.node, built from native/src) once per thread, or says why they are off.

import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The addon's exports; every function throws an Error with code ERR_EXR_INVALID on damaged input. */
export interface NativeKernels {
  readonly abi: number;
  /** ZIP/ZIPS: inflates exactly dst.length bytes, then undoes the predictor into dst. */
  zipInto(src: Uint8Array, dst: Uint8Array): void;
  /**
   * The reader's unpack (reader.ts's unpackBlock): a block's lines copied into the planes (null: a channel not wanted).
   * plan: channel count, y0, rows, region yMin and yMax, frame yMin, then per channel lineBytes, skipBytes, copyBytes,
   * dstColBytes, rowBytes, ySampling. Throws where a line would fall outside raw or its plane.
   */
  unpackRows(raw: Uint8Array, plan: Int32Array, planes: (Uint8Array | null)[]): void;
  /** RLE: decodes exactly dst.length bytes, then undoes the predictor into dst. */
  rleInto(src: Uint8Array, dst: Uint8Array): void;
  /** DWA's RLE section (dwa.ts's rleDecode): the same records without the predictor, exactly dst.length bytes into dst. */
  rleBytesInto(src: Uint8Array, dst: Uint8Array): void;
  /** DWA's DC section (zlib, then ZIP's predictor and reorder): exactly dst.length bytes into dst. */
  dwaDcInto(src: Uint8Array, dst: Uint8Array): void;
  /** zlib (libdeflate): inflates into dst, returns the bytes written; throws when the data needs more than dst.length. */
  inflate(src: Uint8Array, dst: Uint8Array): number;
  /** A whole Huffman block (huffman.ts's huffmanDecodeInto): fills out exactly, else throws. */
  huffmanInto(src: Uint8Array, out: Uint16Array): void;
  /** DWA: one RLE channel's byte planes from data[start] into its rows of out (dwa.ts's copyRlePlane); wide: 4-byte samples. */
  dwaRlePlane(data: Uint8Array, start: number, width: number, height: number, wide: number, rowOffsets: Int32Array, out: Uint8Array): void;
  /** PIZ: the whole chunk into dst, laid out as `layout` (see native-layout.ts) describes. */
  pizInto(src: Uint8Array, layout: Int32Array, dst: Uint8Array): void;
  /** PIZ up to the channel planes: fills words and lut (zero past the last used entry), returns the largest code in use. */
  pizPlanes(src: Uint8Array, layout: Int32Array, words: Uint16Array, lut: Uint16Array): number;
  pxr24Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array): void;
  /** B44/B44A; logTable (b44-log-table.ts) is required when a half channel is pLinear. */
  b44Into(src: Uint8Array, layout: Int32Array, dst: Uint8Array, logTable: Uint16Array | null): void;
  /** The thumbnail box filter of bins.ts (sumHalfLines): lineCount lines of n half samples summed into one bin row of acc. */
  sumHalfLines(
    samples: Uint16Array,
    firstIndex: number,
    lineStride: number,
    lineCount: number,
    firstX: number,
    n: number,
    binOf: Int32Array,
    runEnd: Int32Array,
    acc: Float64Array,
    rowStart: number,
    table: Float32Array,
    /** The table is SANE_HALF: the kernel may convert the halves on the CPU (F16C) instead of looking them up. */
    halfBits: boolean,
    /** Every bin holds at most EXACT_BIN_SAMPLES samples: its sums are exact in any order, so the kernel may pick one. */
    anyOrder: boolean,
  ): void;
  /**
   * A thumbnail finished from its job's shared sums, as composeThumbnail (thumbnails/compose.ts) does: the bands (3
   * numbers each: element offset of the slot, first bin row, elements a channel) added up, divided by the bins' counts
   * (per channel, countX then countY), half RGBA into out (rgba: the channel of each, or -1). With a memo (a per-channel
   * view's 65536 entries, -1 where not computed), 8-bit RGBA into rgba8 up to the first pixel whose value the memo lacks:
   * that pixel is returned (the pixel count when none, or without a memo).
   */
  finishThumbnail(
    sums: Float64Array,
    bands: Int32Array,
    channelCount: number,
    widthPx: number,
    heightPx: number,
    countX: Float64Array,
    countY: Float64Array,
    rgba: Int32Array,
    out: Uint16Array,
    memo: Int16Array | null,
    rgba8: Uint8Array | null,
  ): number;
  /** out[code] = the value SANE_HALF (thumbnails/bins.ts) gives half bits lut[code], for code < used. */
  composeHalfTable(lut: Uint16Array, used: number, out: Float32Array): void;
  /** Asks the OS to back the view's pages with huge pages before first touch (Linux madvise); false where it could not. */
  adviseHugePages(view: Uint8Array): boolean;
  /** Grows the process's file-descriptor table to `count` entries (capped by the open-files limit); the count reached, 0 where not done (not Linux). */
  reserveFileDescriptors(count: number): number;
  /** A PNG of 8-bit RGBA's colour (alpha dropped; 1 to 65535 pixels a side), deflated by libdeflate at `level` (0 to 12). */
  pngRgb8(rgba8: Uint8Array, widthPx: number, heightPx: number, level: number): ArrayBuffer;
}

export interface NativeStatus {
  on: boolean;
  /** Why the kernels are off, or where they were loaded from. */
  reason: string;
  path: string | null;
}

/** The addon's interface version (EXR_KERNELS_ABI in native/src/kernels.h). */
export const NATIVE_ABI = 12;
export const ADDON_FILE = 'exr_kernels.node';

declare const __filename: string | undefined;

/** Where the addon may be: beside the running bundle (dist/*.mjs, dist/electron/*.cjs) or in the repository's dist/ (from source). */
export function addonCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.EXRVIEW_NATIVE_ADDON) return [env.EXRVIEW_NATIVE_ADDON];
  const here = typeof __filename === 'string' ? dirname(__filename) : dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, 'native', ADDON_FILE),
    join(here, '..', 'native', ADDON_FILE),
    join(here, '..', '..', 'dist', 'native', ADDON_FILE),
  ];
  // packaged Electron apps keep native files outside the asar archive
  return candidates.map((p) => p.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`));
}

/** Loads the addon unless EXRVIEW_NATIVE=0; never throws. */
export function loadNative(env: NodeJS.ProcessEnv = process.env): { kernels: NativeKernels | null; status: NativeStatus } {
  const off = (reason: string, path: string | null = null) => ({ kernels: null, status: { on: false, reason, path } });
  if (env.EXRVIEW_NATIVE === '0') return off('turned off by EXRVIEW_NATIVE=0');
  const candidates = addonCandidates(env);
  const path = candidates.find((p) => existsSync(p));
  if (!path)
    return off(
      `not built (no ${ADDON_FILE} in ${candidates.map(dirname).join(', ')}): run \`npm run build\` with a C compiler and libdeflate-dev`,
    );
  const module = { exports: {} as Partial<NativeKernels> };
  try {
    process.dlopen(module, path);
  } catch (error) {
    return off(`${path} did not load: ${error instanceof Error ? error.message : String(error)}`, path);
  }
  const kernels = module.exports;
  if (kernels.abi !== NATIVE_ABI)
    return off(`${path} is of interface version ${String(kernels.abi)}, expected ${NATIVE_ABI}: run \`npm run build\``, path);
  return { kernels: kernels as NativeKernels, status: { on: true, reason: `loaded from ${path}`, path } };
}

const loaded = loadNative();
/** The kernels of this thread, or null (TypeScript codecs only). */
export const nativeKernels: NativeKernels | null = loaded.kernels;
export const nativeStatus: NativeStatus = loaded.status;
