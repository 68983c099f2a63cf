// What a decode worker can do: each task kind is a function from arguments to a result and the buffers to transfer.

import type { Box2i, StageTimings } from '../../codec/index.js';
import type { AbortSignalLike } from '../../codec/index.js';
import { deepFlatTask, type DeepFlatTaskArgs, type DeepFlatTaskResult } from './deep-task.js';
import { frameSamples, planeView } from './layout.js';
import { withReader } from './reader-cache.js';
import type { HeaderHandoff } from './header-handoff.js';
import { toneMapTask, type ToneMapTaskArgs, type ToneMapTaskResult } from '../thumbnails/tone-map-task.js';
import { thumbnailBand, thumbnailJob, type ThumbnailBandArgs, type ThumbnailBandResult, type ThumbnailJobArgs, type ThumbnailJobResult } from '../thumbnails/job.js';

export interface TaskContext {
  signal: AbortSignalLike;
}

export interface TaskOutput<R> {
  result: R;
  /** Buffers handed to the main thread without copying. */
  transfer: ArrayBuffer[];
}

export interface BandTaskArgs {
  path: string;
  part: number;
  lx: number;
  ly: number;
  /** Selected channels (header order is kept); null for every channel. */
  channels: string[] | null;
  /** The whole level the planes are laid out over, and the rows of it this band decodes. */
  frame: Box2i;
  region: Box2i;
  /** One SharedArrayBuffer per selected channel, laid out over `frame` from its first byte (it may be longer). */
  planes: SharedArrayBuffer[];
  /** The level's chunk store (its first bytes: it may be longer): filled while decoding ('fill'), or unpacked from without reading the file ('read'). */
  chunkStore?: { buffer: SharedArrayBuffer; mode: 'fill' | 'read' };
  /** The main thread's parse of the file, where it has one: the worker then does not parse it (header-handoff.ts). */
  handoff?: HeaderHandoff;
}

/** Decodes rows `region` of a level straight into the shared planes: one band of a level decode. */
function bandTask(args: BandTaskArgs, ctx: TaskContext): TaskOutput<StageTimings> {
  const { value: timings, read } = withReader(args.path, (reader) => {
    const part = reader.part(args.part);
    const wanted = args.channels ? new Set(args.channels) : null;
    const selected = part.channels.filter((c) => !wanted || wanted.has(c.name));
    const planes = selected.map((c, i) => planeView(c.pixelType, args.planes[i]!, frameSamples(c, args.frame)));
    return reader.decode({
      part: args.part,
      lx: args.lx,
      ly: args.ly,
      region: args.region,
      ...(args.channels ? { channels: args.channels } : {}),
      into: { frame: args.frame, planes },
      ...(args.chunkStore ? { chunkStore: { bytes: storeView(args.chunkStore.buffer, reader.chunkStoreLayout(args.part, args.lx, args.ly).totalBytes), mode: args.chunkStore.mode } } : {}),
      signal: ctx.signal,
    }).timings;
  }, args.handoff);
  return { result: { ...timings, readMs: read.readMs, bytesRead: read.bytesRead }, transfer: [] };
}

/** The store's first `byteLength` bytes; all of it when shorter (the reader then refuses it, saying so). */
function storeView(buffer: SharedArrayBuffer, byteLength: number): Uint8Array {
  return new Uint8Array(buffer, 0, Math.min(byteLength, buffer.byteLength));
}

/** Sums one band of a thumbnail's level into its bins (see thumbnails/on-pool.ts). */
function thumbnailBandTask(args: ThumbnailBandArgs, ctx: TaskContext): TaskOutput<ThumbnailBandResult> {
  const { value, read } = withReader(args.path, (reader) => thumbnailBand(reader, args, ctx.signal), args.handoff);
  value.timings.readMs = read.readMs;
  value.timings.bytesRead = read.bytesRead;
  // the sums are in the job's shared buffer; the last band hands over the thumbnail it made
  const out = value.output;
  return { result: value, transfer: out ? [out.rgbaHalf, ...(out.rgba8 ? [out.rgba8] : []), ...(out.png ? [out.png] : [])] : [] };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any, ctx: TaskContext) => TaskOutput<unknown> | Promise<TaskOutput<unknown>>;

/** Task kinds by name. */
export const TASK_HANDLERS: Record<string, Handler> = {
  /** Nothing: answers once the worker has loaded (DecodePool.start). */
  ping: () => ({ result: null, transfer: [] }),
  band: bandTask,
  thumbnail: thumbnailJob,
  thumbnailBand: thumbnailBandTask,
  deepFlat: deepFlatTask,
  toneMap: toneMapTask,
};

export interface TaskTypes {
  ping: { args: null; result: null };
  band: { args: BandTaskArgs; result: StageTimings };
  thumbnail: { args: ThumbnailJobArgs; result: ThumbnailJobResult };
  thumbnailBand: { args: ThumbnailBandArgs; result: ThumbnailBandResult };
  deepFlat: { args: DeepFlatTaskArgs; result: DeepFlatTaskResult };
  toneMap: { args: ToneMapTaskArgs; result: ToneMapTaskResult };
}
