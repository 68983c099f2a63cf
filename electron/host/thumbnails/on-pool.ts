// A thumbnail made by every free worker: planned from the header here, summed in bands of whole chunks on the pool; the
// last band in adds them up and makes the half RGBA (band-sums.ts). A preview asked for meanwhile waits at most for one
// band, not a whole file.

import { bandCountFor, levelLayout, planBands } from '../decode/layout.js';
import { PlaneMemory } from '../decode/plane-memory.js';
import type { DecodePool, JobHandle } from '../decode/pool.js';
import { readHeaderParts } from '../library/summary.js';
import { layoutSums, resetCounters, rgbaHalfOf, wasMade, type ThumbnailSumsLayout } from './band-sums.js';
import { bandBinRows } from './binned-decode.js';
import { channelsOf } from './channels.js';
import { finishInBuffer } from './compose.js';
import { planThumbnail, thumbnailResult, type ThumbnailBandArgs, type ThumbnailBandResult, type ThumbnailJobResult, type ThumbnailPlan } from './job.js';

/**
 * The shared buffers of thumbnails being made, handed back once a job is done and reused by the next of its size.
 * Arrays made fresh for every band cost more than summing: 150-200 ms of a 20-file folder's 520-590 ms of resizing on
 * 2 workers, first touches of new memory.
 */
const sumsMemory = new PlaneMemory({ keepBytes: 64 << 20, minBytes: 0 });

export function thumbnailOnPool(pool: DecodePool, path: string, longSidePx: number, priority: number): JobHandle<ThumbnailJobResult> {
  const planned = readHeaderParts(path).then((parts) => {
    const plan = planThumbnail(parts, longSidePx);
    const channels = channelsOf(plan.choice);
    const layout = levelLayout(plan.part, plan.level.lx, plan.level.ly, channels);
    let shared: { buffer: SharedArrayBuffer; layout: ThumbnailSumsLayout } | null = null;
    return {
      // planned as the job's first task is taken: the bands fit the jobs they will share the workers with
      tasks: () => {
        const bands = planBands(layout, bandCountFor(layout, pool.size, pool.jobsAsUrgentAs(priority) - 1));
        const sumsLayout = layoutSums(channels.length, plan.widthPx, plan.heightPx, bands.map((rows) => bandBinRows(plan.part, plan.level, plan.heightPx, rows)));
        const buffer = sumsMemory.take(sumsLayout.byteLength);
        resetCounters(buffer, sumsLayout);
        shared = { buffer, layout: sumsLayout };
        return bands.map((rows, band) => {
          const args: ThumbnailBandArgs = {
            path,
            part: plan.part.index,
            lx: plan.level.lx,
            ly: plan.level.ly,
            channels,
            widthPx: plan.widthPx,
            heightPx: plan.heightPx,
            rows,
            sums: { buffer, layout: sumsLayout, band, choice: plan.choice },
          };
          return { kind: 'thumbnailBand', args };
        });
      },
      combine: (results: unknown[]) => {
        const { buffer, layout: sumsLayout } = shared!;
        const result = thumbnailFromShared(plan, channels, buffer, sumsLayout, results as ThumbnailBandResult[]);
        // every band is in and the thumbnail copied out: nothing refers to the buffer now (a failed job's is never
        // handed back, as its other bands may still be writing)
        sumsMemory.give(buffer);
        return result;
      },
    };
  });
  return pool.submitJob(planned, priority);
}

/** The job's result once every band is in: the thumbnail the last band made, or, when that band's worker died before
 * it was done (its band then runs again and counts no more), made here from the bands' slots. */
export function thumbnailFromShared(plan: ThumbnailPlan, channels: readonly string[], buffer: SharedArrayBuffer, layout: ThumbnailSumsLayout, bands: readonly ThumbnailBandResult[]): ThumbnailJobResult {
  if (wasMade(buffer, layout)) return thumbnailResult(plan, bands, rgbaHalfOf(buffer, layout).slice().buffer, 0);
  const t0 = performance.now();
  const rgbaHalf = finishInBuffer({ ...plan, names: channels }, buffer, layout).slice().buffer;
  return thumbnailResult(plan, bands, rgbaHalf, performance.now() - t0);
}
