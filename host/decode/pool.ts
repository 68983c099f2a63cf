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
import { Worker } from 'node:worker_threads';
import { ExrError } from '../../codec/index.js';
import { prepareProcessForWorkers } from './worker-process.js';
import { GATE, GATES_PER_WORKER, type TaskReply, type TaskRequest } from './messages.js';
import { epochMs, PoolTrace } from './pool-trace.js';
import type { TaskKind } from './task-handler.js';

export interface JobTimings {
  /** Waiting for a worker, until the job's first task was handed to one (where it may wait behind the task running). */
  queueMs: number;
  /** Inside the workers, summed over the job's tasks. */
  workerMs: number;
  /** Request to result, on the calling thread. */
  totalMs: number;
  /** How many tasks the job ran as. */
  tasks: number;
}

export interface JobHandle<R> {
  id: number;
  promise: Promise<{ result: R; timings: JobTimings }>;
  cancel(): void;
  /** Lower runs first; tasks already running are not affected. */
  setPriority(priority: number): void;
}

export interface TaskSpec {
  kind: string;
  args: unknown;
}

/**
 * A job as tasks. `tasks()` runs when the first task is about to start, so memory for the output is taken only then.
 * A job may be submitted before its plan is known (a header still being read): it holds its place in the queue, and
 * while it is the most urgent job, free workers wait for it rather than start less urgent work.
 */
export interface JobPlan<R> {
  tasks(): TaskSpec[];
  /** The job's result from its tasks' results, in task order. */
  combine(results: unknown[]): R;
}

interface TaskState {
  index: number;
  spec: TaskSpec;
  attempts: number;
}

interface Job {
  id: number;
  priority: number;
  seq: number;
  enqueuedAt: number;
  firstStartAt: number;
  /** Null until a plan given as a promise arrives. */
  plan: JobPlan<unknown> | null;
  tasks: TaskState[] | null;
  /** Next task of `tasks` not yet handed out; `redo` (tasks whose worker died) goes first. */
  next: number;
  redo: TaskState[];
  results: unknown[];
  done: number;
  workerMs: number;
  settled: boolean;
  abortBuffer: SharedArrayBuffer;
  resolve: (value: { result: unknown; timings: JobTimings }) => void;
  reject: (error: unknown) => void;
}

interface Posted {
  job: Job;
  task: TaskState;
  requestId: number;
  gate: number;
  postedAtMs: number;
}

/** How long close() waits for tasks that have started to end (an aborted task stops at its next chunk: milliseconds). */
const CLOSE_GRACE_MS = 2000;

interface Slot {
  worker: Worker;
  /** One word a task posted: GATE states, shared with the worker. */
  gates: Int32Array;
  nextGate: number;
  /** Posted and not recalled, in the order posted: the first runs, the rest wait in the worker. */
  posted: Posted[];
  /** Request ids recalled before they started, until the worker answers each as skipped. */
  recalled: Set<number>;
}

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
  private readonly workerPath: string;
  private readonly trace: PoolTrace | null;
  private readonly backgroundFrom: number;
  private readonly slots: Slot[] = [];
  /** Jobs with tasks not yet handed out. */
  private queue: Job[] = [];
  private nextJobId = 1;
  private nextRequestId = 1;
  private seq = 0;
  private closed = false;
  /** While close() waits for started tasks: called once no task is posted. */
  private whenNothingPosted: (() => void) | null = null;
  /** Workers that died and were replaced. */
  restarts = 0;
  /** Held tasks taken back before they started: for a more urgent job, or for an idle worker (`steals`). */
  recalls = 0;
  steals = 0;

  constructor(options: DecodePoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? availableParallelism());
    this.tasksPerWorker = Math.min(GATES_PER_WORKER - 2, Math.max(1, options.tasksPerWorker ?? 2));
    this.workerPath = options.workerPath ?? defaultWorkerPath();
    this.trace = options.trace === undefined ? PoolTrace.fromEnvironment() : options.trace;
    this.backgroundFrom = options.backgroundFrom ?? Infinity;
  }

  private spawn(warmUp = false): Slot {
    // once, before the first worker (not with the pool, which a run served from the caches never needs): the
    // descriptor table and the workers' compiler (worker-process.ts)
    prepareProcessForWorkers();
    const gates = new SharedArrayBuffer(4 * GATES_PER_WORKER);
    const worker = new Worker(this.workerPath, { workerData: { warmUp, gates } });
    const slot: Slot = { worker, gates: new Int32Array(gates), nextGate: 0, posted: [], recalled: new Set() };
    worker.on('message', (reply: TaskReply) => this.onReply(slot, reply));
    worker.on('error', (error) => this.onWorkerDeath(slot, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.onWorkerDeath(slot, new Error(`decode worker exited with code ${code}`));
    });
    return slot;
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
    let job!: Job;
    const promise = new Promise<{ result: unknown; timings: JobTimings }>((resolve, reject) => {
      job = {
        id,
        priority,
        seq: this.seq++,
        enqueuedAt: performance.now(),
        firstStartAt: NaN,
        plan: plan instanceof Promise ? null : (plan as JobPlan<unknown>),
        tasks: null,
        next: 0,
        redo: [],
        results: [],
        done: 0,
        workerMs: 0,
        settled: false,
        abortBuffer: new SharedArrayBuffer(4),
        resolve,
        reject,
      };
    });
    this.queue.push(job);
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
    while (this.slots.length < this.size) this.slots.push(this.spawn(true));
    await Promise.all(
      this.slots.map((slot) =>
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
    let count = 0;
    for (const job of this.queue) if (job.priority <= priority) count++;
    return count;
  }

  /** Tasks waiting for a worker (those of jobs not yet started count once). */
  get pending(): number {
    return this.queue.reduce((n, j) => n + (j.tasks ? j.tasks.length - j.next : 1) + j.redo.length, 0);
  }

  get running(): number {
    return this.slots.filter((s) => s.posted.length > 0).length;
  }

  /** Tasks handed to workers and not answered yet: the running ones and those held next. */
  get posted(): number {
    return this.slots.reduce((n, s) => n + s.posted.length, 0);
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    this.fail(job, new ExrError('aborted', 'cancelled'));
  }

  /** Settles a job as failed: its queued tasks are dropped and its running ones told to stop. */
  private fail(job: Job, error: unknown): void {
    if (job.settled) return;
    job.settled = true;
    Atomics.store(new Int32Array(job.abortBuffer), 0, 1);
    this.unqueue(job);
    job.reject(error);
  }

  private unqueue(job: Job): void {
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
  }

  private pump(): void {
    // Workers start with the first job, not with the pool: a run served from the caches never pays their start-up
    // (tens of ms of module compilation each, on the same cores).
    while (this.queue.length > 0 && this.slots.length < this.size) this.slots.push(this.spawn());
    this.recallForUrgent();
    // idle workers first, then each one's next task
    for (let held = 0; held < this.tasksPerWorker; held++) {
      for (const slot of this.slots) {
        if (slot.posted.length !== held || slot.posted.length + slot.recalled.size >= GATES_PER_WORKER) continue;
        const taken = this.takeNext();
        if (!taken) return this.stealForIdle();
        this.post(slot, taken.job, taken.task);
      }
    }
  }

  private post(slot: Slot, job: Job, task: TaskState): void {
    const requestId = this.nextRequestId++;
    // answered in order, so the word posted GATES_PER_WORKER tasks ago is free: at most that many are ever out
    const gate = slot.nextGate;
    slot.nextGate = (gate + 1) % GATES_PER_WORKER;
    Atomics.store(slot.gates, gate, GATE.queued);
    slot.posted.push({ job, task, requestId, gate, postedAtMs: this.trace ? epochMs() : 0 });
    task.attempts++;
    if (Number.isNaN(job.firstStartAt)) job.firstStartAt = performance.now();
    const request: TaskRequest = { id: requestId, kind: task.spec.kind, args: task.spec.args, abortFlag: job.abortBuffer, gate };
    slot.worker.postMessage(request);
  }

  /** Takes a posted task back if its worker has not started it; it goes to the front of its job's tasks again. */
  private recall(slot: Slot, posted: Posted): boolean {
    if (Atomics.compareExchange(slot.gates, posted.gate, GATE.queued, GATE.recalled) !== GATE.queued) return false;
    slot.posted.splice(slot.posted.indexOf(posted), 1);
    slot.recalled.add(posted.requestId);
    this.recalls++;
    posted.task.attempts--;
    this.requeue(posted.job, posted.task, 'front');
    return true;
  }

  /** A task handed out that must run again: into its job's redo list, and the job back in the queue. */
  private requeue(job: Job, task: TaskState, where: 'front' | 'back'): void {
    if (job.settled) return;
    if (where === 'front') job.redo.unshift(task);
    else job.redo.push(task);
    if (!this.queue.includes(job)) this.queue.push(job);
  }

  /**
   * Tasks of jobs more urgent than some held ones, which would otherwise wait behind them: as many held tasks go back,
   * least urgent first, as those tasks have no worker to be next on (one small urgent task recalls one band, not all).
   */
  private recallForUrgent(): void {
    if (this.tasksPerWorker === 1 || this.queue.length === 0) return;
    const held: { slot: Slot; posted: Posted }[] = [];
    let nextOn = 0;
    let leastUrgentHeld = -Infinity;
    for (const slot of this.slots) {
      if (slot.posted.length <= 1) nextOn++;
      for (let i = 1; i < slot.posted.length; i++) {
        held.push({ slot, posted: slot.posted[i]! });
        leastUrgentHeld = Math.max(leastUrgentHeld, slot.posted[i]!.job.priority);
      }
    }
    // the common case, every job of one priority, stops here: no sorting
    let mostUrgentQueued = Infinity;
    for (const job of this.queue) mostUrgentQueued = Math.min(mostUrgentQueued, job.priority);
    if (mostUrgentQueued >= leastUrgentHeld) return;
    held.sort((a, b) => b.posted.job.priority - a.posted.job.priority);
    const waiting = [...this.queue].sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    let h = 0;
    for (const job of waiting) {
      let tasks = job.tasks ? job.tasks.length - job.next + job.redo.length : 1;
      for (; tasks > 0; tasks--) {
        if (nextOn > 0) {
          nextOn--;
          continue;
        }
        // the least urgent held task still queued in its worker, if less urgent than this job
        while (h < held.length && held[h]!.posted.job.priority > job.priority && !this.recall(held[h]!.slot, held[h]!.posted)) h++;
        if (h >= held.length || held[h]!.posted.job.priority <= job.priority) return;
        h++;
      }
    }
  }

  /** Nothing left to hand out: an idle worker takes a task another one holds and has not started. */
  private stealForIdle(): void {
    if (this.queue.length > 0) return; // the most urgent job is being planned: its tasks come soon
    for (const idle of this.slots) {
      if (idle.posted.length > 0 || idle.recalled.size >= GATES_PER_WORKER - 1) continue;
      const holder = this.slots.find((s) => s.posted.length > 1);
      if (!holder || !this.recall(holder, holder.posted[holder.posted.length - 1]!)) return;
      const taken = this.takeNext();
      if (!taken) return;
      this.steals++;
      this.post(idle, taken.job, taken.task);
    }
  }

  /** The next task of the most urgent job: lowest priority number, then the oldest job. */
  private takeNext(): { job: Job; task: TaskState } | undefined {
    while (this.queue.length > 0) {
      let best: Job | null = null;
      for (const j of this.queue) if (!best || j.priority < best.priority || (j.priority === best.priority && j.seq < best.seq)) best = j;
      let job = best!;
      if (!job.plan) {
        // the most urgent job is still being planned: keep the workers for it (a header read takes a millisecond),
        // unless a job as urgent is ready (folders submit many of one priority; their header reads finish in any order)
        let ready: Job | null = null;
        for (const j of this.queue) if (j.plan && j.priority === job.priority && (!ready || j.seq < ready.seq)) ready = j;
        if (!ready) return undefined;
        job = ready;
      }
      if (job.priority >= this.backgroundFrom && this.foregroundRunning()) return undefined;
      if (!job.tasks) {
        try {
          job.tasks = job.plan!.tasks().map((spec, index) => ({ index, spec, attempts: 0 }));
        } catch (error) {
          this.fail(job, error);
          continue;
        }
        job.results = new Array(job.tasks.length);
        if (job.tasks.length === 0) {
          this.unqueue(job);
          this.finish(job);
          continue;
        }
      }
      const task = job.redo.shift() ?? job.tasks[job.next++]!;
      if (job.redo.length === 0 && job.next >= job.tasks.length) this.unqueue(job);
      return { job, task };
    }
    return undefined;
  }

  /** Whether a foreground job's task is posted (running, or held next by its worker). */
  private foregroundRunning(): boolean {
    for (const slot of this.slots) for (const p of slot.posted) if (p.job.priority <= FOREGROUND_PRIORITY && !p.job.settled) return true;
    return false;
  }

  private onReply(slot: Slot, reply: TaskReply): void {
    this.answer(slot, reply);
    this.noteIfNothingPosted();
  }

  /** Tells a closing pool (startedTasksEnded) that no task is posted any more. */
  private noteIfNothingPosted(): void {
    if (this.whenNothingPosted && this.nothingPosted) this.whenNothingPosted();
  }

  private answer(slot: Slot, reply: TaskReply): void {
    if ('skipped' in reply) {
      slot.recalled.delete(reply.id);
      this.pump();
      return;
    }
    const index = slot.posted.findIndex((p) => p.requestId === reply.id);
    const running = index >= 0 ? slot.posted.splice(index, 1)[0]! : null;
    if (running && this.trace) {
      const { task, postedAtMs } = running;
      const result = reply.ok ? reply.result : null;
      this.trace.add({
        worker: this.slots.indexOf(slot),
        kind: task.spec.kind,
        args: task.spec.args,
        result,
        ok: reply.ok,
        postedAtMs,
        startedAtMs: reply.startedAtMs,
        endedAtMs: reply.startedAtMs + reply.workerMs,
        answeredAtMs: epochMs(),
      });
    }
    if (running && !running.job.settled) {
      const { job, task } = running;
      job.workerMs += reply.workerMs;
      if (reply.ok) {
        job.results[task.index] = reply.result;
        if (++job.done === job.tasks!.length) this.finish(job);
      } else {
        this.fail(job, new ExrError(reply.error.kind, reply.error.reason, reply.error.where));
      }
    }
    this.pump();
  }

  private finish(job: Job): void {
    job.settled = true;
    let result: unknown;
    try {
      result = job.plan!.combine(job.results);
    } catch (error) {
      job.reject(error);
      return;
    }
    const now = performance.now();
    const started = Number.isNaN(job.firstStartAt) ? now : job.firstStartAt;
    job.resolve({
      result,
      timings: { queueMs: started - job.enqueuedAt, workerMs: job.workerMs, totalMs: now - job.enqueuedAt, tasks: job.tasks!.length },
    });
  }

  /** A worker that crashed is replaced; the task it held is tried once more, then its job fails with a clear error. */
  private onWorkerDeath(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (this.closed) {
      // its tasks will not be answered: close() need not wait for them
      slot.posted = [];
      this.noteIfNothingPosted();
      return;
    }
    if (index < 0) return;
    this.restarts++;
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    for (const posted of slot.posted) {
      const { job, task } = posted;
      if (job.settled) continue;
      // a task that had not started is handed out again as it was; the one that had, once more at most
      const started = Atomics.load(slot.gates, posted.gate) === GATE.started;
      if (!started) task.attempts--;
      if (!started || task.attempts < 2) {
        this.requeue(job, task, 'back');
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
    for (const job of [...this.queue]) this.fail(job, new ExrError('aborted', 'decode pool closed'));
    for (const slot of this.slots) for (const posted of slot.posted) this.fail(posted.job, new ExrError('aborted', 'decode pool closed'));
    this.queue = [];
    // tasks that have started end first (their jobs are aborted: they stop at their next chunk), so that the files a
    // worker writes (a thumbnail's cache file and PNG) are whole or absent, never a temporary file cut off mid-write
    for (const slot of this.slots) for (const posted of [...slot.posted]) this.recall(slot, posted);
    await this.startedTasksEnded(CLOSE_GRACE_MS);
    this.trace?.write(this.size);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private get nothingPosted(): boolean {
    return this.slots.every((s) => s.posted.length === 0);
  }

  /** Resolves once no worker has a task posted (each started one answered: see onReply), or after `limitMs`. */
  private startedTasksEnded(limitMs: number): Promise<void> {
    if (this.nothingPosted) return Promise.resolve();
    return new Promise((resolve) => {
      const deadline = setTimeout(() => this.whenNothingPosted?.(), limitMs);
      this.whenNothingPosted = () => {
        clearTimeout(deadline);
        this.whenNothingPosted = null;
        resolve();
      };
    });
  }

  /** Tasks a worker has begun and not yet answered (held ones not counted): for tests of close(). */
  get startedTasks(): number {
    return this.slots.reduce((n, s) => n + s.posted.filter((p) => Atomics.load(s.gates, p.gate) === GATE.started).length, 0);
  }

  /** For tests of worker replacement: the worker threads themselves (none before the first job). */
  get workerThreads(): Worker[] {
    return this.slots.map((s) => s.worker);
  }
}
