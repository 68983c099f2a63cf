// GradingPrimaryTransform and GradingRGBCurveTransform (config YAML maps, or CLF nodes mapped to the same keys) → ops.

import type { BSplineCurve } from './grading-bspline.js';
import type { Direction, GradingPrimaryOp, GradingRgbCurveOp, GradingStyle } from './op.js';

type Fail = (reason: string) => never;
type Fields = Record<string, unknown>;

export function gradingStyle(value: unknown, fail: Fail): GradingStyle {
  const style = String(value ?? 'log').toLowerCase();
  if (style === 'log' || style === 'linear' || style === 'video') return style;
  return fail(`grading style "${style}" is not log, linear or video`);
}

const isMap = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function numbers(value: unknown, key: string, fail: Fail): number[] {
  if (!Array.isArray(value) || value.some((v) => !Number.isFinite(Number(v)))) return fail(`${key} must be a list of numbers`);
  return value.map(Number);
}

function curve(value: unknown, key: string, fallback: BSplineCurve, fail: Fail): BSplineCurve {
  if (value === undefined || value === null) return fallback;
  if (!isMap(value) || value.control_points === undefined) return fail(`${key} needs \`control_points: [x0, y0, x1, y1, …]\``);
  const points = numbers(value.control_points, `${key}.control_points`, fail);
  if (points.length < 4 || points.length % 2 !== 0) fail(`${key}.control_points needs at least two x, y pairs`);
  for (let i = 2; i < points.length; i += 2)
    if (points[i]! < points[i - 2]!) fail(`${key}.control_points: x values must not decrease (point ${i / 2})`);
  const slopes = value.slopes === undefined ? undefined : numbers(value.slopes, `${key}.slopes`, fail);
  if (slopes && slopes.length !== points.length / 2) fail(`${key}.slopes needs one slope per control point`);
  return slopes ? { points, slopes } : { points };
}

export function gradingRgbCurveOp(t: Fields, direction: Direction, fail: Fail): GradingRgbCurveOp {
  const style = gradingStyle(t.style, fail);
  const fallback: BSplineCurve = style === 'linear' ? { points: [-7, -7, 0, 0, 7, 7] } : { points: [0, 0, 0.5, 0.5, 1, 1] };
  return {
    type: 'gradingRgbCurve',
    direction,
    style,
    bypassLinToLog: t.lintolog_bypass === true || t.lintolog_bypass === 'true',
    red: curve(t.red, 'red', fallback, fail),
    green: curve(t.green, 'green', fallback, fail),
    blue: curve(t.blue, 'blue', fallback, fail),
    master: curve(t.master, 'master', fallback, fail),
  };
}

function rgbm(value: unknown, key: string, fallback: number, fail: Fail): number[] {
  if (value === undefined || value === null) return [fallback, fallback, fallback, fallback];
  if (!isMap(value) || value.rgb === undefined || value.master === undefined)
    return fail(`${key} needs both \`rgb: [r, g, b]\` and \`master:\``);
  const rgb = numbers(value.rgb, `${key}.rgb`, fail);
  if (rgb.length !== 3) fail(`${key}.rgb must be 3 numbers`);
  const master = Number(value.master);
  if (!Number.isFinite(master)) fail(`${key}.master must be a number`);
  return [...rgb, master];
}

function optionalNumber(map: Fields, key: string, fallback: number, fail: Fail): number {
  if (map[key] === undefined || map[key] === null) return fallback;
  const v = Number(map[key]);
  return Number.isFinite(v) ? v : fail(`${key} must be a number`);
}

export function gradingPrimaryOp(t: Fields, direction: Direction, fail: Fail): GradingPrimaryOp {
  const style = gradingStyle(t.style, fail);
  const pivot = isMap(t.pivot) ? t.pivot : {};
  const clamp = isMap(t.clamp) ? t.clamp : {};
  const op: GradingPrimaryOp = {
    type: 'gradingPrimary',
    direction,
    style,
    brightness: rgbm(t.brightness, 'brightness', 0, fail),
    contrast: rgbm(t.contrast, 'contrast', 1, fail),
    gamma: rgbm(t.gamma, 'gamma', 1, fail),
    offset: rgbm(t.offset, 'offset', 0, fail),
    exposure: rgbm(t.exposure, 'exposure', 0, fail),
    lift: rgbm(t.lift, 'lift', 0, fail),
    gain: rgbm(t.gain, 'gain', 1, fail),
    saturation: optionalNumber(t, 'saturation', 1, fail),
    pivot: optionalNumber(pivot, 'contrast', style === 'log' ? -0.2 : 0.18, fail),
    pivotBlack: optionalNumber(pivot, 'black', 0, fail),
    pivotWhite: optionalNumber(pivot, 'white', 1, fail),
    clampBlack: optionalNumber(clamp, 'black', -Number.MAX_VALUE, fail),
    clampWhite: optionalNumber(clamp, 'white', Number.MAX_VALUE, fail),
  };
  // OCIO's validation (its lower bound 0.01 less 1e-6): these would divide by zero or invert the curve.
  const min = 0.01 - 0.000001;
  if (style !== 'linear' && op.gamma.some((g) => g < min)) fail('gamma values must be at least 0.01');
  if (style === 'linear' && op.contrast.some((c) => c < min)) fail('contrast values must be at least 0.01');
  if (op.pivotWhite - op.pivotBlack < min) fail('pivot white must be above pivot black');
  if (op.clampBlack > op.clampWhite) fail('clamp black must not be above clamp white');
  return op;
}
