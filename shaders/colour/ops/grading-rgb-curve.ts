// GradingRGBCurveTransform: red, green, blue then master B-spline curves, in log/video space or through OCIO's lin-to-log shaper.

import { evalCurve, evalCurveInverse, fitCurve, type FittedCurve } from './grading-bspline.js';
import type { GradingRgbCurveOp } from './op.js';
import { sseLinToLog as linToLog, sseLogToLin as logToLin } from './grading-sse-math.js';

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
