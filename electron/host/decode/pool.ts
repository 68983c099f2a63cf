// A pool of decode worker threads (one per core): prioritised queue, cancellation, transferable results, worker replacement.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ExrError, type ExrErrorKind, type ExrErrorWhere } from '../../exr/index.js';
import type { JobTypes } from './tasks.js';

export interface WorkerRequest {
  id: number;
  kind: string;
  args: unknown;
}

export type WorkerReply =
  | { id: number; ok: true; result: unknown; workerMs: number }
  | { id: number; ok: false; error: { kind: ExrErrorKind; reason: string; where: ExrErrorWhere; message: string }; workerMs: number };

export interface JobTimings {
  /** Waiting for a free worker. */
  queueMs: number;
  /** Inside the worker. */
  workerMs: number;
  /** Request to result, on the calling thread. */
  totalMs: number;
}

export interface JobHandle<R> {
  id: number;
  promise: Promise<{ result: R; timings: JobTimings }>;
  cancel(): void;
  /** Lower runs first; jobs already running are not affected. */
  setPriority(priority: number): void;
}

interface QueuedJob {
  id: number;
  kind: string;
  args: unknown;
  priority: number;
  seq: number;
  enqueuedAt: number;
  startedAt: number;
  attempts: number;
  cancelled: boolean;
  resolve: (value: { result: unknown; timings: JobTimings }) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  abortFlag: Int32Array;
  job: QueuedJob | null;
}

export interface DecodePoolOptions {
  workers?: number;
  /** Path of the built worker script (dist/decode-worker.mjs); found automatically when omitted. */
  workerPath?: string;
}

/** Where the built worker lives: beside the running bundle, or in dist/ when running from source (tests). */
export function defaultWorkerPath(): string {
  const here = typeof __filename === 'string' ? dirname(__filename) : dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'decode-worker.mjs'), join(here, '..', 'decode-worker.mjs'), join(here, '..', '..', '..', 'dist', 'decode-worker.mjs')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`decode worker not built (looked in ${candidates.join(', ')}): run \`npm run build\``);
  return found;
}

declare const __filename: string | undefined;

export class DecodePool {
  readonly size: number;
  private readonly workerPath: string;
  private readonly slots: Slot[] = [];
  private queue: QueuedJob[] = [];
  private nextId = 1;
  private seq = 0;
  private closed = false;
  /** Workers that died and were replaced. */
  restarts = 0;

  constructor(options: DecodePoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? availableParallelism());
    this.workerPath = options.workerPath ?? defaultWorkerPath();
  }

  private spawn(): Slot {
    const abortBuffer = new SharedArrayBuffer(4);
    const worker = new Worker(this.workerPath, { workerData: { abortFlag: abortBuffer } });
    const slot: Slot = { worker, abortFlag: new Int32Array(abortBuffer), job: null };
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (error) => this.onWorkerDeath(slot, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.onWorkerDeath(slot, new Error(`decode worker exited with code ${code}`));
    });
    return slot;
  }

  run<K extends keyof JobTypes>(kind: K, args: JobTypes[K]['args'], priority = 0): JobHandle<JobTypes[K]['result']> {
    return this.submit(kind, args, priority) as JobHandle<JobTypes[K]['result']>;
  }

  /** Any registered job kind (the host's own kinds too). */
  submit(kind: string, args: unknown, priority = 0): JobHandle<unknown> {
    if (this.closed) throw new Error('decode pool is closed');
    const id = this.nextId++;
    let job!: QueuedJob;
    const promise = new Promise<{ result: unknown; timings: JobTimings }>((resolve, reject) => {
      job = { id, kind, args, priority, seq: this.seq++, enqueuedAt: performance.now(), startedAt: 0, attempts: 0, cancelled: false, resolve, reject };
    });
    this.queue.push(job);
    this.pump();
    return {
      id,
      promise,
      cancel: () => this.cancel(job),
      setPriority: (p: number) => {
        job.priority = p;
      },
    };
  }

  /** Jobs waiting for a worker. */
  get pending(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.slots.filter((s) => s.job).length;
  }

  private cancel(job: QueuedJob): void {
    if (job.cancelled) return;
    job.cancelled = true;
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
    const slot = this.slots.find((s) => s.job === job);
    if (slot) Atomics.store(slot.abortFlag, 0, 1);
    job.reject(new ExrError('aborted', 'cancelled'));
  }

  private pump(): void {
    // Workers start with the first job, not with the pool: a run served from the caches never pays their start-up
    // (tens of ms of module compilation each, on the same cores).
    while (this.queue.length > 0 && this.slots.length < this.size) this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.takeNext();
      if (!job) return;
      slot.job = job;
      job.startedAt = performance.now();
      job.attempts++;
      Atomics.store(slot.abortFlag, 0, 0);
      const request: WorkerRequest = { id: job.id, kind: job.kind, args: job.args };
      slot.worker.postMessage(request);
    }
  }

  private takeNext(): QueuedJob | undefined {
    let best = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const j = this.queue[i]!;
      const b = best >= 0 ? this.queue[best]! : null;
      if (!b || j.priority < b.priority || (j.priority === b.priority && j.seq < b.seq)) best = i;
    }
    return best >= 0 ? this.queue.splice(best, 1)[0] : undefined;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    slot.job = null;
    if (job && job.id === reply.id && !job.cancelled) {
      const now = performance.now();
      const timings: JobTimings = { queueMs: job.startedAt - job.enqueuedAt, workerMs: reply.workerMs, totalMs: now - job.enqueuedAt };
      if (reply.ok) job.resolve({ result: reply.result, timings });
      else job.reject(new ExrError(reply.error.kind, reply.error.reason, reply.error.where));
    }
    this.pump();
  }

  /** A worker that crashed is replaced; the job it held is retried once, then fails with a clear error. */
  private onWorkerDeath(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    this.restarts++;
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    const replacement = this.spawn();
    this.slots[index] = replacement;
    const job = slot.job;
    if (job && !job.cancelled) {
      if (job.attempts < 2) {
        this.queue.unshift(job);
      } else {
        job.reject(new ExrError('io', `the decode worker stopped twice on this file (${error.message}); it may be too large or damaged`));
      }
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue) job.reject(new ExrError('aborted', 'decode pool closed'));
    this.queue = [];
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** For tests of worker replacement: the worker threads themselves (none before the first job). */
  get workerThreads(): Worker[] {
    return this.slots.map((s) => s.worker);
  }
}
