// What the GPU can hold, said in words: the largest image a page asks the host for (its texture limit, its cache
// budget), and allocations run inside error scopes so that a refusal (out of memory, a limit) is an error that says
// what happened instead of a black preview.
import type { FitWithin } from '../host-client/api-types.js';

/**
 * GPU bytes an image takes per pixel in the worst case the cache plans for: its layer's rgba32float MIP chain (16 × 4/3)
 * and four float planes it was assembled from.
 */
export const PLANNED_BYTES_PER_PX = (16 * 4) / 3 + 4 * 4;

/** The GPU cannot hold or make what an image needs: what, and why. Shown in the preview's place. */
export class GpuRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpuRefusedError';
  }
}

/** The largest image this device and cache budget show whole: larger ones are asked for reduced. */
export function fitWithinFor(maxTextureSidePx: number, budgetBytes: number): FitWithin {
  return { maxSidePx: maxTextureSidePx, maxPixels: Math.max(1, Math.floor(budgetBytes / PLANNED_BYTES_PER_PX)) };
}

export const megabytes = (bytes: number): string => `${Math.round(bytes / 1e6)} MB`;

/**
 * Runs `make` (which creates GPU objects and queues work) inside out-of-memory and validation scopes; an error either
 * scope caught becomes a GpuRefusedError naming `what`, after `undo` has destroyed what `make` made.
 */
export async function guardAllocation<T>(device: GPUDevice, what: string, make: () => T | Promise<T>, undo: (made: T) => void): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let made: T | undefined;
  let thrown: unknown = null;
  try {
    made = await make();
  } catch (e) {
    thrown = e;
  }
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  if (thrown) throw thrown;
  if (oom) {
    undo(made as T);
    throw new GpuRefusedError(`the GPU ran out of memory for ${what}: close other GPU-heavy programs, or lower the GPU cache's budget`);
  }
  if (validation) {
    undo(made as T);
    throw new GpuRefusedError(`the GPU refused ${what} (${validation.message.split('\n')[0]})`);
  }
  return made as T;
}
