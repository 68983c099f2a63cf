// The project's CPU thumbnail path on all cores: host's boxFilter per channel and row band in worker threads, then its tone-map.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { boxFilter, thumbnailSize } from '../../host/thumbnails/job.js';
import { toneMapHalfRgba } from '../../host/thumbnails/tone-map.js';
import { floatToHalf } from '../../codec/index.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import type { Planes } from './images.js';

interface BandJob {
  id: number;
  plane: Uint16Array; // SharedArrayBuffer-backed
  ws: number;
  hs: number;
  outW: number;
  outH: number;
  t0: number;
  t1: number;
}

/** Worker side: filter rows t0..t1 of the output from the source rows they cover. */
export function runWorkerIfChild(): boolean {
  if (isMainThread || (workerData as { role?: string } | null)?.role !== 'cpu-thumbnail') return false;
  parentPort!.on('message', (job: BandJob) => {
    const sy0 = Math.floor((job.t0 * job.hs) / job.outH);
    const sy1 = Math.floor((job.t1 * job.hs) / job.outH);
    const data = job.plane.subarray(sy0 * job.ws, sy1 * job.ws);
    const out = boxFilter(
      { name: 'c', pixelType: 'half', xSampling: 1, ySampling: 1, widthSamples: job.ws, heightSamples: sy1 - sy0, data },
      job.outW,
      job.t1 - job.t0,
    );
    parentPort!.postMessage({ id: job.id, out }, [out.buffer as ArrayBuffer]);
  });
  return true;
}

export class CpuThumbnailer {
  readonly threads: number;
  private readonly workers: Worker[];
  private nextId = 0;
  private readonly pending = new Map<number, (out: Float32Array) => void>();

  /** `entry`: the bundled bench file, which runs the worker side when started as a worker. */
  constructor(entry: URL, threads = availableParallelism()) {
    this.threads = threads;
    this.workers = [];
    for (let i = 0; i < threads; i++) {
      const w = new Worker(entry, { workerData: { role: 'cpu-thumbnail' } });
      w.on('message', (m: { id: number; out: Float32Array }) => {
        this.pending.get(m.id)?.(m.out);
        this.pending.delete(m.id);
      });
      this.workers.push(w);
    }
  }

  /** Linear box-filtered thumbnail, tone-mapped like `exrview thumbs` does on the CPU; 8-bit RGBA. */
  async thumbnail(p: Planes<Uint16Array>, longSidePx: number): Promise<{ rgba: Uint8ClampedArray; width: number; height: number }> {
    const { widthPx: outW, heightPx: outH } = thumbnailSize(p.width, p.height, longSidePx);
    // bands: enough to keep every worker busy across the four channels
    const bandsPerChannel = Math.max(1, Math.min(outH, Math.ceil(this.threads / 2)));
    const planes = [p.r, p.g, p.b, p.a];
    const filtered = planes.map(() => new Float32Array(outW * outH));
    const jobs: Promise<void>[] = [];
    let w = 0;
    for (let c = 0; c < 4; c++) {
      for (let b = 0; b < bandsPerChannel; b++) {
        const t0 = Math.floor((b * outH) / bandsPerChannel);
        const t1 = Math.floor(((b + 1) * outH) / bandsPerChannel);
        if (t1 <= t0) continue;
        const id = this.nextId++;
        const job: BandJob = { id, plane: planes[c]!, ws: p.width, hs: p.height, outW, outH, t0, t1 };
        jobs.push(
          new Promise<void>((resolve) => {
            this.pending.set(id, (out) => {
              filtered[c]!.set(out, t0 * outW);
              resolve();
            });
          }),
        );
        this.workers[w++ % this.workers.length]!.postMessage(job);
      }
    }
    await Promise.all(jobs);
    const half = new Uint16Array(outW * outH * 4);
    for (let i = 0; i < outW * outH; i++) for (let c = 0; c < 4; c++) half[i * 4 + c] = floatToHalf(filtered[c]![i]!);
    const rgba = toneMapHalfRgba(half, outW, outH, DEFAULT_DISPLAY);
    return { rgba, width: outW, height: outH };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
