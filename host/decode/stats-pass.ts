// One pass over level 0 (or a rectangle of it) that measures it on the pool: tasks of whole chunks' rows, each decoded
// and measured in its worker (stats-task.ts); only per-channel figures and histogram counts come back, so the host
// holds no more of the level than the workers' scratch, whatever its size.
import type { Box2i, MissingChunks, StageTimings } from '../../codec/index.js';
import { HIST_BINS } from '../../shaders/display-params.js';
import { combineStats } from '../../shaders/stats-regions.js';
import { bandsMissing } from './image-decode.js';
import type { LevelLayout } from './layout.js';
import type { DecodePool, JobHandle, JobPlan } from './pool.js';
import { emptyChannelStats, type ChannelStats } from './sample-stats.js';
import { taskRowsFor } from './reduced-pass.js';
import { intersectBox, type StatsTaskArgs, type StatsTaskResult } from './stats-task.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface StatsPassRequest {
  path: string;
  /** Level 0 and the measured channels' planes; a promise while the header is read. */
  layout: LevelLayout | Promise<LevelLayout>;
  channels: string[];
  /** The pixels measured (absolute, inclusive); null: all of level 0. */
  region: Box2i | null;
  histogram?: [string | null, string | null, string | null];
  priority?: number;
  handoff?: HeaderHandoff | null;
}

export interface StatsPass {
  region: Box2i;
  /** Per measured channel, header order. */
  channels: { name: string; stats: ChannelStats }[];
  histogram: Uint32Array | null;
  missingPx: number;
  missing: MissingChunks | null;
  timings: StageTimings & { statsMs: number };
  tasks: number;
}

export function measureLevel(pool: DecodePool, request: StatsPassRequest): JobHandle<StatsPass> {
  const plan = request.layout instanceof Promise ? request.layout.then((l) => passPlan(request, l)) : passPlan(request, request.layout);
  return pool.submitJob<StatsPass>(plan, request.priority ?? 0);
}

/** The rows of `region` cut into tasks on chunk boundaries (counted from level 0's first row), as the reduced pass cuts them. */
export function statsTaskRegions(layout: LevelLayout, region: Box2i): Box2i[] {
  const { frame } = layout;
  // a task's scratch holds the region's columns only
  const widthShare = (region.xMax - region.xMin + 1) / (frame.xMax - frame.xMin + 1);
  const rows = taskRowsFor({ ...layout, rowBytes: layout.rowBytes * widthShare }, 1);
  const out: Box2i[] = [];
  for (let y = region.yMin; y <= region.yMax;) {
    const next = frame.yMin + (Math.floor((y - frame.yMin) / rows) + 1) * rows;
    const yMax = Math.min(region.yMax, next - 1);
    out.push({ xMin: region.xMin, xMax: region.xMax, yMin: y, yMax });
    y = yMax + 1;
  }
  return out;
}

function passPlan(request: StatsPassRequest, layout: LevelLayout): JobPlan<StatsPass> {
  const { frame } = layout;
  const region = intersectBox(request.region ?? frame, frame);
  const names = layout.planes.map((p) => p.name);
  return {
    tasks: () => {
      // the histogram counts pixels: a subsampled channel has no sample at each
      for (const name of request.histogram ?? []) {
        const plane = layout.planes.find((p) => p.name === name);
        if (plane && (plane.xSampling !== 1 || plane.ySampling !== 1))
          throw new Error(`${request.path}: channel "${name}" is subsampled, so it cannot be counted into a histogram per pixel`);
      }
      return (region.xMin <= region.xMax && region.yMin <= region.yMax ? statsTaskRegions(layout, region) : []).map((r) => {
        const args: StatsTaskArgs = {
          path: request.path,
          part: layout.part,
          channels: request.channels,
          region: r,
          ...(request.histogram ? { histogram: request.histogram } : {}),
          ...(request.handoff ? { handoff: request.handoff } : {}),
        };
        return { kind: 'stats', args };
      });
    },
    combine: (results) => {
      const all = results as StatsTaskResult[];
      const timings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0, statsMs: 0 };
      for (const r of all) for (const k of Object.keys(timings) as (keyof typeof timings)[]) timings[k] += r[k];
      const channels = names.map((name) => ({
        name,
        stats: all.reduce(
          (s, r) => combineStats(s, r.stats.find((c) => c.name === name)?.stats ?? emptyChannelStats()),
          emptyChannelStats(),
        ),
      }));
      let histogram: Uint32Array | null = null;
      if (request.histogram) {
        histogram = new Uint32Array(4 * HIST_BINS);
        for (const r of all) if (r.histogram) for (let i = 0; i < histogram.length; i++) histogram[i]! += r.histogram[i]!;
      }
      return {
        region,
        channels,
        histogram,
        missingPx: all.reduce((n, r) => n + r.missingPx, 0),
        missing: bandsMissing(all),
        timings,
        tasks: all.length,
      };
    },
  };
}
