// Thumbnails tone-mapped to 8-bit on the decode workers, never on the calling thread (a folder's worth took the
// command's main thread 30-55 ms, and the pool waits on that thread): the views' memo tables the workers share, made
// up front for a command's one view, and the pool task for a thumbnail not made just now (from the disk cache).
// A thumbnail being made is tone-mapped by the worker that finishes it (job.ts), with no task of its own.

import type { DisplayParams } from '../../../shaders/display-params.js';
import type { DecodePool } from '../decode/pool.js';
import { fillToneMapMemo, isPerChannel, sharedToneMapMemo } from './tone-map.js';
import type { ToneMapTaskArgs } from './tone-map-task.js';

/** The shared memo table of each view in use (a few at most: the command has one, exports one each). */
export class ToneMapMemos {
  private readonly byView = new Map<string, Int16Array>();

  of(view: DisplayParams): Int16Array | null {
    if (!isPerChannel(view) || view.nanInf) return null;
    const key = JSON.stringify(view);
    let memo = this.byView.get(key);
    if (!memo) {
      if (this.byView.size >= 8) this.byView.delete(this.byView.keys().next().value!);
      memo = sharedToneMapMemo();
      this.byView.set(key, memo);
    }
    return memo;
  }
}

/**
 * Computes a view's whole memo table now, on this thread (20-40 ms): a command that tone-maps a folder through one
 * view does it while its workers start. Left to fill as the workers meet new values, every worker's first thumbnails
 * evaluated the view in the interpreter, code not yet compiled: 16 workers took ~15 ms each on them.
 */
export function prepareToneMap(memos: ToneMapMemos, view: DisplayParams): void {
  const memo = memos.of(view);
  if (memo) fillToneMapMemo(memo, view);
}

/** Tone-maps a thumbnail on the pool at `poolPriority`; `toneMapMs` is the time in the worker. */
export async function toneMapOnPool(pool: DecodePool, memos: ToneMapMemos, rgbaHalf: ArrayBuffer, widthPx: number, heightPx: number, view: DisplayParams, poolPriority: number): Promise<{ rgba8: Uint8ClampedArray; toneMapMs: number }> {
  const args: ToneMapTaskArgs = { rgbaHalf, widthPx, heightPx, view, memo: memos.of(view) };
  const { result, timings } = await pool.submit('toneMap', args, poolPriority).promise;
  return { rgba8: new Uint8ClampedArray(result as ArrayBuffer), toneMapMs: timings.workerMs };
}
