// GradingRGBCurveTransform: red, green, blue then master B-spline curves, in log/video space or through OCIO's lin-to-log shaper.

import { evalCurve, evalCurveInverse, fitCurve, type FittedCurve } from './grading-bspline.js';
import type { GradingRgbCurveOp } from './op.js';
import { sseLog2, ssePower } from './grading-sse-math.js';

const f = Math.fround;

// OCIO's lin ↔ log shaper for the linear style (float32 constants as in GradingRGBCurveOpCPU's SSE path).
const X_BREAK = f(0.0041318374739483946);
const SHIFT = f(-0.000157849851665374);
const M = f(1 / f(0.18 + SHIFT));
const GAIN = f(363.034608563);
const OFFSET = -7;
const Y_BREAK = -5.5;

const SHIFTED_GREY = f(0.18 + SHIFT);
const GAIN_INVERSE = f(1 / GAIN);
// As OCIO's x86 build: SSE comparisons (a NaN takes the linear branch) and its polynomial log2 and pow.
const linToLog = (x: number): number => (x > X_BREAK ? sseLog2(f(f(x + SHIFT) * M)) : f(f(x * GAIN) + OFFSET));
const logToLin = (y: number): number => (y > Y_BREAK ? f(f(ssePower(2, y) * SHIFTED_GREY) - SHIFT) : f(f(y - OFFSET) * GAIN_INVERSE));

const fitted = new WeakMap<GradingRgbCurveOp, (FittedCurve | null)[]>();

function curvesOf(op: GradingRgbCurveOp): (FittedCurve | null)[] {
  let curves = fitted.get(op);
  if (!curves) {
    curves = [op.red, op.green, op.blue, op.master].map(fitCurve);
    fitted.set(op, curves);
  }
  return curves;
}

export function applyGradingRgbCurve(op: GradingRgbCurveOp, rgba: Float32Array): void {
  const [red, green, blue, master] = curvesOf(op);
  const channels = [red!, green!, blue!];
  const shaped = op.style === 'linear' && !op.bypassLinToLog;
  const inverse = op.direction === 'inverse';
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      let v = rgba[i + c]!;
      if (shaped) v = linToLog(v);
      v = inverse ? evalCurveInverse(channels[c]!, evalCurveInverse(master!, v)) : evalCurve(master!, evalCurve(channels[c]!, v));
      rgba[i + c] = shaped ? logToLin(v) : v;
    }
  }
}
