// What a pool task is inside a worker: a function from its arguments (and its job's cancellation) to a result and the buffers to hand over.

import type { AbortSignalLike } from '../../codec/index.js';

export interface TaskContext {
  signal: AbortSignalLike;
}

export interface TaskOutput<R> {
  result: R;
  /** Buffers handed to the main thread without copying. */
  transfer: ArrayBuffer[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskHandler = (args: any, ctx: TaskContext) => TaskOutput<unknown> | Promise<TaskOutput<unknown>>;

/** A task kind's arguments and result, as the main thread sees them. */
export interface TaskKind {
  args: unknown;
  result: unknown;
}
