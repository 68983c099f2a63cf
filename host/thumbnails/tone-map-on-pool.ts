// Thumbnails tone-mapped to 8-bit on the decode workers, never on the calling thread (the pool waits on that thread): a view's memo table (tone-map.ts viewMemo, shared
// with the workers) made up front for a command's one view, and the pool task for a thumbnail not made just now (from
// the disk cache).
// A thumbnail being made is tone-mapped by the worker that finishes it (job.ts), with no task of its own.

import type { DisplayParams } from '../../shaders/display-params.js';
import type { DecodePool } from '../decode/pool.js';
import { fillToneMapMemo, viewMemo } from './tone-map.js';
import type { ToneMapTaskArgs, ToneMapTaskResult } from './tone-map-task.js';
import type { FileWriteError } from './files.js';
import type { ThumbnailOutputOptions } from './params.js';

/**
 * Computes a view's whole memo table now, on this thread: a command that tone-maps a folder through one view does it
 * while its workers start. Left to fill as the workers meet new values, every worker's first thumbnails evaluated the
 * view in the interpreter, code not yet compiled.
 */
export function prepareToneMap(view: DisplayParams): void {
  const memo = viewMemo(view);
  if (memo) fillToneMapMemo(memo, view);
}

/**
 * A thumbnail tone-mapped on a worker: its 8-bit RGBA, its PNG when asked for (and the kernels loaded) and how writing
 * that went, the worker's times.
 */
export interface ToneMapped {
  rgba8: Uint8ClampedArray;
  png?: Uint8Array;
  pngWritten?: { error?: FileWriteError };
  toneMapMs: number;
  encodeMs: number;
  writeMs: number;
}

/** Tone-maps a thumbnail (and encodes its PNG, and writes it, as `output` asks) on the pool at `poolPriority`. */
export async function toneMapOnPool(
  pool: DecodePool,
  rgbaHalf: ArrayBuffer,
  widthPx: number,
  heightPx: number,
  view: DisplayParams,
  poolPriority: number,
  output: ThumbnailOutputOptions = {},
): Promise<ToneMapped> {
  const args: ToneMapTaskArgs = {
    rgbaHalf,
    widthPx,
    heightPx,
    view,
    memo: viewMemo(view),
    ...(output.png ? { png: true, ...(output.pngPath ? { pngPath: output.pngPath } : {}) } : {}),
  };
  const result = (await pool.submit('toneMap', args, poolPriority).promise).result as ToneMapTaskResult;
  return {
    rgba8: new Uint8ClampedArray(result.rgba8),
    ...(result.png ? { png: new Uint8Array(result.png) } : {}),
    ...(result.pngWritten ? { pngWritten: result.pngWritten } : {}),
    toneMapMs: result.toneMapMs,
    encodeMs: result.encodeMs,
    writeMs: result.writeMs,
  };
}
