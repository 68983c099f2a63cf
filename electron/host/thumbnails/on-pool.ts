// A thumbnail made by every free worker: planned from the header here, summed in bands of whole chunks on the pool,
// added up and divided once the bands are in. A preview asked for meanwhile waits at most for one band, not a whole file.

import { bandCountFor, levelLayout, planBands } from '../decode/layout.js';
import { PlaneMemory } from '../decode/plane-memory.js';
import type { DecodePool, JobHandle } from '../decode/pool.js';
import { readHeaderParts } from '../library/summary.js';
import { bandBinRows } from './binned-decode.js';
import { channelsOf } from './channels.js';
import { finishThumbnail, planThumbnail, type ThumbnailBandArgs, type ThumbnailBandResult, type ThumbnailJobResult } from './job.js';

/**
 * The sums of thumbnails being made: one shared buffer a job (its bands' sums, then the whole thumbnail's), handed back
 * once the job is done and reused by the next of its size. Arrays made fresh for every band cost more than summing:
 * 150-200 ms of a 20-file folder's 520-590 ms of resizing on 2 workers, first touches of new memory.
 */
const sumsMemory = new PlaneMemory({ keepBytes: 64 << 20, minBytes: 0 });

export function thumbnailOnPool(pool: DecodePool, path: string, longSidePx: number, priority: number): JobHandle<ThumbnailJobResult> {
  const planned = readHeaderParts(path).then((parts) => {
    const plan = planThumbnail(parts, longSidePx);
    const channels = channelsOf(plan.choice);
    const layout = levelLayout(plan.part, plan.level.lx, plan.level.ly, channels);
    const wholeLength = plan.widthPx * plan.heightPx;
    let buffer: SharedArrayBuffer | null = null;
    return {
      // planned as the job's first task is taken: the bands fit the jobs they will share the workers with
      tasks: () => {
        const bands = planBands(layout, bandCountFor(layout, pool.size, pool.jobsAsUrgentAs(priority) - 1)).map((rows) => {
          const { tyMin, tyMax } = bandBinRows(plan.part, plan.level, plan.heightPx, rows);
          return { rows, length: (tyMax - tyMin + 1) * plan.widthPx };
        });
        // the whole thumbnail's sums first, then each band's, channel by channel (Float64)
        let elements = channels.length * wholeLength;
        const offsets = bands.map((band) => {
          const at = elements;
          elements += channels.length * band.length;
          return at;
        });
        const sums = (buffer = sumsMemory.take(elements * 8));
        return bands.map(({ rows, length }, b) => {
          const args: ThumbnailBandArgs = {
            path,
            part: plan.part.index,
            lx: plan.level.lx,
            ly: plan.level.ly,
            channels,
            widthPx: plan.widthPx,
            heightPx: plan.heightPx,
            rows,
            sums: { buffer: sums, byteOffset: offsets[b]! * 8, length },
          };
          return { kind: 'thumbnailBand', args };
        });
      },
      combine: (results: unknown[]) => {
        const sums = buffer!;
        const whole = channels.map((_, c) => new Float64Array(sums, c * wholeLength * 8, wholeLength));
        const result = finishThumbnail(plan, results as ThumbnailBandResult[], whole);
        // every band is in and finishThumbnail has read them: nothing refers to the buffer now (a failed job's is
        // never handed back, as its other bands may still be writing)
        sumsMemory.give(sums);
        return result;
      },
    };
  });
  return pool.submitJob(planned, priority);
}
