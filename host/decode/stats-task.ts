// The statistics task: rows of level 0 decoded in a worker into its own scratch planes and measured there (figures per
// channel, and a histogram), so a level too large to hold is measured chunk by chunk and only the figures travel back.
import { PIXEL_TYPE_BYTES, sampleCount, type Box2i, type PlaneData } from '../../codec/index.js';
import { HIST_BINS } from '../../shaders/display-params.js';
import type { BandResult } from './band-task.js';
import { planeView } from './layout.js';
import { withReader } from './reader-cache.js';
import { scratchFor } from './worker-scratch.js';
import { binHalfCounts, ChannelMeter, countHistogram, type ChannelStats } from './sample-stats.js';
import type { TaskContext, TaskOutput } from './task-handler.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface StatsTaskArgs {
  path: string;
  part: number;
  /** The channels measured (the result lists them in header order). */
  channels: string[];
  /** The pixels of level 0 this task measures: whole chunks' rows, and the columns asked for. */
  region: Box2i;
  /** Channels counted as R, G, B into the histogram (null: 0); omitted: no histogram. Each must be full resolution. */
  histogram?: [string | null, string | null, string | null];
  handoff?: HeaderHandoff;
}

export type StatsTaskResult = BandResult & {
  /** Per measured channel, header order. */
  stats: { name: string; stats: ChannelStats }[];
  /** [luminance, R, G, B] × HIST_BINS counts, when asked for. */
  histogram: Uint32Array | null;
  /** Pixels of the region in chunks that could not be read: left out of every figure. */
  missingPx: number;
  statsMs: number;
};

/** Decodes the task's pixels of level 0 (tolerantly: a chunk that cannot be read is left out) and measures them. */
export function statsTask(args: StatsTaskArgs, ctx: TaskContext): TaskOutput<StatsTaskResult> {
  const { region } = args;
  const { value, read } = withReader(
    args.path,
    (reader) => {
      const part = reader.part(args.part);
      const wanted = new Set(args.channels);
      const selected = part.channels.filter((c) => wanted.has(c.name));
      const planes = selected.map((c, i) => {
        const samples = sampleCount(c.xSampling, region.xMin, region.xMax) * sampleCount(c.ySampling, region.yMin, region.yMax);
        return planeView(c.pixelType, scratchFor(i, samples * PIXEL_TYPE_BYTES[c.pixelType]), samples);
      });
      const decoded = reader.decode({
        part: args.part,
        lx: 0,
        ly: 0,
        region,
        channels: selected.map((c) => c.name),
        into: { frame: region, planes },
        signal: ctx.signal,
        tolerant: true,
      });
      const t0 = performance.now();
      const holes = (decoded.missing?.failures ?? []).map((f) => f.region);
      const meters = selected.map((c, i) => {
        const meter = new ChannelMeter();
        forEachRun(region, c.xSampling, c.ySampling, holes, (from, to) => meter.add(planes[i]!, from, to));
        return meter;
      });
      const stats = selected.map((c, i) => ({ name: c.name, stats: meters[i]!.result() }));
      let histogram: Uint32Array | null = null;
      if (args.histogram) {
        const at = args.histogram.map((name) => (name === null ? -1 : selected.findIndex((c) => c.name === name)));
        const rgb = at.map((i) => (i < 0 ? null : planes[i]!)) as [PlaneData | null, PlaneData | null, PlaneData | null];
        // a half channel's bins come from its meter's counts per bit pattern; the pixels are read for luminance only
        const counted = at.map((i) => (i < 0 ? null : meters[i]!.halfCounts));
        const out = new Uint32Array(4 * HIST_BINS);
        const binned = counted.map((c) => c !== null);
        forEachRun(region, 1, 1, holes, (from, to) => countHistogram(out, rgb, from, to, binned));
        counted.forEach((counts, k) => counts && binHalfCounts(out, (k + 1) * HIST_BINS, counts));
        histogram = out;
      }
      const missingPx = holes.reduce((n, h) => n + area(intersectBox(h, region)), 0);
      return { ...decoded, stats, histogram, missingPx, statsMs: performance.now() - t0 };
    },
    args.handoff,
  );
  const { timings, missing, stats, histogram, missingPx, statsMs } = value;
  return {
    result: {
      ...timings,
      readMs: read.readMs,
      bytesRead: read.bytesRead,
      stats,
      histogram,
      missingPx,
      statsMs,
      ...(missing ? { missing } : {}),
    },
    transfer: histogram ? [histogram.buffer as ArrayBuffer] : [],
  };
}

/**
 * Calls `run(from, to)` for each stretch of a plane's samples (laid out over `region` with this sampling) that lies
 * outside every hole: whole sample rows where no hole crosses them, else the pieces between the holes.
 */
export function forEachRun(
  region: Box2i,
  xSampling: number,
  ySampling: number,
  holes: readonly Box2i[],
  run: (from: number, to: number) => void,
): void {
  const width = sampleCount(xSampling, region.xMin, region.xMax);
  const height = sampleCount(ySampling, region.yMin, region.yMax);
  if (!width || !height) return;
  // the first sampled pixel each way: the smallest coordinate in the region that is a multiple of the sampling
  const x0 = Math.ceil(region.xMin / xSampling) * xSampling;
  const y0 = Math.ceil(region.yMin / ySampling) * ySampling;
  if (!holes.length) {
    run(0, width * height);
    return;
  }
  for (let j = 0; j < height; j++) {
    const y = y0 + j * ySampling;
    // the row's holes as sample columns [a, b), in order
    const cut = holes
      .filter((h) => y >= h.yMin && y <= h.yMax)
      .map((h) => [Math.max(0, Math.ceil((h.xMin - x0) / xSampling)), Math.min(width, Math.floor((h.xMax - x0) / xSampling) + 1)] as const)
      .filter(([a, b]) => a < b)
      .sort((p, q) => p[0] - q[0]);
    let at = 0;
    for (const [a, b] of cut) {
      if (a > at) run(j * width + at, j * width + a);
      at = Math.max(at, b);
    }
    if (at < width) run(j * width + at, j * width + width);
  }
}

/** The pixels two boxes share (xMin > xMax or yMin > yMax: none). */
export function intersectBox(a: Box2i, b: Box2i): Box2i {
  return { xMin: Math.max(a.xMin, b.xMin), yMin: Math.max(a.yMin, b.yMin), xMax: Math.min(a.xMax, b.xMax), yMax: Math.min(a.yMax, b.yMax) };
}

const area = (b: Box2i): number => Math.max(0, b.xMax - b.xMin + 1) * Math.max(0, b.yMax - b.yMin + 1);
