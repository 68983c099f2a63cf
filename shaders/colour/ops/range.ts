// RangeTransform: scale and offset from the in range to the out range, clamped at the out bounds that are set (NaN → lower).

import type { RangeOp } from './op.js';

export function applyRange(op: RangeOp, rgba: Float32Array): void {
  const { scale, offset } = rangeScaleOffset(op);
  const lower = op.minOut,
    upper = op.maxOut;
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      let v = Math.fround(rgba[i + c]! * scale + offset);
      // `max(lower, v)` as std::max does: a NaN becomes the bound
      if (lower !== undefined) v = lower < v ? v : lower;
      if (upper !== undefined) v = v < upper ? v : upper;
      rgba[i + c] = v;
    }
  }
}

export function rangeScaleOffset(op: RangeOp): { scale: number; offset: number } {
  if (op.minIn !== undefined && op.maxIn !== undefined && op.minOut !== undefined && op.maxOut !== undefined) {
    const scale = (op.maxOut - op.minOut) / (op.maxIn - op.minIn);
    return { scale: Math.fround(scale), offset: Math.fround(op.minOut - scale * op.minIn) };
  }
  if (op.minIn !== undefined && op.minOut !== undefined) return { scale: 1, offset: Math.fround(op.minOut - op.minIn) };
  if (op.maxIn !== undefined && op.maxOut !== undefined) return { scale: 1, offset: Math.fround(op.maxOut - op.maxIn) };
  return { scale: 1, offset: 0 };
}

export function invertRange(op: RangeOp): RangeOp {
  return { type: 'range', minIn: op.minOut, maxIn: op.maxOut, minOut: op.minIn, maxOut: op.maxIn };
}
