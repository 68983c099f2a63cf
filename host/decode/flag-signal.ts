// A task's abort signal: a shared flag the main thread sets (DecodePool.cancel), read where the decode checks it.

import type { AbortSignalLike } from '../../codec/index.js';

/**
 * The signal over `flag` (aborted once its first word is not 0). One maker for the worker's tasks and its warm-up, so
 * that the decode code compiled in the warm-up meets a signal of the shape it was compiled for.
 */
export function flagSignal(flag: Int32Array): AbortSignalLike {
  return {
    get aborted() {
      return Atomics.load(flag, 0) !== 0;
    },
  };
}
