// The decode workers' tone-map task: a thumbnail's half RGBA to 8-bit RGBA through a view (see tone-map-on-pool.ts),
// and that as a PNG when asked.

import type { DisplayParams } from '../../shaders/display-params.js';
import { pngFromRgba8 } from '../io/png-native.js';
import { writePngFile, type FileWriteError } from './files.js';
import { toneMapHalfRgba } from './tone-map.js';

export interface ToneMapTaskArgs {
  /** Linear half RGBA, interleaved (copied to the worker: the caller keeps its buffer). */
  rgbaHalf: ArrayBuffer;
  widthPx: number;
  heightPx: number;
  view: DisplayParams;
  /** The view's memo table, shared by every worker (per-channel views only). */
  memo: Int16Array | null;
  /** Also the PNG of the 8-bit RGBA (none without the native kernels). */
  png?: boolean;
  /** And write that PNG here (whole or not at all). */
  pngPath?: string;
}

export interface ToneMapTaskResult {
  rgba8: ArrayBuffer;
  png?: ArrayBuffer;
  /** The PNG written to pngPath, or why not. */
  pngWritten?: { error?: FileWriteError };
  toneMapMs: number;
  encodeMs: number;
  writeMs: number;
}

/** Worker side: the 8-bit RGBA (and PNG), handed back without a copy. */
export function toneMapTask(args: ToneMapTaskArgs): { result: ToneMapTaskResult; transfer: ArrayBuffer[] } {
  const pixels = args.widthPx * args.heightPx;
  if (args.rgbaHalf.byteLength !== pixels * 8)
    throw new Error(`tone-map: ${args.rgbaHalf.byteLength} bytes for ${args.widthPx}x${args.heightPx} half RGBA (${pixels * 8} expected)`);
  const t0 = performance.now();
  const rgba8 = toneMapHalfRgba(new Uint16Array(args.rgbaHalf), args.widthPx, args.heightPx, args.view, args.memo ?? undefined);
  const t1 = performance.now();
  const png = args.png ? pngFromRgba8(rgba8, args.widthPx, args.heightPx) : null;
  const t2 = performance.now();
  const written = png && args.pngPath ? writePngFile(args.pngPath, png) : undefined;
  const result = {
    rgba8: rgba8.buffer as ArrayBuffer,
    ...(png ? { png } : {}),
    ...(written ? { pngWritten: written } : {}),
    toneMapMs: t1 - t0,
    encodeMs: t2 - t1,
    writeMs: performance.now() - t2,
  };
  return { result, transfer: [result.rgba8, ...(png ? [png] : [])] };
}
