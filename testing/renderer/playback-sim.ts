// A simulated host and GPU on a fake clock for the frame pipeline's tests (renderer/playback): loads read from a disk
// one at a time, then decode (one after another, or side by side), uploads take a set time; the display ticks.
import type { FramePipeline, LoadResult, PipelineIo } from '../../renderer/playback/pipeline.js';

export interface SimOptions {
  /** Decode time of a load (ms), unless `loadMs` says otherwise. */
  decodeMs: number;
  uploadMs: number;
  /** Files whose decode fails. */
  damaged?: Set<string>;
  /** Decodes side by side (each takes its time whatever else runs), else one after another. */
  parallel?: boolean;
  /** The first `coldLoads` loads take `coldMs` each (a cold start: fresh memory, nothing decoded ahead). */
  coldLoads?: number;
  coldMs?: number;
  /** Each load's decode time moves by the next of these in turn (a shared machine). */
  jitterMs?: number[];
  /** The n-th load's decode time (n from 1), instead of decodeMs, cold and jitter. */
  loadMs?: (n: number) => number;
  /** The n-th load's disk read before its decode, one read at a time (a slow disk). */
  diskMs?: (n: number) => number;
}

interface Queued {
  tag: string;
  fileId: string;
  resolve: (r: LoadResult<string>) => void;
  reject: (e: Error) => void;
}

export class Sim {
  now = 0;
  private events: { at: number; run: () => void }[] = [];
  private busyUntil = 0;
  private diskBusyUntil = 0;
  readonly started: string[] = [];
  readonly startedTags: string[] = [];
  readonly cancelled: string[] = [];
  readonly released: string[] = [];
  readonly presented: number[] = [];
  readonly plans: string[][] = [];
  /** Tags of loads that settled (resolved or rejected), each once. */
  readonly settledTags: string[] = [];
  loadsResolved = 0;
  uploadsRunning = 0;
  maxUploadsRunning = 0;
  /** Uploads that wrote into the slot on screen (must stay 0). */
  uploadsIntoShown = 0;
  private shownSlot = -1;

  constructor(private readonly opts: SimOptions) {}

  readonly io: PipelineIo<string> = {
    load: (fileId, tag) => new Promise((resolve, reject) => this.serve({ tag, fileId, resolve, reject })),
    cancel: (tag) => void this.cancelled.push(tag),
    upload: (slot) => {
      if (slot === this.shownSlot) this.uploadsIntoShown++;
      this.uploadsRunning++;
      this.maxUploadsRunning = Math.max(this.maxUploadsRunning, this.uploadsRunning);
      return new Promise((resolve) =>
        this.at(this.now + this.opts.uploadMs, () => {
          this.uploadsRunning--;
          resolve({ uploadMs: this.opts.uploadMs });
        }),
      );
    },
    present: (slot, frame) => {
      this.shownSlot = slot;
      this.presented.push(frame);
    },
    release: (data) => void this.released.push(data),
    plan: (fileIds) => void this.plans.push(fileIds),
  };

  private serve(q: Queued): void {
    this.started.push(q.fileId);
    this.startedTags.push(q.tag);
    const n = this.started.length;
    const o = this.opts;
    const read = o.diskMs ? o.diskMs(n) : 0;
    const readDone = Math.max(this.now, this.diskBusyUntil) + read;
    if (o.diskMs) this.diskBusyUntil = readDone;
    const cold = n <= (o.coldLoads ?? 0);
    const jitter = o.jitterMs ? o.jitterMs[n % o.jitterMs.length]! : 0;
    const decode = o.loadMs ? o.loadMs(n) : cold ? o.coldMs! : o.decodeMs + jitter;
    const done = (o.parallel ? readDone : Math.max(readDone, this.busyUntil)) + decode;
    if (!o.parallel) this.busyUntil = done;
    this.at(done, () => {
      this.settledTags.push(q.tag);
      // side by side, a cancelled load stops, as the host's do (its decode rejects); one after another, it was under way
      if (o.parallel && this.cancelled.includes(q.tag)) return q.reject(new Error('cancelled: test'));
      this.loadsResolved++;
      if (o.damaged?.has(q.fileId)) q.reject(new Error(`${q.fileId}: ZIP data is damaged`));
      else
        q.resolve({
          data: `px:${q.fileId}`,
          hostMs: decode,
          readMs: read,
          decompressMs: decode,
          unpackMs: 1,
          queueMs: 0,
          source: 'decode',
          transferMs: 0,
          bytes: 100,
        });
    });
  }

  private at(at: number, run: () => void): void {
    this.events.push({ at, run });
  }

  /** Events still to come (loads and uploads not yet settled). */
  get pending(): number {
    return this.events.length;
  }

  /** Runs the display for `ms`, ticking the pipeline every `tickMs` (a 60 Hz display unless told); `afterTick` sees each tick. */
  async run(pipeline: FramePipeline<string>, ms: number, tickMs = 1000 / 60, afterTick?: () => void): Promise<void> {
    const end = this.now + ms;
    while (this.now < end) {
      this.now = Math.min(end, this.now + tickMs);
      for (;;) {
        this.events.sort((a, b) => a.at - b.at);
        const next = this.events[0];
        if (!next || next.at > this.now) break;
        this.events.shift();
        next.run();
        await flush();
      }
      pipeline.tick();
      await flush();
      afterTick?.();
    }
  }
}

export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
