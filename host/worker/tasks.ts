// The task table: every kind a decode worker runs, by name — the one place that knows them all (the pool runs any).

import { bandTask, type BandResult, type BandTaskArgs } from '../decode/band-task.js';
import { deepFlatTask, type DeepFlatTaskArgs, type DeepFlatTaskResult } from '../decode/deep-task.js';
import { deepSamplesTask, type DeepSamplesTaskArgs, type DeepSamplesTaskResult } from '../decode/deep-samples-task.js';
import type { DecodePool } from '../decode/pool.js';
import { reduceTask, type ReduceResult, type ReduceTaskArgs } from '../decode/reduce-task.js';
import { statsTask, type StatsTaskArgs, type StatsTaskResult } from '../decode/stats-task.js';
import type { TaskHandler } from '../decode/task-handler.js';
import { thumbnailBandTask } from '../thumbnails/band-task.js';
import { deepThumbnailTask, type DeepThumbnailArgs } from '../thumbnails/deep-thumbnail.js';
import {
  thumbnailJob,
  type ThumbnailBandArgs,
  type ThumbnailBandResult,
  type ThumbnailJobArgs,
  type ThumbnailJobResult,
} from '../thumbnails/job.js';
import { toneMapTask, type ToneMapTaskArgs, type ToneMapTaskResult } from '../thumbnails/tone-map-task.js';

/** Task kinds by name. */
export const TASK_HANDLERS: Record<string, TaskHandler> = {
  /** Nothing: answers once the worker has loaded (DecodePool.start). */
  ping: () => ({ result: null, transfer: [] }),
  band: bandTask,
  reduce: reduceTask,
  stats: statsTask,
  thumbnail: thumbnailJob,
  thumbnailBand: thumbnailBandTask,
  deepFlat: deepFlatTask,
  deepSamples: deepSamplesTask,
  deepThumbnail: deepThumbnailTask,
  toneMap: toneMapTask,
};

/** A type, not an interface: a pool of these kinds must pass where any pool is asked for (an index signature). */
export type TaskTypes = {
  ping: { args: null; result: null };
  band: { args: BandTaskArgs; result: BandResult };
  reduce: { args: ReduceTaskArgs; result: ReduceResult };
  stats: { args: StatsTaskArgs; result: StatsTaskResult };
  thumbnail: { args: ThumbnailJobArgs; result: ThumbnailJobResult };
  thumbnailBand: { args: ThumbnailBandArgs; result: ThumbnailBandResult };
  deepFlat: { args: DeepFlatTaskArgs; result: DeepFlatTaskResult };
  deepSamples: { args: DeepSamplesTaskArgs; result: DeepSamplesTaskResult };
  deepThumbnail: { args: DeepThumbnailArgs; result: ThumbnailJobResult };
  toneMap: { args: ToneMapTaskArgs; result: ToneMapTaskResult };
};

/** A pool whose `run` knows the arguments and result of every kind in the table. */
export type WorkerPool = DecodePool<TaskTypes>;
