// Requests on top of the decode pool: identical work shared by key, each request cancellable by id, priorities by the most urgent request.

import { CANCELLED_MESSAGE, type Priority } from '../../contract/host-api.js';
import type { JobHandle, JobTimings } from './pool.js';

/**
 * Pool priority (lower runs first): previews pre-empt the frames of a playing sequence, which pre-empt prefetches,
 * then visible and hidden thumbnails.
 */
export const POOL_PRIORITY: Readonly<Record<Priority, number>> = {
  preview: 0,
  playback: 1,
  prefetch: 2,
  'thumbnail-visible': 3,
  'thumbnail-hidden': 4,
};

/** Joins a request's id to the id of a part of it (see JobBroker.cancel). */
export const SUB_REQUEST = '\0';

export interface JobMeta {
  fileId: string;
  kind: string;
}

interface Waiter {
  requestId: string | null;
  priority: Priority;
  job: SharedJob;
  resolve: (value: { result: unknown; timings: JobTimings }) => void;
  reject: (error: unknown) => void;
}

interface SharedJob {
  key: string;
  meta: JobMeta;
  handle: JobHandle<unknown>;
  waiters: Set<Waiter>;
  priority: number;
}

export class CancelledError extends Error {
  constructor(what: string) {
    super(`${CANCELLED_MESSAGE}: ${what}`);
  }
}

export class JobBroker {
  private readonly jobs = new Map<string, SharedJob>();
  private readonly byRequest = new Map<string, Waiter>();
  /** The ids of the parts of a request (see cancel), by the request's id. */
  private readonly subRequests = new Map<string, Set<string>>();

  /**
   * Starts the work once per `key` (`start` submits it to the pool at a pool priority); a request for a key already
   * queued or running joins it (and may raise its priority).
   */
  run<R>(
    key: string,
    meta: JobMeta,
    start: (poolPriority: number) => JobHandle<unknown>,
    priority: Priority,
    requestId: string | null,
  ): Promise<{ result: R; timings: JobTimings }> {
    if (requestId !== null && this.byRequest.has(requestId)) {
      return Promise.reject(new Error(`request id "${requestId}" is already in use: give each request its own id`));
    }
    let job = this.jobs.get(key);
    if (!job) {
      const handle = start(POOL_PRIORITY[priority]);
      const created: SharedJob = { key, meta, handle, waiters: new Set(), priority: POOL_PRIORITY[priority] };
      job = created;
      this.jobs.set(key, created);
      handle.promise.then(
        (value) => this.settle(created, (w) => w.resolve(value)),
        (error) => this.settle(created, (w) => w.reject(error)),
      );
    }
    const shared = job;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { requestId, priority, job: shared, resolve: resolve as Waiter['resolve'], reject };
      shared.waiters.add(waiter);
      if (requestId !== null) {
        this.byRequest.set(requestId, waiter);
        const at = requestId.indexOf(SUB_REQUEST);
        if (at >= 0) {
          const parent = requestId.slice(0, at);
          this.subRequests.set(parent, (this.subRequests.get(parent) ?? new Set()).add(requestId));
        }
      }
      this.updatePriority(shared);
    });
  }

  private settle(job: SharedJob, each: (w: Waiter) => void): void {
    if (this.jobs.get(job.key) === job) this.jobs.delete(job.key);
    for (const w of job.waiters) {
      if (w.requestId !== null) this.forgetId(w.requestId);
      each(w);
    }
    job.waiters.clear();
  }

  /**
   * Drops one request, and the parts it was split into (ids `requestId` + SUB_REQUEST + anything: the bands of a
   * streamed reduction); the work itself stops when no other request is waiting for it.
   */
  cancel(requestId: string): boolean {
    const ids = [requestId, ...(this.subRequests.get(requestId) ?? [])];
    let found = false;
    for (const id of ids) {
      const waiter = this.byRequest.get(id);
      if (!waiter) continue;
      this.drop(waiter, `request ${requestId}`);
      found = true;
    }
    return found;
  }

  /** Forgets a request id; a part of a request leaves its request's list of parts. */
  private forgetId(id: string): void {
    this.byRequest.delete(id);
    const at = id.indexOf(SUB_REQUEST);
    if (at < 0) return;
    const parent = id.slice(0, at);
    const parts = this.subRequests.get(parent);
    parts?.delete(id);
    if (parts?.size === 0) this.subRequests.delete(parent);
  }

  private drop(waiter: Waiter, what: string): void {
    const job = waiter.job;
    if (waiter.requestId !== null) this.forgetId(waiter.requestId);
    job.waiters.delete(waiter);
    waiter.reject(new CancelledError(what));
    if (job.waiters.size === 0) {
      this.jobs.delete(job.key);
      job.handle.cancel();
      job.handle.promise.catch(() => {});
    } else {
      this.updatePriority(job);
    }
  }

  /**
   * Cancels the requests (and work) that `select` picks, e.g. prefetches of images no longer next to the current one
   * (`requestId` null: the host's own request, not a page's).
   */
  cancelWhere(select: (meta: JobMeta, priority: Priority, requestId: string | null) => boolean): number {
    let count = 0;
    for (const job of [...this.jobs.values()]) {
      for (const w of [...job.waiters]) {
        if (select(job.meta, w.priority, w.requestId)) {
          this.drop(w, `${job.meta.kind} of ${job.meta.fileId} no longer needed`);
          count++;
        }
      }
    }
    return count;
  }

  /** Gives requests new priorities (`next` returns the same one to keep it) and re-orders the queue. */
  reprioritise(next: (meta: JobMeta, priority: Priority) => Priority): void {
    for (const job of this.jobs.values()) {
      for (const w of job.waiters) w.priority = next(job.meta, w.priority);
      this.updatePriority(job);
    }
  }

  private updatePriority(job: SharedJob): void {
    let best = Infinity;
    for (const w of job.waiters) best = Math.min(best, POOL_PRIORITY[w.priority]);
    if (best !== job.priority && Number.isFinite(best)) {
      job.priority = best;
      job.handle.setPriority(best);
    }
  }

  /** Jobs queued or running, for diagnostics and tests. */
  get size(): number {
    return this.jobs.size;
  }

  has(key: string): boolean {
    return this.jobs.has(key);
  }
}
