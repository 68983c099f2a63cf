// A frame's way from the host to a slot: its load, then its upload into a free slot, measured into the estimator and
// its record; a job no longer wanted is cancelled, and whatever pixels it held go back.
import type { Job } from './jobs.js';
import { uploadOrder } from './jobs.js';
import type { LoadEstimator } from './latency.js';
import type { PipelineIo } from './io.js';
import type { SlotRing } from './slots.js';
import type { FrameTimeline } from './timeline.js';

export interface LoadsContext<D> {
  io: PipelineIo<D>;
  slots: SlotRing<Job<D>>;
  estimator: LoadEstimator;
  timeline: FrameTimeline;
  now: () => number;
  /** Whether a load asked for at `requestedMs` times a load's latency (not one queued behind a pre-roll that buffered). */
  timesLatency: (requestedMs: number) => boolean;
  /** Whether `job` is a load kept past its step, to be shown late. */
  isLate: (job: Job<D>) => boolean;
  /** A load or an upload settled: the clock or the pause logic acts on it. */
  settled: () => void;
}

export class FrameLoads<D> {
  private nextTag = 1;

  constructor(private readonly c: LoadsContext<D>) {}

  /** Asks the host for `fileId`'s pixels, for playback step `step` (-1: while paused). */
  start(step: number, frame: number, fileId: string): Job<D> {
    const c = this.c;
    const job: Job<D> = {
      step,
      frame,
      fileId,
      tag: `frame-${this.nextTag++}`,
      state: 'loading',
      data: null,
      slot: -1,
      cancelled: false,
      error: '',
      rec: c.timeline.blank(step, frame),
    };
    job.rec.requestedMs = c.now();
    c.io.load(fileId, job.tag).then(
      (result) => {
        const now = c.now();
        // a load kept past its step (to be shown late) is one of the slow ones, counted when it missed its step
        c.estimator.arrived(job.rec.requestedMs, now, c.timesLatency(job.rec.requestedMs) && !c.isLate(job));
        if (job.cancelled) {
          c.io.release(result.data);
          return;
        }
        Object.assign(job.rec, {
          loadedMs: now,
          hostMs: result.hostMs,
          readMs: result.readMs,
          decompressMs: result.decompressMs,
          unpackMs: result.unpackMs,
          queueMs: result.queueMs,
          source: result.source,
          transferMs: result.transferMs,
          bytes: result.bytes,
        });
        job.data = result.data;
        job.state = 'loaded';
        c.settled();
      },
      (error: unknown) => {
        if (job.cancelled) return;
        job.state = 'failed';
        job.error = error instanceof Error ? error.message : String(error);
        job.rec.loadedMs = c.now();
        c.settled();
      },
    );
    return job;
  }

  /** Uploads loaded frames into free slots, earliest step first. */
  startUploads(jobs: Job<D>[]): void {
    const waiting = jobs.filter((j) => j.state === 'loaded').sort((a, b) => uploadOrder(a) - uploadOrder(b));
    for (const job of waiting) {
      const slot = this.c.slots.free();
      if (slot < 0) break;
      this.upload(job, slot);
    }
  }

  private upload(job: Job<D>, slot: number): void {
    const c = this.c;
    job.state = 'uploading';
    job.slot = slot;
    c.slots.hold(slot, job);
    const data = job.data!;
    job.data = null;
    const t0 = c.now();
    c.io.upload(slot, data, job.frame).then(
      (result) => {
        c.io.release(data);
        c.estimator.uploaded(c.now() - t0);
        job.rec.uploadMs = result.uploadMs;
        job.rec.buildMs = result.buildMs ?? NaN;
        job.rec.readyMs = c.now();
        if (job.cancelled) c.slots.release(job.slot, job);
        else job.state = 'ready';
        c.settled();
      },
      (error: unknown) => {
        c.io.release(data);
        c.slots.release(job.slot, job);
        if (job.cancelled) return;
        job.state = 'failed';
        job.error = `the frame could not be put on the GPU: ${error instanceof Error ? error.message : String(error)}`;
        c.settled();
      },
    );
  }

  /** `job` is not wanted any more: its load stops, its pixels go back, its slot is free (unless on screen). */
  cancel(job: Job<D>): void {
    if (job.cancelled) return;
    job.cancelled = true;
    if (job.state === 'loading') this.c.io.cancel(job.tag);
    if (job.state === 'loaded' && job.data !== null) {
      this.c.io.release(job.data);
      job.data = null;
    }
    if (job.state === 'ready') this.c.slots.release(job.slot, job);
  }
}
