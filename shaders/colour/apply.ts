// One op applied to RGBA float32 pixels in place: the dispatch to each op's module.

import { applyCdl } from './ops/cdl.js';
import { applyExposureContrast } from './ops/exposure-contrast.js';
import { applyFixedFunction } from './ops/fixed-function.js';
import { applyGamma } from './ops/gamma.js';
import { applyGradingPrimary } from './ops/grading-primary.js';
import { applyGradingRgbCurve } from './ops/grading-rgb-curve.js';
import { applyGradingHueCurve } from './ops/grading-hue-curve.js';
import { applyGradingTone } from './ops/grading-tone.js';
import { applyLog } from './ops/log.js';
import { applyLut1D } from './ops/lut1d.js';
import { applyHalfLut1D } from './ops/lut1d-half.js';
import { applyLut3D } from './ops/lut3d.js';
import { applyMatrix } from './ops/matrix.js';
import type { Op } from './ops/op.js';
import { applyRange } from './ops/range.js';

export function applyOp(op: Op, rgba: Float32Array): void {
  switch (op.type) {
    case 'matrix':
      return applyMatrix(op, rgba);
    case 'range':
      return applyRange(op, rgba);
    case 'gamma':
      return applyGamma(op, rgba);
    case 'log':
      return applyLog(op, rgba);
    case 'cdl':
      return applyCdl(op, rgba);
    case 'exposureContrast':
      return applyExposureContrast(op, rgba);
    case 'lut1d':
      return applyLut1D(op, rgba);
    case 'lut3d':
      return applyLut3D(op, rgba);
    case 'fixedFunction':
      return applyFixedFunction(op, rgba);
    case 'lut1dHalf':
      return applyHalfLut1D(op, rgba);
    case 'gradingRgbCurve':
      return applyGradingRgbCurve(op, rgba);
    case 'gradingPrimary':
      return applyGradingPrimary(op, rgba);
    case 'gradingTone':
      return applyGradingTone(op, rgba);
    case 'gradingHueCurve':
      return applyGradingHueCurve(op, rgba);
  }
}

/** Applies ops in order to RGBA float32 pixels, in place; alpha passes through unchanged. */
export function applyOps(ops: readonly Op[], rgba: Float32Array): void {
  const alpha = new Float32Array(rgba.length / 4);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3]!;
  for (const op of ops) applyOp(op, rgba);
  for (let i = 0; i < alpha.length; i++) rgba[i * 4 + 3] = alpha[i]!;
}
