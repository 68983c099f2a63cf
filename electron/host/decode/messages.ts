// The messages between the decode pool and its worker threads: one task out, one reply back.

import type { ExrErrorKind, ExrErrorWhere } from '../../exr/index.js';

export interface TaskRequest {
  id: number;
  kind: string;
  args: unknown;
  /** The job's cancellation flag (one Int32, non-zero once cancelled), shared by every task of the job. */
  abortFlag: SharedArrayBuffer;
}

export interface TaskFailure {
  kind: ExrErrorKind;
  reason: string;
  where: ExrErrorWhere;
  message: string;
}

export type TaskReply =
  | { id: number; ok: true; result: unknown; workerMs: number }
  | { id: number; ok: false; error: TaskFailure; workerMs: number };
