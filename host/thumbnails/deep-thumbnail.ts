// The thumbnail of a file that holds only deep parts: its first deep part decoded whole, flattened front to back ("over",
// as the preview shows it), box-filtered, then tone-mapped, encoded and written like any other thumbnail. One task:
// deep chunks hold whole pixels' sample lists, which bands of bins do not split.

import {
  decodeDeep,
  ExrError,
  ExrReader,
  flattenDeep,
  nativeKernels,
  openFileSource,
  type MissingChunks,
  type PartInfo,
} from '../../codec/index.js';
import type { ThumbnailMissing } from '../../contract/host-api.js';
import { binsOfBlock } from './binned-decode.js';
import { hatchMissing } from './missing-hatch.js';
import type { TaskContext, TaskOutput } from '../decode/task-handler.js';
import { pngFromRgba8 } from '../io/png-native.js';
import { channelsOf, chooseThumbnailChannels } from './channels.js';
import { toRgbaHalf, type ThumbnailOutputs } from './compose.js';
import { writeThumbnailFiles } from './files.js';
import { boxFilter, thumbnailSize, type ThumbnailJobResult } from './job.js';
import { memoApplies, toneMapHalfRgba, viewMemo } from './tone-map.js';

export interface DeepThumbnailArgs extends ThumbnailOutputs {
  path: string;
  /** The deep part (deepThumbnailPart). */
  part: number;
  longSidePx: number;
}

/** The part a deep-only file's thumbnail is made from: the first deep part with a channel; null when the file has a flat part. */
export function deepThumbnailPart(parts: readonly PartInfo[]): PartInfo | null {
  if (parts.some((p) => !p.isDeep)) return null;
  const part = parts.find((p) => p.channels.length > 0);
  if (!part) throw new ExrError('unsupported', 'no part of the file has any channels: there is no image to show');
  return part;
}

export function deepThumbnailTask(args: DeepThumbnailArgs, ctx: TaskContext): TaskOutput<ThumbnailJobResult> {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const part = reader.part(args.part);
    const size = thumbnailSize(part.widthPx, part.heightPx, args.longSidePx);
    const choice = chooseThumbnailChannels(part.channels.map((c) => c.name));
    // every channel: flattening sorts samples by Z and composites colours under their alpha
    // tolerant: a damaged file's readable chunks are shown, the pixels of the others hatched
    const deep = decodeDeep(reader, { part: part.index, lx: 0, ly: 0, signal: ctx.signal, tolerant: true });
    const flat = flattenDeep(deep);
    const t0 = performance.now();
    const filtered = new Map(
      channelsOf(choice).map((name) => [
        name,
        boxFilter(
          flat.channels.find((c) => c.name === name)!,
          size.widthPx,
          size.heightPx,
        ),
      ]),
    );
    const pixelCount = size.widthPx * size.heightPx;
    const rgbaHalf = toRgbaHalf(choice, (name) => (name ? (filtered.get(name) ?? null) : null), pixelCount);
    if (deep.missing) hatchMissing(rgbaHalf, maskOf(part, deep.missing, size.widthPx, size.heightPx), size.widthPx);
    const t1 = performance.now();
    const { view } = args;
    const memo = view && memoApplies(view.params) ? (view.memo ?? viewMemo(view.params)) : null;
    const rgba8 = view ? toneMapHalfRgba(rgbaHalf, size.widthPx, size.heightPx, view.params, memo ?? undefined) : null;
    const t2 = performance.now();
    const png = args.png && rgba8 && nativeKernels ? pngFromRgba8(rgba8, size.widthPx, size.heightPx) : null;
    const t3 = performance.now();
    const made = { ...size, madeFrom: 'full-decode', rgbaHalf: rgbaHalf.buffer as ArrayBuffer, ...(png ? { png } : {}) };
    // a damaged file's thumbnail is not kept in the disk cache: the file may yet be whole again
    const files = deep.missing && args.files ? { ...args.files, cache: undefined } : args.files;
    const written = files ? writeThumbnailFiles(files, made) : null;
    const result: ThumbnailJobResult = {
      ...size,
      rgbaHalf: made.rgbaHalf,
      ...(rgba8 ? { rgba8: rgba8.buffer as ArrayBuffer } : {}),
      ...(png ? { png } : {}),
      ...(written ? { written } : {}),
      ...(deep.missing ? { missing: thumbnailMissing(deep.missing) } : {}),
      source: 'full-decode',
      part: part.index,
      lx: 0,
      ly: 0,
      channels: choice,
      timings: {
        readMs: source.stats.readMs,
        bytesRead: source.stats.bytesRead,
        decompressMs: deep.timings.decompressMs,
        // the deep unpack and the flattening
        unpackMs: flat.timings.unpackMs,
        chunks: deep.timings.chunks,
        resizeMs: t1 - t0,
        toneMapMs: t2 - t1,
        encodeMs: t3 - t2,
        writeMs: performance.now() - t3,
      },
    };
    return { result, transfer: [made.rgbaHalf, ...(rgba8 ? [rgba8.buffer as ArrayBuffer] : []), ...(png ? [png] : [])] };
  } finally {
    source.close();
  }
}

/** The thumbnail pixels the failed chunks' pixels fall in (1), as boxFilter bins them. */
function maskOf(part: PartInfo, missing: MissingChunks, widthPx: number, heightPx: number): Uint8Array {
  const mask = new Uint8Array(widthPx * heightPx);
  for (const { region: r } of missing.failures) {
    const block = { channels: part.channels, x0: r.xMin, y0: r.yMin, widthPx: r.xMax - r.xMin + 1, heightPx: r.yMax - r.yMin + 1 };
    const bins = binsOfBlock(part, part.levels[0]!, block, widthPx, heightPx);
    for (let ty = bins.tyMin; ty <= bins.tyMax; ty++) mask.fill(1, ty * widthPx + bins.txMin, ty * widthPx + bins.txMax + 1);
  }
  return mask;
}

/** What the result says of a damaged file's thumbnail: how many chunks read of how many, and the first failure's reason. */
export function thumbnailMissing(missing: MissingChunks): ThumbnailMissing {
  return { chunksRead: missing.chunksRead, chunksTotal: missing.chunksTotal, reason: missing.failures[0]!.reason };
}
