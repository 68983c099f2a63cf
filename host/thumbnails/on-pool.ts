// A thumbnail made by every free worker: planned from the header here, summed in bands of whole chunks on the pool; the
// last band in adds them up and makes the half RGBA (band-sums.ts), and the 8-bit RGBA through a view when asked. A
// preview asked for meanwhile waits at most for the bands running, not a whole file. A file of deep parts only is
// flattened in one task (deep-thumbnail.ts).

import { bandCountFor, levelLayout, planBands } from '../decode/layout.js';
import { PlaneMemory } from '../decode/plane-memory.js';
import type { DecodePool, JobHandle, JobPlan } from '../decode/pool.js';
import type { PartInfo } from '../../codec/index.js';
import { readHeader } from '../headers/summary.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';
import { chunksMissing, layoutSums, resetCounters, type ThumbnailSumsLayout } from './band-sums.js';
import type { ToneMapView } from './tone-map.js';
import { bandBinRows } from './binned-decode.js';
import { channelsOf } from './channels.js';
import type { ThumbnailFiles } from './files.js';
import { makeThumbnail, type ThumbnailOutputs } from './compose.js';
import { deepThumbnailPart, type DeepThumbnailArgs } from './deep-thumbnail.js';
import {
  planThumbnail,
  thumbnailResult,
  type ThumbnailBandArgs,
  type ThumbnailBandResult,
  type ThumbnailJobResult,
  type ThumbnailPlan,
  type ChunksThere,
} from './job.js';

/**
 * The shared buffers of thumbnails being made, handed back once a job is done and reused by the next of its size.
 * Arrays made fresh for every band cost more than the summing, in first touches of new memory.
 */
const sumsMemory = new PlaneMemory({ keepBytes: 64 << 20, minBytes: 0 });

/**
 * A sums buffer's size, rounded up to a whole MiB: the band slots' size follows the band count, which follows the
 * queue, so exact sizes seldom matched and nearly every job took fresh memory (first touches in the workers: ~40% more
 * resizing time than with reused buffers on 2 cores). Bytes past the layout's are never touched.
 */
export function sumsBufferBytes(layoutBytes: number): number {
  return Math.ceil(layoutBytes / (1 << 20)) * (1 << 20);
}

export interface ThumbnailJobOptions {
  /** The file's parts, when already parsed (the host's header cache): the job is planned now, else once they are read. */
  headers?: PartInfo[] | Promise<PartInfo[]>;
  /** With `headers`: the main thread's parse of the file for the workers (header-handoff.ts), where it has one. */
  handoff?: HeaderHandoff | null;
  /** Also tone-map the thumbnail through this view, in the worker that finishes it (the result's rgba8). */
  view?: ToneMapView;
  /** And encode that as a PNG there (the result's png; none without the native kernels). */
  png?: boolean;
  /** Files that worker writes once the thumbnail is made (the result's `written` says how each went). */
  files?: ThumbnailFiles;
  /** A file still being written: the chunks that are there (its MIP level is used only once whole: job.ts chooseLevel). */
  there?: ChunksThere;
}

export function thumbnailOnPool(
  pool: DecodePool,
  path: string,
  longSidePx: number,
  priority: number,
  options: ThumbnailJobOptions = {},
): JobHandle<ThumbnailJobResult> {
  // what the worker that finishes the thumbnail makes of it besides its half RGBA (a PNG needs the view's 8-bit RGBA)
  const outputs: ThumbnailOutputs = {
    ...(options.view ? { view: options.view } : {}),
    ...(options.view && options.png ? { png: true } : {}),
    ...(options.files ? { files: options.files } : {}),
  };
  const planOf = (parts: PartInfo[]): JobPlan<ThumbnailJobResult> => {
    const deepPart = deepThumbnailPart(parts);
    if (deepPart) {
      const args: DeepThumbnailArgs = { path, part: deepPart.index, longSidePx, ...outputs };
      return { tasks: () => [{ kind: 'deepThumbnail', args }], combine: (results) => results[0] as ThumbnailJobResult };
    }
    const plan = planThumbnail(parts, longSidePx, options.there);
    const channels = channelsOf(plan.choice);
    const layout = levelLayout(plan.part, plan.level.lx, plan.level.ly, channels);
    let shared: { buffer: SharedArrayBuffer; layout: ThumbnailSumsLayout } | null = null;
    return {
      // planned as the job's first task is taken: the bands fit the jobs they will share the workers with
      tasks: () => {
        const bands = planBands(layout, bandCountFor(layout, pool.size, pool.jobsAsUrgentAs(priority) - 1));
        const binRows = bands.map((rows) => bandBinRows(plan.part, plan.level, plan.heightPx, rows));
        const sumsLayout = layoutSums(channels.length, plan.widthPx, plan.heightPx, binRows);
        const buffer = sumsMemory.take(sumsBufferBytes(sumsLayout.byteLength));
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
            ...outputs,
            ...(handoff ? { handoff } : {}),
          };
          return { kind: 'thumbnailBand', args };
        });
      },
      combine: (results: unknown[]) => {
        const { buffer, layout: sumsLayout } = shared!;
        const result = thumbnailFromShared(plan, channels, buffer, sumsLayout, results as ThumbnailBandResult[], outputs);
        // every band is in and the thumbnail made from the slots: nothing refers to the buffer now (a failed job's is
        // never handed back, as its other bands may still be writing)
        sumsMemory.give(buffer);
        return result;
      },
    };
  };
  // the handoff comes with the header: the cache's, or the one read here (the plan's tasks are made once it is in)
  let handoff = options.headers ? (options.handoff ?? null) : null;
  const parts =
    options.headers ??
    readHeader(path).then((header) => {
      handoff = header.handoff;
      return header.parts;
    });
  return pool.submitJob(Array.isArray(parts) ? planOf(parts) : parts.then(planOf), priority);
}

/**
 * The job's result once every band is in: the thumbnail the last band made, or, when that band's reply was lost (its
 * worker died after counting it in; its band then runs again and counts no more), made here from the bands' slots.
 */
export function thumbnailFromShared(
  plan: ThumbnailPlan,
  channels: readonly string[],
  buffer: SharedArrayBuffer,
  layout: ThumbnailSumsLayout,
  bands: readonly ThumbnailBandResult[],
  outputs: ThumbnailOutputs = {},
): ThumbnailJobResult {
  const output = bands.find((b) => b.output)?.output;
  const chunks = chunksMissing(buffer, layout);
  const reason = bands.find((b) => b.missing)?.missing?.reason ?? 'some chunks could not be read';
  const missing = chunks > 0 ? { chunksRead: layout.chunksTotal - chunks, chunksTotal: layout.chunksTotal, reason } : undefined;
  return thumbnailResult(
    plan,
    bands,
    output
      ? { ...output, finishMs: 0, toneMapMs: 0, encodeMs: 0, writeMs: 0 }
      : makeThumbnail({ ...plan, names: channels }, buffer, layout, outputs, undefined, missing?.reason),
    missing,
  );
}
