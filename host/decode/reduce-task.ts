// The reduce task: rows of level 0 decoded in a worker into its own scratch planes and box-filtered there, straight
// into the reduced levels the main thread shares with it. Level 0 is never held whole, and no thread but the workers
// touches its samples.
import { sampleCount, type Box2i } from '../../codec/index.js';
import type { BandResult } from './band-task.js';
import { boxFilterRows } from './box-filter.js';
import { planeView } from './layout.js';
import { withReader } from './reader-cache.js';
import { scratchFor } from './worker-scratch.js';
import type { TaskContext, TaskOutput } from './task-handler.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface ReduceTaskArgs {
  path: string;
  part: number;
  /** Selected channels (header order is kept); null for every channel. */
  channels: string[] | null;
  /** The rows of level 0 this task reduces (whole width): they start on a multiple of every factor, from `frameYMin`. */
  region: Box2i;
  /** Level 0's first row: reduced rows count from it. */
  frameYMin: number;
  /** The reduced levels, finest first: each factor a multiple of the one before, one shared plane per selected channel. */
  targets: { factor: number; planes: SharedArrayBuffer[] }[];
  handoff?: HeaderHandoff;
  /** Decode every chunk that can be, listing the others (their samples zeroed), rather than fail at the first. */
  tolerant?: boolean;
}

export type ReduceResult = BandResult & { filterMs: number };

/** Decodes the task's rows of level 0 and box-filters them into every target's planes. */
export function reduceTask(args: ReduceTaskArgs, ctx: TaskContext): TaskOutput<ReduceResult> {
  const { region } = args;
  const { value, read } = withReader(
    args.path,
    (reader) => {
      const part = reader.part(args.part);
      const wanted = args.channels ? new Set(args.channels) : null;
      const selected = part.channels.filter((c) => !wanted || wanted.has(c.name));
      const shapes = selected.map((c) => ({
        pixelType: c.pixelType,
        widthSamples: sampleCount(c.xSampling, region.xMin, region.xMax),
        heightSamples: sampleCount(c.ySampling, region.yMin, region.yMax),
        // samples of the channel above the task's rows: a multiple of every factor
        rowsBefore: (region.yMin - args.frameYMin) / c.ySampling,
        reducedWidth: (factor: number) => Math.ceil(sampleCount(c.xSampling, region.xMin, region.xMax) / factor),
      }));
      const planes = shapes.map((s, i) => {
        const samples = s.widthSamples * s.heightSamples;
        const bytes = s.pixelType === 'half' ? 2 : 4;
        return planeView(s.pixelType, scratchFor(i, samples * bytes), samples);
      });
      const decoded = reader.decode({
        part: args.part,
        lx: 0,
        ly: 0,
        region,
        ...(args.channels ? { channels: args.channels } : {}),
        into: { frame: region, planes },
        signal: ctx.signal,
        ...(args.tolerant ? { tolerant: true } : {}),
      });
      const t0 = performance.now();
      shapes.forEach((s, i) => {
        const targets = args.targets.map((t) => {
          const outW = s.reducedWidth(t.factor);
          const firstRow = s.rowsBefore / t.factor;
          const rows = Math.ceil(s.heightSamples / t.factor);
          // a view over the rows this task writes, so a wrong size fails here rather than writing elsewhere
          const data = planeView(s.pixelType, t.planes[i]!, (firstRow + rows) * outW);
          return { factor: t.factor, data, firstRow };
        });
        boxFilterRows(s.pixelType, planes[i]!, s.widthSamples, s.heightSamples, targets);
      });
      return { ...decoded, filterMs: performance.now() - t0 };
    },
    args.handoff,
  );
  const { timings, missing, filterMs } = value;
  return {
    result: { ...timings, readMs: read.readMs, bytesRead: read.bytesRead, filterMs, ...(missing ? { missing } : {}) },
    transfer: [],
  };
}
