// What a decode worker can do: each job kind is a pure function from arguments to a result and the buffers to transfer.

import { ExrReader, openFileSource, type DecodedImage, type StageTimings } from '../exr/index.js';
import type { AbortSignalLike } from '../exr/reader.js';
import { thumbnailJob, type ThumbnailJobArgs, type ThumbnailJobResult } from './thumbnail-job.js';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any, ctx: JobContext) => JobOutput<unknown> | Promise<JobOutput<unknown>>;

/** Job kinds by name; the host registers more (thumbnails, headers) in its own modules' entries here. */
export const JOB_HANDLERS: Record<string, Handler> = {
  decode: decodeJob,
  decodeAll: decodeAllJob,
  thumbnail: thumbnailJob,
};

export interface JobTypes {
  decode: { args: DecodeJobArgs; result: DecodedImage };
  decodeAll: { args: DecodeAllJobArgs; result: DecodeAllResult };
  thumbnail: { args: ThumbnailJobArgs; result: ThumbnailJobResult };
}
