// One pass over level 0 that makes reduced levels of it (several factors at once) on the pool: tasks of whole chunks
// that each decode their rows and box-filter them in the worker (reduce-task.ts), into shared planes of the reduced
// levels. The main thread hands out tasks and counts replies; the host holds the reduced levels, never level 0.
import { sampleCount, type StageTimings } from '../../codec/index.js';
import { bandsMissing } from './image-decode.js';
import { lcm, planeView, type LevelLayout, type PlaneLayout } from './layout.js';
import type { DecodePool, JobHandle, JobPlan } from './pool.js';
import type { ReduceResult, ReduceTaskArgs } from './reduce-task.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';
import type { MissingChunks, PlaneData } from '../../codec/index.js';

/** Level 0 bytes a task decodes (a worker's scratch): enough to make a message each way cheap beside the work. */
const TASK_BYTES = 24 << 20;

export interface ReducedPassRequest {
  path: string;
  /** Level 0 and the selected channels' planes; a promise while the header is read. */
  layout: LevelLayout | Promise<LevelLayout>;
  channels: string[] | null;
  /** Powers of two, finest first, each a multiple of the one before. */
  factors: readonly number[];
  priority?: number;
  handoff?: HeaderHandoff | null;
  tolerant?: boolean;
}

export interface ReducedPlanes {
  factor: number;
  /** The level's size: ⌈level 0's / factor⌉. */
  widthPx: number;
  heightPx: number;
  planes: (PlaneLayout & { data: PlaneData })[];
}

export interface ReducedPass {
  /** One per factor, in the request's order. */
  levels: ReducedPlanes[];
  timings: StageTimings & { filterMs: number };
  missing: MissingChunks | null;
  tasks: number;
}

/** Rows of level 0 per task: whole chunks, a whole number of the coarsest factor's boxes in every plane. */
export function taskRowsFor(layout: Pick<LevelLayout, 'rowsPerChunk' | 'rowAlignment' | 'rowBytes'>, maxFactor: number): number {
  const unit = lcm(layout.rowsPerChunk, layout.rowAlignment * maxFactor);
  return unit * Math.max(1, Math.floor(TASK_BYTES / Math.max(1, layout.rowBytes) / unit));
}

export function decodeReducedPass(pool: DecodePool, request: ReducedPassRequest): JobHandle<ReducedPass> {
  const plan =
    request.layout instanceof Promise ? request.layout.then((layout) => passPlan(request, layout)) : passPlan(request, request.layout);
  return pool.submitJob<ReducedPass>(plan, request.priority ?? 0);
}

function passPlan(request: ReducedPassRequest, layout: LevelLayout): JobPlan<ReducedPass> {
  const { frame } = layout;
  const shapes = request.factors.map((factor) => ({
    factor,
    widthPx: Math.ceil((frame.xMax - frame.xMin + 1) / factor),
    heightPx: Math.ceil((frame.yMax - frame.yMin + 1) / factor),
    planes: layout.planes.map((p) => ({
      ...p,
      widthSamples: Math.ceil(sampleCount(p.xSampling, frame.xMin, frame.xMax) / factor),
      heightSamples: Math.ceil(sampleCount(p.ySampling, frame.yMin, frame.yMax) / factor),
    })),
  }));
  let buffers: SharedArrayBuffer[][] = [];
  const rows = taskRowsFor(layout, Math.max(...request.factors));
  return {
    tasks: () => {
      // taken as the first task starts: the reduced levels, exactly their size (they go to the page as they are)
      buffers = shapes.map((s) => s.planes.map((p) => new SharedArrayBuffer(p.widthSamples * p.heightSamples * bytesOf(p))));
      const tasks = [];
      for (let y = frame.yMin; y <= frame.yMax; y += rows) {
        const args: ReduceTaskArgs = {
          path: request.path,
          part: layout.part,
          channels: request.channels,
          region: { xMin: frame.xMin, xMax: frame.xMax, yMin: y, yMax: Math.min(frame.yMax, y + rows - 1) },
          frameYMin: frame.yMin,
          targets: shapes.map((s, i) => ({ factor: s.factor, planes: buffers[i]! })),
          ...(request.handoff ? { handoff: request.handoff } : {}),
          ...(request.tolerant ? { tolerant: true } : {}),
        };
        tasks.push({ kind: 'reduce', args });
      }
      return tasks;
    },
    combine: (results) => {
      const all = results as ReduceResult[];
      const timings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0, filterMs: 0 };
      for (const r of all) for (const k of Object.keys(timings) as (keyof typeof timings)[]) timings[k] += r[k];
      return {
        levels: shapes.map((s, i) => ({
          ...s,
          planes: s.planes.map((p, c) => ({ ...p, data: planeView(p.pixelType, buffers[i]![c]!, p.widthSamples * p.heightSamples) })),
        })),
        timings,
        missing: bandsMissing(all),
        tasks: all.length,
      };
    },
  };
}

const bytesOf = (p: Pick<PlaneLayout, 'pixelType'>): number => (p.pixelType === 'half' ? 2 : 4);
