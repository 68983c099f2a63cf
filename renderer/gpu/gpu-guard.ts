// What the GPU can hold, said in words: the largest image a page asks the host for (its texture limit, its cache
// budget), and allocations run inside error scopes so that a refusal (out of memory, a limit) is an error that says
// what happened instead of a black preview; and the lines that say what became of the device when it was lost or
// reported an error that no scope caught.
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

/** Bytes in words: whole MB from 10 MB, tenths below, kB under 0.1 MB (a small budget never reads "0 MB"). */
export const megabytes = (bytes: number): string =>
  bytes >= 10e6 ? `${Math.round(bytes / 1e6)} MB` : bytes >= 1e5 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} kB`;

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

/** A device loss recovered from: a new device holds what is on screen again; the store was never touched. */
export function lossRecoveredNotice(reason: string): string {
  return `The GPU device was lost (${reason}) and was set up again: the image, reference and thumbnails on screen were reloaded; nothing else changed.`;
}

/** A device loss with no device to be had after it. */
export function lossNotRecoveredNotice(reason: string, why: string): string {
  return `The GPU device was lost (${reason}) and could not be set up again (${why}): reload the page or restart exrview; nothing on disk was changed.`;
}

/** An error outside every error scope (a draw, a pass): out of memory, or a refusal the engine did not expect. */
export function uncapturedErrorNotice(error: GPUError): string {
  const first = error.message.split('\n')[0]!;
  return typeof GPUOutOfMemoryError !== 'undefined' && error instanceof GPUOutOfMemoryError
    ? "The GPU ran out of memory while drawing: close other GPU-heavy programs, or lower the GPU cache's budget."
    : `The GPU reported an error (${first}): the view may be incomplete; reload the page if it stays wrong.`;
}
