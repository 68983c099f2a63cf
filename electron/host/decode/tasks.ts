// What a decode worker can do: each job kind is a pure function from arguments to a result and the buffers to transfer.

import { ExrError, ExrReader, openFileSource, type Box2i, type DecodedImage, type StageTimings } from '../../exr/index.js';
import type { AbortSignalLike } from '../../exr/reader.js';
import { levelLayout, type LayoutResult } from './image-decode.js';
import { deepFlatJob, type DeepFlatJobArgs, type DeepFlatJobResult } from './deep-task.js';
import { thumbnailJob, type ThumbnailJobArgs, type ThumbnailJobResult } from '../thumbnails/job.js';

export interface JobContext {
  signal: AbortSignalLike;
}

export interface JobOutput<R> {
  result: R;
  /** Buffers handed to the main thread without copying. */
  transfer: ArrayBuffer[];
}

export interface DecodeJobArgs {
  path: string;
  part?: number;
  lx?: number;
  ly?: number;
  channels?: string[];
}

export interface DecodeAllJobArgs {
  path: string;
}

export interface DecodeAllResult {
  parts: number;
  pixels: number;
  timings: StageTimings;
}

function decodeJob(args: DecodeJobArgs, ctx: JobContext): JobOutput<DecodedImage> {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const image = reader.decode({
      part: args.part ?? 0,
      lx: args.lx ?? 0,
      ly: args.ly ?? args.lx ?? 0,
      ...(args.channels ? { channels: args.channels } : {}),
      signal: ctx.signal,
    });
    image.timings.readMs = source.stats.readMs;
    image.timings.bytesRead = source.stats.bytesRead;
    return { result: image, transfer: image.channels.map((c) => c.data.buffer as ArrayBuffer) };
  } finally {
    source.close();
  }
}

/** Decodes every flat part (level 0) and drops the pixels: the bench's unit of work. */
function decodeAllJob(args: DecodeAllJobArgs, ctx: JobContext): JobOutput<DecodeAllResult> {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
    let pixels = 0;
    let parts = 0;
    for (const part of reader.parts) {
      if (part.isDeep) continue;
      const image = reader.decode({ part: part.index, signal: ctx.signal });
      timings.decompressMs += image.timings.decompressMs;
      timings.unpackMs += image.timings.unpackMs;
      timings.chunks += image.timings.chunks;
      pixels += image.widthPx * image.heightPx;
      parts++;
    }
    timings.readMs = source.stats.readMs;
    timings.bytesRead = source.stats.bytesRead;
    return { result: { parts, pixels, timings }, transfer: [] };
  } finally {
    source.close();
  }
}

export interface LayoutJobArgs {
  path: string;
  part: number;
  lx: number;
  ly: number;
  channels?: string[];
}

/** Geometry of one level for splitting its decode across workers. */
function layoutJob(args: LayoutJobArgs): JobOutput<LayoutResult> {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const part = reader.part(args.part);
    if (part.isDeep) throw new ExrError('unsupported', 'deep parts are decoded whole, not in bands', { part: args.part });
    const level = part.levels.find((l) => l.lx === args.lx && l.ly === args.ly);
    if (!level) throw new ExrError('invalid', `part has no level (${args.lx}, ${args.ly})`, { part: args.part });
    const frame: Box2i = {
      xMin: part.dataWindow.xMin,
      yMin: part.dataWindow.yMin,
      xMax: part.dataWindow.xMin + level.widthPx - 1,
      yMax: part.dataWindow.yMin + level.heightPx - 1,
    };
    const wanted = args.channels ? new Set(args.channels) : null;
    for (const name of wanted ?? []) {
      if (!part.channels.some((c) => c.name === name)) throw new ExrError('invalid', `part has no channel "${name}"`, { part: args.part });
    }
    const selected = part.channels.filter((c) => !wanted || wanted.has(c.name));
    return { result: levelLayout(frame, selected, part.isTiled ? part.tiles!.ySizePx : part.linesPerChunk), transfer: [] };
  } finally {
    source.close();
  }
}

export interface BandJobArgs extends LayoutJobArgs {
  frame: Box2i;
  region: Box2i;
  /** One SharedArrayBuffer per selected channel, laid out over `frame`. */
  planes: SharedArrayBuffer[];
}

/** Decodes rows `region` of a level straight into shared planes: one band of a parallel decode. */
function bandJob(args: BandJobArgs, ctx: JobContext): JobOutput<StageTimings> {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const part = reader.part(args.part);
    const wanted = args.channels ? new Set(args.channels) : null;
    const selected = part.channels.filter((c) => !wanted || wanted.has(c.name));
    const planes = selected.map((c, i) => {
      const buffer = args.planes[i]!;
      return c.pixelType === 'half' ? new Uint16Array(buffer) : c.pixelType === 'float' ? new Float32Array(buffer) : new Uint32Array(buffer);
    });
    const image = reader.decode({
      part: args.part,
      lx: args.lx,
      ly: args.ly,
      region: args.region,
      ...(args.channels ? { channels: args.channels } : {}),
      into: { frame: args.frame, planes },
      signal: ctx.signal,
    });
    image.timings.readMs = source.stats.readMs;
    image.timings.bytesRead = source.stats.bytesRead;
    return { result: image.timings, transfer: [] };
  } finally {
    source.close();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any, ctx: JobContext) => JobOutput<unknown> | Promise<JobOutput<unknown>>;

/** Job kinds by name; the host registers more (thumbnails, headers) in its own modules' entries here. */
export const JOB_HANDLERS: Record<string, Handler> = {
  decode: decodeJob,
  decodeAll: decodeAllJob,
  thumbnail: thumbnailJob,
  deepFlat: deepFlatJob,
  layout: layoutJob,
  band: bandJob,
};

export interface JobTypes {
  decode: { args: DecodeJobArgs; result: DecodedImage };
  decodeAll: { args: DecodeAllJobArgs; result: DecodeAllResult };
  thumbnail: { args: ThumbnailJobArgs; result: ThumbnailJobResult };
  deepFlat: { args: DeepFlatJobArgs; result: DeepFlatJobResult };
  layout: { args: LayoutJobArgs; result: LayoutResult };
  band: { args: BandJobArgs; result: StageTimings };
}
