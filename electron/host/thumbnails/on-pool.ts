// A thumbnail made by every free worker: planned from the header here, summed in bands of whole chunks on the pool,
// added up and divided once the bands are in. A preview asked for meanwhile waits at most for one band, not a whole file.

import { bandCountFor, levelLayout, planBands } from '../decode/layout.js';
import type { DecodePool, JobHandle } from '../decode/pool.js';
import { readHeaderParts } from '../library/summary.js';
import { channelsOf } from './channels.js';
import { finishThumbnail, planThumbnail, type ThumbnailBandArgs, type ThumbnailBandResult, type ThumbnailJobResult } from './job.js';

export function thumbnailOnPool(pool: DecodePool, path: string, longSidePx: number, priority: number): JobHandle<ThumbnailJobResult> {
  const planned = readHeaderParts(path).then((parts) => {
    const plan = planThumbnail(parts, longSidePx);
    const channels = channelsOf(plan.choice);
    const layout = levelLayout(plan.part, plan.level.lx, plan.level.ly, channels);
    return {
      // planned as the job's first task is taken: the bands fit the jobs they will share the workers with
      tasks: () =>
        planBands(layout, bandCountFor(layout, pool.size, pool.jobsAsUrgentAs(priority) - 1)).map((rows) => {
          const args: ThumbnailBandArgs = { path, part: plan.part.index, lx: plan.level.lx, ly: plan.level.ly, channels, widthPx: plan.widthPx, heightPx: plan.heightPx, rows };
          return { kind: 'thumbnailBand', args };
        }),
      combine: (results: unknown[]) => finishThumbnail(plan, results as ThumbnailBandResult[]),
    };
  });
  return pool.submitJob(planned, priority);
}
