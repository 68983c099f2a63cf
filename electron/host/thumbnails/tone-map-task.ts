// The decode workers' tone-map task: a thumbnail's half RGBA to 8-bit RGBA through a view (see tone-map-on-pool.ts).

import type { DisplayParams } from '../../../shaders/display-params.js';
import { toneMapHalfRgba } from './tone-map.js';

export interface ToneMapTaskArgs {
  /** Linear half RGBA, interleaved (copied to the worker: the caller keeps its buffer). */
  rgbaHalf: ArrayBuffer;
  widthPx: number;
  heightPx: number;
  view: DisplayParams;
  /** The view's memo table, shared by every worker (per-channel views only). */
  memo: Int16Array | null;
}

/** Worker side: the 8-bit RGBA, handed back without a copy. */
export function toneMapTask(args: ToneMapTaskArgs): { result: ArrayBuffer; transfer: ArrayBuffer[] } {
  const pixels = args.widthPx * args.heightPx;
  if (args.rgbaHalf.byteLength !== pixels * 8) throw new Error(`tone-map: ${args.rgbaHalf.byteLength} bytes for ${args.widthPx}x${args.heightPx} half RGBA (${pixels * 8} expected)`);
  const rgba8 = toneMapHalfRgba(new Uint16Array(args.rgbaHalf), args.widthPx, args.heightPx, args.view, args.memo ?? undefined);
  return { result: rgba8.buffer as ArrayBuffer, transfer: [rgba8.buffer as ArrayBuffer] };
}
