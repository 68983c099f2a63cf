// LogTransform, LogAffineTransform and LogCameraTransform: OCIO's lin-to-log and log-to-lin renderers (float32 steps).

import type { LogOp } from './op.js';

const f = Math.fround;
const FLT_MIN = 1.1754943508222875e-38;
const LOG2_10 = f(3.3219280948873623);
const LOG10_2 = f(0.3010299956639812);
const LOG_SIDE_SLOPE = 0,
  LOG_SIDE_OFFSET = 1,
  LIN_SIDE_SLOPE = 2,
  LIN_SIDE_OFFSET = 3,
  LIN_SIDE_BREAK = 4,
  LINEAR_SLOPE = 5;

const maxMin = (v: number): number => (FLT_MIN < v ? v : FLT_MIN); // std::max(FLT_MIN, NaN) is FLT_MIN

/** A plain log2/log10 op (every param at its default), which OCIO renders without the affine steps. */
function plainBase(op: LogOp): 2 | 10 | undefined {
  if (op.camera) return undefined;
  const plain = op.params.every(
    (p) => p[LOG_SIDE_SLOPE] === 1 && p[LOG_SIDE_OFFSET] === 0 && p[LIN_SIDE_SLOPE] === 1 && p[LIN_SIDE_OFFSET] === 0,
  );
  if (!plain) return undefined;
  return op.base === 2 ? 2 : op.base === 10 ? 10 : undefined;
}

export function applyLog(op: LogOp, rgba: Float32Array): void {
  const base = plainBase(op);
  if (base !== undefined) {
    const forward = op.direction === 'forward';
    const scale = base === 2 ? 1 : forward ? LOG10_2 : LOG2_10;
    for (let i = 0; i < rgba.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const x = rgba[i + c]!;
        rgba[i + c] = forward ? f(Math.log2(maxMin(x))) * scale : Math.pow(2, f(x * scale));
      }
    }
    return;
  }
  const log2Base = f(Math.log2(f(op.base)));
  for (let c = 0; c < 3; c++) {
    const p = op.params[c]!;
    const m = f(p[LIN_SIDE_SLOPE]!),
      b = f(p[LIN_SIDE_OFFSET]!),
      kb = f(p[LOG_SIDE_OFFSET]!);
    if (op.camera) {
      const linearSlope =
        p.length > LINEAR_SLOPE
          ? f(p[LINEAR_SLOPE]!)
          : f(
              (p[LOG_SIDE_SLOPE]! * p[LIN_SIDE_SLOPE]!) /
                ((p[LIN_SIDE_SLOPE]! * p[LIN_SIDE_BREAK]! + p[LIN_SIDE_OFFSET]!) * Math.log(op.base)),
            );
      let logSideBreak = f(Math.log2(f(p[LIN_SIDE_SLOPE]! * p[LIN_SIDE_BREAK]! + p[LIN_SIDE_OFFSET]!)));
      logSideBreak = f(logSideBreak * f(f(p[LOG_SIDE_SLOPE]!) / log2Base));
      logSideBreak = f(logSideBreak + kb);
      const linearOffset = f(logSideBreak - f(linearSlope * f(p[LIN_SIDE_BREAK]!)));
      const linBreak = f(p[LIN_SIDE_BREAK]!);
      if (op.direction === 'forward') {
        const klog = f(p[LOG_SIDE_SLOPE]! / log2Base);
        for (let i = c; i < rgba.length; i += 4) {
          const x = rgba[i]!;
          rgba[i] = x < linBreak ? f(linearSlope * x) + linearOffset : f(Math.log2(maxMin(f(f(x * m) + b)))) * klog + kb;
        }
      } else {
        const kinv = f(log2Base / f(p[LOG_SIDE_SLOPE]!));
        const linsinv = f(1 / linearSlope);
        const minv = f(1 / m);
        for (let i = c; i < rgba.length; i += 4) {
          const x = rgba[i]!;
          rgba[i] = x < logSideBreak ? linsinv * f(x - linearOffset) : f(f(Math.pow(2, f(f(x - kb) * kinv))) - b) * minv;
        }
      }
      continue;
    }
    if (op.direction === 'forward') {
      const klog = f(p[LOG_SIDE_SLOPE]! / Math.log2(op.base));
      for (let i = c; i < rgba.length; i += 4) rgba[i] = f(Math.log2(maxMin(f(f(rgba[i]! * m) + b)))) * klog + kb;
    } else {
      const kinv = f(log2Base / f(p[LOG_SIDE_SLOPE]!));
      const minv = f(1 / m);
      for (let i = c; i < rgba.length; i += 4) rgba[i] = f(f(Math.pow(2, f(f(rgba[i]! - kb) * kinv))) - b) * minv;
    }
  }
}
