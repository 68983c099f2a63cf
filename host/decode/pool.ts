// A pool of decode worker threads (one per core) running jobs as tasks: one prioritised queue of tasks from every open job.
//
// A job is one or many tasks (a whole-level decode is cut into bands of chunks, see image-decode.ts). A free worker
// takes the next task of the most urgent job (lowest priority number, then the oldest), so one large image uses every
// core, a folder keeps every core busy to its last band, and a preview asked for later still goes first. The main
// thread only hands out tasks and counts replies: it does no per-chunk work.
//
// Each worker holds its next task as well as the one it runs, so that it never waits on a busy main thread (writing
// thumbnails, answering the renderer) between tasks. A held task is recalled while it has not started: when a more
// urgent job comes (a preview waits for at most the tasks running), or when a worker is idle at the end of the queue.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { ExrError } from '../../codec/index.js';
import { JobQueue } from './job-queue.js';
import { GATES_PER_WORKER, type TaskReply } from './messages.js';
import { failJob, newJob, recordAnswer, type Job, type JobHandle, type JobPlan, type JobTimings, type TaskState } from './pool-job.js';
import { epochMs, PoolTrace } from './pool-trace.js';
import { recallForUrgent } from './pool-recalls.js';
import { PoolWorkers, postTask, started, takeBack, type Posted, type Slot } from './pool-workers.js';
import type { TaskKind } from './task-handler.js';

export type { JobHandle, JobPlan, JobTimings, TaskSpec } from './pool-job.js';

/** How long close() waits for tasks that have started to end (an aborted task stops at its next chunk: milliseconds). */
const CLOSE_GRACE_MS = 2000;

export interface DecodePoolOptions {
  workers?: number;
  /** Tasks a worker holds at once, the running one included (default 2; 1 hands out a task only to an idle worker). */
  tasksPerWorker?: number;
  /** Path of the built worker script (dist/decode-worker.mjs); found automatically when omitted. */
  workerPath?: string;
  /** Record every task (pool-trace.ts); by default EXRVIEW_TRACE says whether to. */
  trace?: PoolTrace | null;
  /**
   * Jobs at this priority or less urgent start no task while a foreground job (priority 0: a picked image) has tasks
   * running: a worker left idle at the end of the picked image leaves its core to the rest of it (default: none wait).
   */
  backgroundFrom?: number;
}

/** The priority of what the person is waiting to see: see DecodePoolOptions.backgroundFrom. */
export const FOREGROUND_PRIORITY = 0;

/** Where the built worker lives: beside the running bundle, or in dist/ when running from source (tests). */
export function defaultWorkerPath(): string {
  const here = typeof __filename === 'string' ? dirname(__filename) : dirname(fileURLToPath(import.meta.url));
  // in the installed app the worker is unpacked beside app.asar (electron-builder.json asarUnpack)
  const candidates = [
    join(here, 'decode-worker.mjs'),
    join(here, '..', 'decode-worker.mjs'),
    join(here, '..', '..', 'dist', 'decode-worker.mjs'),
  ].map((p) => p.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2'));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`decode worker not built (looked in ${candidates.join(', ')}): run \`npm run build\``);
  return found;
}

declare const __filename: string | undefined;

/**
 * The pool runs tasks of any kind by name; what each kind is lives with the workers (worker/tasks.ts). `Kinds` only
 * types `run`: a pool made as DecodePool<TaskTypes> checks a kind's arguments and result.
 */
export class DecodePool<Kinds extends Record<keyof Kinds, TaskKind> = Record<string, TaskKind>> {
  readonly size: number;
  private readonly tasksPerWorker: number;
  private readonly trace: PoolTrace | null;
  private readonly workers: PoolWorkers;
  /** Jobs with tasks not yet handed out. */
  private readonly queue: JobQueue;
  private nextJobId = 1;
  private nextRequestId = 1;
  private seq = 0;
  private closed = false;
  /** Held tasks taken back before they started: for a more urgent job, or for an idle worker (`steals`). */
  recalls = 0;
  steals = 0;

  constructor(options: DecodePoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? availableParallelism());
    this.tasksPerWorker = Math.min(GATES_PER_WORKER - 2, Math.max(1, options.tasksPerWorker ?? 2));
    this.trace = options.trace === undefined ? PoolTrace.fromEnvironment() : options.trace;
    this.queue = new JobQueue(options.backgroundFrom ?? Infinity);
    this.workers = new PoolWorkers(this.size, options.workerPath ?? defaultWorkerPath(), {
      reply: (slot, reply) => this.answer(slot, reply),
      died: (slot, error) => this.rerun(slot, error),
    });
  }

  /** One task of a registered kind, as a job of its own. */
  run<K extends keyof Kinds & string>(kind: K, args: Kinds[K]['args'], priority = 0): JobHandle<Kinds[K]['result']> {
    return this.submit(kind, args, priority) as JobHandle<Kinds[K]['result']>;
  }

  /** Any registered task kind (the host's own kinds too), as a job of one task. */
  submit(kind: string, args: unknown, priority = 0): JobHandle<unknown> {
    return this.submitJob({ tasks: () => [{ kind, args }], combine: (results) => results[0] }, priority);
  }

  /** A job of many tasks: they run on every free worker, most urgent job first. */
  submitJob<R>(plan: JobPlan<R> | Promise<JobPlan<R>>, priority = 0): JobHandle<R> {
    if (this.closed) throw new Error('decode pool is closed');
    const id = this.nextJobId++;
    const { job, promise } = newJob(id, this.seq++, plan instanceof Promise ? null : (plan as JobPlan<unknown>), priority);
    this.queue.add(job);
    if (plan instanceof Promise) {
      plan.then(
        (ready) => {
          job.plan = ready as JobPlan<unknown>;
          this.pump();
        },
        (error: unknown) => {
          this.fail(job, error);
          this.pump();
        },
      );
    }
    this.pump();
    return {
      id,
      promise: promise as Promise<{ result: R; timings: JobTimings }>,
      cancel: () => this.cancel(job),
      setPriority: (p: number) => {
        job.priority = p;
      },
    };
  }

  /**
   * Starts every worker now and resolves once each has loaded and warmed the codec (warm-up.ts: a timed run then
   * measures decoding, as OpenEXR's thread pool is made before its clock starts); otherwise workers start with the
   * first job, unwarmed, so that the job does not wait.
   */
  async start(): Promise<void> {
    if (this.closed) throw new Error('decode pool is closed');
    this.workers.fill(true);
    await Promise.all(
      this.workers.slots.map((slot) =>
        this.submit('ping', null)
          .promise.catch(() => {})
          .then(() => slot),
      ),
    );
  }

  /**
   * Jobs in the queue (waiting, being planned, or with tasks not yet handed out) at `priority` or more urgent: those
   * that share the workers with a job of that priority. A job whose tasks are being made counts itself.
   */
  jobsAsUrgentAs(priority: number): number {
    return this.queue.jobsAsUrgentAs(priority);
  }

  /** Tasks waiting for a worker (those of jobs not yet started count once). */
  get pending(): number {
    return this.queue.pending;
  }

  get running(): number {
    return this.workers.slots.filter((s) => s.posted.length > 0).length;
  }

  /** Tasks handed to workers and not answered yet: the running ones and those held next. */
  get posted(): number {
    return this.workers.slots.reduce((n, s) => n + s.posted.length, 0);
  }

  /** Workers that died and were replaced. */
  get restarts(): number {
    return this.workers.restarts;
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    this.fail(job, new ExrError('aborted', 'cancelled'));
  }

  /** Settles a job as failed: its queued tasks are dropped and its running ones told to stop. */
  private fail(job: Job, error: unknown): void {
    if (failJob(job, error)) this.queue.remove(job);
  }

  private pump(): void {
    // Workers start with the first job, not with the pool: a run served from the caches never pays their start-up
    // (tens of ms of module compilation each, on the same cores).
    if (this.queue.length > 0) this.workers.fill();
    if (this.tasksPerWorker > 1) recallForUrgent(this.workers.slots, this.queue, (slot, posted) => this.recall(slot, posted));
    // idle workers first, then each one's next task
    for (let held = 0; held < this.tasksPerWorker; held++) {
      for (const slot of this.workers.slots) {
        if (slot.posted.length !== held || slot.posted.length + slot.recalled.size >= GATES_PER_WORKER) continue;
        const taken = this.takeNext();
        if (!taken) return this.stealForIdle();
        this.post(slot, taken.job, taken.task);
      }
    }
  }

  private takeNext(): { job: Job; task: TaskState } | undefined {
    return this.queue.takeNext(() => this.foregroundRunning());
  }

  private post(slot: Slot, job: Job, task: TaskState): void {
    task.attempts++;
    if (Number.isNaN(job.firstStartAt)) job.firstStartAt = performance.now();
    postTask(slot, job, task, this.nextRequestId++, this.trace ? epochMs() : 0);
  }

  /** Takes a posted task back if its worker has not started it; it goes to the front of its job's tasks again. */
  private recall(slot: Slot, posted: Posted): boolean {
    if (!takeBack(slot, posted)) return false;
    this.recalls++;
    posted.task.attempts--;
    this.queue.requeue(posted.job, posted.task, 'front');
    return true;
  }

  /** Nothing left to hand out: an idle worker takes a task another one holds and has not started. */
  private stealForIdle(): void {
    if (this.queue.length > 0) return; // the most urgent job is being planned: its tasks come soon
    const slots = this.workers.slots;
    for (const idle of slots) {
      if (idle.posted.length > 0 || idle.recalled.size >= GATES_PER_WORKER - 1) continue;
      const holder = slots.find((s) => s.posted.length > 1);
      if (!holder || !this.recall(holder, holder.posted[holder.posted.length - 1]!)) return;
      const taken = this.takeNext();
      if (!taken) return;
      this.steals++;
      this.post(idle, taken.job, taken.task);
    }
  }

  /** Whether a foreground job's task is posted (running, or held next by its worker). */
  private foregroundRunning(): boolean {
    for (const slot of this.workers.slots)
      for (const p of slot.posted) if (p.job.priority <= FOREGROUND_PRIORITY && !p.job.settled) return true;
    return false;
  }

  private answer(slot: Slot, reply: TaskReply): void {
    if ('skipped' in reply) {
      slot.recalled.delete(reply.id);
      this.pump();
      return;
    }
    const index = slot.posted.findIndex((p) => p.requestId === reply.id);
    const running = index >= 0 ? slot.posted.splice(index, 1)[0]! : null;
    if (running && this.trace) this.traceAnswer(slot, running, reply);
    if (running && !running.job.settled) recordAnswer(running.job, running.task, reply);
    this.pump();
  }

  private traceAnswer(slot: Slot, { task, postedAtMs }: Posted, reply: Exclude<TaskReply, { skipped: true }>): void {
    this.trace!.add({
      worker: this.workers.slots.indexOf(slot),
      kind: task.spec.kind,
      args: task.spec.args,
      result: reply.ok ? reply.result : null,
      ok: reply.ok,
      postedAtMs,
      startedAtMs: reply.startedAtMs,
      endedAtMs: reply.startedAtMs + reply.workerMs,
      answeredAtMs: epochMs(),
    });
  }

  /** The tasks of a worker that died (it is replaced) are tried once more, then their job fails with a clear error. */
  private rerun(slot: Slot, error: Error): void {
    for (const posted of slot.posted) {
      const { job, task } = posted;
      if (job.settled) continue;
      // a task that had not started is handed out again as it was; the one that had, once more at most
      const hadStarted = started(slot, posted);
      if (!hadStarted) task.attempts--;
      if (!hadStarted || task.attempts < 2) {
        this.queue.requeue(job, task, 'back');
      } else {
        this.fail(
          job,
          new ExrError('io', `the decode worker stopped twice on this file (${error.message}); it may be too large or damaged`),
        );
      }
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.workers.closing();
    const closedError = () => new ExrError('aborted', 'decode pool closed');
    for (const job of [...this.queue.all]) this.fail(job, closedError());
    const slots = this.workers.slots;
    for (const slot of slots) for (const posted of slot.posted) this.fail(posted.job, closedError());
    this.queue.clear();
    // tasks that have started end first (their jobs are aborted: they stop at their next chunk), so that the files a
    // worker writes (a thumbnail's cache file and PNG) are whole or absent, never a temporary file cut off mid-write
    for (const slot of slots) for (const posted of [...slot.posted]) this.recall(slot, posted);
    await this.workers.startedTasksEnded(CLOSE_GRACE_MS);
    this.trace?.write(this.size);
    await this.workers.terminate();
  }

  /** Tasks a worker has begun and not yet answered (held ones not counted): for tests of close(). */
  get startedTasks(): number {
    return this.workers.startedTasks;
  }

  /** For tests of worker replacement: the worker threads themselves (none before the first job). */
  get workerThreads(): Worker[] {
    return this.workers.slots.map((s) => s.worker);
  }
}
