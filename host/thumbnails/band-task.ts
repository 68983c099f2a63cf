// The thumbnail band task: one band of a thumbnail's level summed into its bins in a worker (see on-pool.ts).

import { withReader } from '../decode/reader-cache.js';
import type { TaskContext, TaskOutput } from '../decode/task-handler.js';
import { thumbnailBand, type ThumbnailBandArgs, type ThumbnailBandResult } from './job.js';

/** Sums one band into the job's shared bins; the band that finishes the thumbnail hands it over. */
export function thumbnailBandTask(args: ThumbnailBandArgs, ctx: TaskContext): TaskOutput<ThumbnailBandResult> {
  const { value, read } = withReader(args.path, (reader) => thumbnailBand(reader, args, ctx.signal), args.handoff);
  value.timings.readMs = read.readMs;
  value.timings.bytesRead = read.bytesRead;
  // the sums are in the job's shared buffer; the last band hands over the thumbnail it made
  const out = value.output;
  return { result: value, transfer: out ? [out.rgbaHalf, ...(out.rgba8 ? [out.rgba8] : []), ...(out.png ? [out.png] : [])] : [] };
}
