// A pool job's bookkeeping: its plan made into tasks, their answers collected, and the job settled once, as a result or a failure.

import { ExrError } from '../../codec/index.js';
import type { TaskReply } from './messages.js';

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

export interface TaskState {
  index: number;
  spec: TaskSpec;
  attempts: number;
}

export interface Job {
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

/** A job not yet started, and the promise its end settles; a plan still to come is set on the job when it arrives. */
export function newJob(id: number, seq: number, plan: JobPlan<unknown> | null, priority: number): { job: Job; promise: Promise<unknown> } {
  let job!: Job;
  const promise = new Promise<{ result: unknown; timings: JobTimings }>((resolve, reject) => {
    job = {
      id,
      priority,
      seq,
      enqueuedAt: performance.now(),
      firstStartAt: NaN,
      plan,
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
  return { job, promise };
}

/** Makes the job's tasks from its plan, when its first task is about to be handed out (the plan may throw). */
export function planTasks(job: Job): TaskState[] {
  const tasks = job.plan!.tasks().map((spec, index) => ({ index, spec, attempts: 0 }));
  job.tasks = tasks;
  job.results = new Array(tasks.length);
  return tasks;
}

/** Settles a job as failed and tells its running tasks to stop; false when it had settled already. */
export function failJob(job: Job, error: unknown): boolean {
  if (job.settled) return false;
  job.settled = true;
  Atomics.store(new Int32Array(job.abortBuffer), 0, 1);
  job.reject(error);
  return true;
}

/** A task's answer: its result kept (the job finishes with its last one), or the job failed with the worker's error. */
export function recordAnswer(job: Job, task: TaskState, reply: Exclude<TaskReply, { skipped: true }>): void {
  job.workerMs += reply.workerMs;
  if (reply.ok) {
    job.results[task.index] = reply.result;
    if (++job.done === job.tasks!.length) finishJob(job);
  } else {
    failJob(job, new ExrError(reply.error.kind, reply.error.reason, reply.error.where));
  }
}

/** Settles a job with its tasks' results combined, and its timings. */
export function finishJob(job: Job): void {
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
