// One image decoded by every worker at once: the level is cut into row bands that fill shared planes in place.

import { ExrError, type DecodedChannel, type DecodedImage, type StageTimings } from '../../exr/index.js';
import type { DecodePool, JobHandle, JobTimings } from './pool.js';
import { sampleCount } from '../../exr/sampling.js';
import { LINES_PER_CHUNK, type Compression } from '../../exr/types.js';
import type { Box2i, PixelType } from '../../exr/index.js';
import type { PartSummary } from '../api.js';

export interface ParallelDecodeRequest {
  path: string;
  part?: number;
  lx?: number;
  ly?: number;
  channels?: string[];
  priority?: number;
  /**
   * The level's geometry when the caller already knows it (the host has every header): the bands are
   * then queued at once, so no other job can take a worker between a layout job and the bands.
   */
  layout?: LayoutResult;
}

/** Shaped like the pool's JobHandle, so whatever schedules pool jobs can schedule this too. */
export interface ParallelDecodeHandle extends JobHandle<DecodedImage> {
  promise: Promise<{ result: DecodedImage; timings: JobTimings & { bands: number } }>;
}

/** Bands per worker: a little more than one evens out chunks that cost more than others. */
const BANDS_PER_WORKER = 2;

/** A plane's geometry, before it has pixels. */
export type PlaneLayout = Omit<DecodedChannel, 'data'>;

export interface LayoutResult {
  /** The whole level, absolute coordinates. */
  frame: Box2i;
  planes: PlaneLayout[];
  /** Rows that one chunk covers: bands are cut on multiples of it so no chunk is decoded twice. */
  rowsPerChunk: number;
  /** The least common multiple of the channels' y sampling: bands start on rows every channel samples. */
  rowAlignment: number;
}

/** The planes of `channels` over `frame`, and how bands may be cut (whole chunks, rows every channel samples). */
export function levelLayout(
  frame: Box2i,
  channels: readonly { name: string; pixelType: PixelType; xSampling: number; ySampling: number }[],
  rowsPerChunk: number,
): LayoutResult {
  const planes = channels.map((c) => ({
    name: c.name,
    pixelType: c.pixelType,
    xSampling: c.xSampling,
    ySampling: c.ySampling,
    widthSamples: sampleCount(c.xSampling, frame.xMin, frame.xMax),
    heightSamples: sampleCount(c.ySampling, frame.yMin, frame.yMax),
  }));
  const rowAlignment = planes.reduce((l, p) => lcm(l, p.ySampling), 1);
  return { frame, planes, rowsPerChunk, rowAlignment };
}

/** The geometry of level 0 of a scanline part from its header summary (tiled parts ask a worker: their tile size is not in it). */
export function scanlineLayout(part: PartSummary, channels: readonly string[] | null): LayoutResult | null {
  if (part.tiled || part.type !== 'scanlineimage') return null;
  const rowsPerChunk = LINES_PER_CHUNK[part.compression as Compression];
  if (!rowsPerChunk) return null;
  const [xMin, yMin, xMax, yMax] = part.dataWindow;
  return levelLayout({ xMin, yMin, xMax, yMax }, part.channels.filter((c) => !channels || channels.includes(c.name)), rowsPerChunk);
}

/** Row bands of the frame, each a whole number of chunks and starting on a row every channel samples. */
export function planBands(layout: LayoutResult, bandCount: number): { yMin: number; yMax: number }[] {
  const { frame } = layout;
  const step = lcm(layout.rowsPerChunk, layout.rowAlignment);
  const rows = frame.yMax - frame.yMin + 1;
  const units = Math.ceil(rows / step);
  const perBand = Math.max(1, Math.ceil(units / bandCount));
  const bands: { yMin: number; yMax: number }[] = [];
  for (let u = 0; u < units; u += perBand) {
    const yMin = frame.yMin + u * step;
    bands.push({ yMin, yMax: Math.min(frame.yMax, yMin + perBand * step - 1) });
  }
  return bands;
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}

export function decodeParallel(pool: DecodePool, request: ParallelDecodeRequest): ParallelDecodeHandle {
  const part = request.part ?? 0;
  const lx = request.lx ?? 0;
  const ly = request.ly ?? lx;
  let priority = request.priority ?? 0;
  const handles: JobHandle<unknown>[] = [];
  let cancelled = false;
  const t0 = performance.now();

  const promise = (async () => {
    const args = { path: request.path, part, lx, ly, ...(request.channels ? { channels: request.channels } : {}) };
    let layout: LayoutResult;
    let layoutTimings: JobTimings = { queueMs: 0, workerMs: 0, totalMs: 0 };
    if (request.layout) {
      layout = request.layout;
    } else {
      const layoutJob = pool.run('layout', args, priority);
      handles.push(layoutJob);
      ({ result: layout, timings: layoutTimings } = await layoutJob.promise);
      if (cancelled) throw new ExrError('aborted', 'cancelled');
    }
    const buffers = layout.planes.map((p) => new SharedArrayBuffer(p.widthSamples * p.heightSamples * (p.pixelType === 'half' ? 2 : 4)));
    const bands = planBands(layout, pool.size * BANDS_PER_WORKER);
    const jobs = bands.map((band) => {
      const region = { xMin: layout.frame.xMin, xMax: layout.frame.xMax, yMin: band.yMin, yMax: band.yMax };
      const job = pool.run('band', { ...args, frame: layout.frame, region, planes: buffers }, priority);
      handles.push(job);
      return job.promise;
    });
    const results = await Promise.all(jobs);
    const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
    let workerMs = layoutTimings.workerMs;
    for (const r of results) {
      timings.readMs += r.result.readMs;
      timings.decompressMs += r.result.decompressMs;
      timings.unpackMs += r.result.unpackMs;
      timings.bytesRead += r.result.bytesRead;
      timings.chunks += r.result.chunks;
      workerMs += r.timings.workerMs;
    }
    const channels: DecodedChannel[] = layout.planes.map((p, i) => ({
      ...p,
      data: p.pixelType === 'half' ? new Uint16Array(buffers[i]!) : p.pixelType === 'float' ? new Float32Array(buffers[i]!) : new Uint32Array(buffers[i]!),
    }));
    const frame = layout.frame;
    const image: DecodedImage = {
      part,
      lx,
      ly,
      region: frame,
      widthPx: frame.xMax - frame.xMin + 1,
      heightPx: frame.yMax - frame.yMin + 1,
      channels,
      timings,
    };
    const queueMs = layoutTimings.queueMs + Math.min(...results.map((r) => r.timings.queueMs));
    void layoutTimings.totalMs;
    return { result: image, timings: { queueMs, workerMs, totalMs: performance.now() - t0, bands: bands.length } };
  })();

  return {
    id: -1,
    promise,
    cancel: () => {
      cancelled = true;
      for (const h of handles) h.cancel();
    },
    setPriority: (p: number) => {
      priority = p;
      for (const h of handles) h.setPriority(p);
    },
  };
}
