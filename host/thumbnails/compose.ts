// A thumbnail finished from its bands' sums: added up, divided by each bin's sample count, clamped and rounded to half
// RGBA (in the native kernels where they loaded, thumb_finish.c, the same arithmetic; else here), and tone-mapped.

import { ExrError, nativeKernels, floatToHalf, type Level, type PartInfo } from '../../codec/index.js';
import { pngFromRgba8 } from '../io/png-native.js';
import { writeThumbnailFiles, type ThumbnailFiles, type ThumbnailFilesWritten } from './files.js';
import { bandSums, chunksMissing, missingMask, type ThumbnailSumsLayout } from './band-sums.js';
import { hatchMissing } from './missing-hatch.js';
import { binCounts, binMeans } from './binned-decode.js';
import { HALF_MAX } from './bins.js';
import type { ThumbnailChannels } from './channels.js';
import { memoApplies, toneMapHalfRgba, viewMemo, type ToneMapView } from './tone-map.js';

/** What a thumbnail is finished from: its level, its size, the channels it shows and those its sums are of (`names`). */
export interface ThumbnailShape {
  part: PartInfo;
  level: Level;
  choice: ThumbnailChannels;
  names: readonly string[];
  widthPx: number;
  heightPx: number;
}

/**
 * The half RGBA from the bands' sums in the job's shared buffer, into `out`. With a per-channel view's memo table and
 * `rgba8`, the native kernel also tone-maps each row while it is in cache, up to the first value the memo has no entry
 * for: the pixel returned (pixelCount when none; 0 from the TypeScript, which leaves the tone-mapping to the caller).
 * `native` false runs the TypeScript (the fallback, and the tests' oracle).
 */
export function finishThumbnail(
  shape: ThumbnailShape,
  buffer: SharedArrayBuffer,
  layout: ThumbnailSumsLayout,
  out: Uint16Array,
  memo: Int16Array | null = null,
  rgba8: Uint8Array | null = null,
  native = nativeKernels !== null,
): number {
  const { part, level, choice, names, widthPx, heightPx } = shape;
  if (!native || !nativeKernels) {
    const bands = layout.bands.map((slot, b) => ({ tyMin: slot.tyMin, sums: bandSums(buffer, layout, b) }));
    composeThumbnail(
      shape,
      bands,
      names.map(() => new Float64Array(layout.pixelCount)),
      out,
    );
    return 0;
  }
  const { countX, countY } = binCounts(part, level, names, widthPx, heightPx);
  const bands = new Int32Array(layout.bands.length * 3);
  layout.bands.forEach((slot, b) => bands.set([slot.byteOffset / 8, slot.tyMin, slot.length], 3 * b));
  const channelOf = (name: string | null) => (name === null ? -1 : names.indexOf(name));
  const [r, g, b] =
    choice.kind === 'rgb'
      ? [choice.r, choice.g, choice.b]
      : choice.kind === 'grey'
        ? [choice.channel, choice.channel, choice.channel]
        : [choice.y, choice.y, choice.y];
  const rgba = Int32Array.from([channelOf(r), channelOf(g), channelOf(b), channelOf(choice.a)]);
  const withMemo = memo !== null && rgba8 !== null;
  return nativeKernels.finishThumbnail(
    new Float64Array(buffer),
    bands,
    names.length,
    widthPx,
    heightPx,
    countX,
    countY,
    rgba,
    out,
    withMemo ? memo : null,
    withMemo ? rgba8 : null,
  );
}

/** What a thumbnail of this level is made from: the full image (level 0), or a smaller MIP or RIP level. */
export function sourceOfLevel(level: Level): 'full-decode' | 'mip-level' {
  return level.lx === 0 && level.ly === 0 ? 'full-decode' : 'mip-level';
}

/** What a finished thumbnail is handed back as besides its half RGBA. */
export interface ThumbnailOutputs {
  /** 8-bit RGBA through this view. */
  view?: ToneMapView;
  /** That 8-bit RGBA as a PNG's bytes too (with the native kernels; without them there is none, and the caller encodes). */
  png?: boolean;
  /** Files to write from the thumbnail once made (its disk cache file, its PNG), here rather than on the main thread. */
  files?: ThumbnailFiles;
}

/** A finished thumbnail in buffers of its own (handed to the main thread as they are), and the time it took. */
export interface MadeThumbnail {
  rgbaHalf: ArrayBuffer;
  /** 8-bit RGBA through the view, when one was given. */
  rgba8?: ArrayBuffer;
  /** The PNG of rgba8, when asked for and the native kernels loaded. */
  png?: ArrayBuffer;
  /** What came of the files asked for. */
  written?: ThumbnailFilesWritten;
  /** Adding up, dividing, halves (and, natively, the memo's 8-bit values). */
  finishMs: number;
  /** Tone-mapping the rest: the pixels past the native kernel's (values the memo had not seen), or all of them. */
  toneMapMs: number;
  /** Encoding the PNG. */
  encodeMs: number;
  /** Writing the files. */
  writeMs: number;
}

/**
 * The thumbnail made from its job's shared sums, by the worker whose band came in last or by the main thread's
 * fallback: finishThumbnail, then with a view its 8-bit RGBA (what the kernel left of it), its PNG and files when asked.
 * Of a damaged file, the pixels chunks that could not be read fall in are hatched (missing-hatch.ts), and the disk cache
 * keeps no copy (the file may yet be whole again); when no chunk could be read it throws, with `reason` (the first's).
 */
export function makeThumbnail(
  shape: ThumbnailShape,
  buffer: SharedArrayBuffer,
  layout: ThumbnailSumsLayout,
  outputs: ThumbnailOutputs = {},
  native = nativeKernels !== null,
  reason = 'chunks could not be read',
): MadeThumbnail {
  const { view } = outputs;
  const t0 = performance.now();
  const missingChunks = chunksMissing(buffer, layout);
  if (missingChunks > 0 && missingChunks >= layout.chunksTotal)
    throw new ExrError('invalid', `${reason} (and no other chunk of the image could be read either)`);
  const damaged = missingChunks > 0;
  const rgbaHalf = new Uint16Array(layout.pixelCount * 4);
  const rgba8 = view ? new Uint8ClampedArray(layout.pixelCount * 4) : null;
  // hatched after finishing: the native kernel tone-maps as it finishes, so a damaged thumbnail is tone-mapped after
  const memo = view && memoApplies(view.params) ? (view.memo ?? viewMemo(view.params)) : null;
  const nativeMemo = damaged ? null : memo;
  const mapped = finishThumbnail(shape, buffer, layout, rgbaHalf, nativeMemo, rgba8 && new Uint8Array(rgba8.buffer), native);
  if (damaged) hatchMissing(rgbaHalf, missingMask(buffer, layout), shape.widthPx);
  const t1 = performance.now();
  // without a memo (a view that mixes channels) the kernel mapped nothing
  const from = nativeMemo ? mapped : 0;
  if (view && from < layout.pixelCount)
    toneMapHalfRgba(rgbaHalf, shape.widthPx, shape.heightPx, view.params, memo ?? undefined, rgba8!, from);
  const t2 = performance.now();
  const png = outputs.png && rgba8 && native ? pngFromRgba8(rgba8, shape.widthPx, shape.heightPx) : null;
  const t3 = performance.now();
  const madeFrom = sourceOfLevel(shape.level);
  const files = damaged && outputs.files?.cache ? { ...outputs.files, cache: undefined } : outputs.files;
  const written = files
    ? writeThumbnailFiles(files, {
        widthPx: shape.widthPx,
        heightPx: shape.heightPx,
        madeFrom,
        rgbaHalf: rgbaHalf.buffer,
        ...(png ? { png } : {}),
      })
    : null;
  return {
    rgbaHalf: rgbaHalf.buffer,
    ...(rgba8 ? { rgba8: rgba8.buffer } : {}),
    ...(png ? { png } : {}),
    ...(written ? { written } : {}),
    finishMs: t1 - t0,
    toneMapMs: t2 - t1,
    encodeMs: t3 - t2,
    writeMs: performance.now() - t3,
  };
}

/**
 * A thumbnail's half RGBA from its bands' sums (one array per channel of `names`): added up in `whole` (neighbouring
 * bands share their edge bin rows), divided, then converted into `out`.
 */
export function composeThumbnail(
  shape: ThumbnailShape,
  bands: readonly { tyMin: number; sums: readonly Float64Array[] }[],
  whole: readonly Float64Array[],
  out: Uint16Array = new Uint16Array(shape.widthPx * shape.heightPx * 4),
): Uint16Array {
  const { part, level, choice, names, widthPx, heightPx } = shape;
  const acc = new Map(names.map((name, c) => [name, whole[c]!.fill(0)]));
  for (const band of bands) {
    names.forEach((name, c) => {
      const into = acc.get(name)!;
      const from = band.tyMin * widthPx;
      const sums = band.sums[c]!;
      for (let i = 0; i < sums.length; i++) into[from + i]! += sums[i]!;
    });
  }
  const means = binMeans(part, level, names, widthPx, heightPx, acc);
  return toRgbaHalf(choice, (name) => (name ? (means.get(name) ?? null) : null), widthPx * heightPx, out);
}

/** Half RGBA from the channels' means: a colour without a channel is 0, alpha without one is 1. */
export function toRgbaHalf(
  choice: ThumbnailChannels,
  filtered: (name: string | null) => Float32Array | null,
  pixelCount: number,
  out: Uint16Array = new Uint16Array(pixelCount * 4),
): Uint16Array {
  let r: Float32Array | null;
  let g: Float32Array | null;
  let b: Float32Array | null;
  let a: Float32Array | null;
  if (choice.kind === 'rgb') {
    [r, g, b, a] = [filtered(choice.r), filtered(choice.g), filtered(choice.b), filtered(choice.a)];
  } else if (choice.kind === 'grey') {
    r = g = b = filtered(choice.channel);
    a = filtered(choice.a);
  } else {
    // luminance only until the codec's luma-chroma conversion lands: grey from Y
    r = g = b = filtered(choice.y);
    a = filtered(choice.a);
  }
  const ONE = floatToHalf(1);
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    out[o] = r ? floatToHalf(clampHalf(r[i]!)) : 0;
    out[o + 1] = g ? floatToHalf(clampHalf(g[i]!)) : 0;
    out[o + 2] = b ? floatToHalf(clampHalf(b[i]!)) : 0;
    out[o + 3] = a ? floatToHalf(clampHalf(a[i]!)) : ONE;
  }
  return out;
}

export function clampHalf(v: number): number {
  return v > HALF_MAX ? HALF_MAX : v < -HALF_MAX ? -HALF_MAX : v;
}
