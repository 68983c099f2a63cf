// The messages between the decode pool and its worker threads: tasks out, one reply back for each.

import type { ExrErrorKind, ExrErrorWhere } from '../../codec/index.js';

export interface TaskRequest {
  id: number;
  kind: string;
  args: unknown;
  /** The job's cancellation flag (one Int32, non-zero once cancelled), shared by every task of the job. */
  abortFlag: SharedArrayBuffer;
  /** The task's word in the worker's gates (workerData.gates): a task may be recalled until the worker starts it. */
  gate: number;
}

/** A task's gate word: the pool sets QUEUED as it posts; the worker moves it to STARTED, or finds it RECALLED and skips it. */
export const GATE = { free: 0, queued: 1, started: 2, recalled: 3 } as const;

/** Gate words a worker has: tasks posted to it and not yet answered never number more. */
export const GATES_PER_WORKER = 8;

export interface TaskFailure {
  kind: ExrErrorKind;
  reason: string;
  where: ExrErrorWhere;
  message: string;
}

/** workerMs: the task's time in the worker; startedAtMs: when it began there (epoch ms, for the pool's trace). */
export type TaskReply =
  | { id: number; ok: true; result: unknown; workerMs: number; startedAtMs: number }
  | { id: number; ok: false; error: TaskFailure; workerMs: number; startedAtMs: number }
  /** The task was recalled before it started: it did not run. */
  | { id: number; skipped: true };
