// OCIO's Grading transforms (config YAML maps, or CTF nodes mapped to the same keys) → ops, with OCIO's validation.

import type { BSplineCurve } from './grading-bspline.js';
import { HUE_CURVE_KINDS } from './grading-hue-curve.js';
import type { HueSplineKind } from './grading-hue-spline.js';
import { toneValueProblem } from './grading-tone-prepare.js';
import {
  HUE_CURVE_NAMES,
  type Direction,
  type GradingHueCurveOp,
  type GradingPrimaryOp,
  type GradingRgbCurveOp,
  type GradingStyle,
  type GradingToneOp,
  type HueCurveName,
  type ToneZone,
} from './op.js';

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

const zoneDefaults: Record<GradingStyle, Record<ToneZoneName, [number, number]>> = {
  log: { blacks: [0.4, 0.4], shadows: [0.5, 0], midtones: [0.4, 0.6], highlights: [0.3, 1], whites: [0.4, 0.5] },
  linear: { blacks: [0, 4], shadows: [2, -7], midtones: [0, 8], highlights: [-2, 9], whites: [0, 8] },
  video: { blacks: [0.4, 0.4], shadows: [0.6, 0], midtones: [0.4, 0.7], highlights: [0.2, 1], whites: [0.5, 0.5] },
};
type ToneZoneName = 'blacks' | 'shadows' | 'midtones' | 'highlights' | 'whites';

function toneZone(t: Fields, key: ToneZoneName, style: GradingStyle, fail: Fail): ToneZone {
  const [startDefault, widthDefault] = zoneDefaults[style][key];
  const value = t[key];
  if (value === undefined || value === null) return { rgbm: [1, 1, 1, 1], start: startDefault, width: widthDefault };
  const startKey = key === 'midtones' ? 'center' : 'start';
  const widthKey = key === 'shadows' || key === 'highlights' ? 'pivot' : 'width';
  if (!isMap(value) || [`rgb`, 'master', startKey, widthKey].some((k) => value[k] === undefined || value[k] === null))
    return fail(`${key} needs \`rgb: [r, g, b]\`, \`master:\`, \`${startKey}:\` and \`${widthKey}:\``);
  return {
    rgbm: rgbm(value, key, 1, fail),
    start: optionalNumber(value, startKey, 0, fail),
    width: optionalNumber(value, widthKey, 0, fail),
  };
}

export function gradingToneOp(t: Fields, direction: Direction, fail: Fail): GradingToneOp {
  const style = gradingStyle(t.style, fail);
  const zone = (key: ToneZoneName): ToneZone => toneZone(t, key, style, fail);
  const op: GradingToneOp = {
    type: 'gradingTone',
    direction,
    style,
    blacks: zone('blacks'),
    shadows: zone('shadows'),
    midtones: zone('midtones'),
    highlights: zone('highlights'),
    whites: zone('whites'),
    sContrast: optionalNumber(t, 's_contrast', 1, fail),
  };
  const problem = toneValueProblem(op);
  return problem ? fail(problem) : op;
}

const SIXTHS = [0, 1 / 6, 2 / 6, 0.5, 4 / 6, 5 / 6].map(Math.fround);
const flatAt = (xs: number[], y: number): BSplineCurve => ({ points: xs.flatMap((x) => [x, y]) });
const diagonal = (xs: number[]): BSplineCurve => ({ points: xs.flatMap((x) => [x, x]) });

/** OCIO's default (identity) curves of each style. */
function hueCurveDefaults(style: GradingStyle): Record<HueCurveName, BSplineCurve> {
  const unit = style === 'linear' ? [-7, 0, 7] : [0, 0.5, 1];
  return {
    hueHue: diagonal(SIXTHS),
    hueSat: flatAt(SIXTHS, 1),
    hueLum: flatAt(SIXTHS, 1),
    lumSat: flatAt(unit, 1),
    satSat: diagonal([0, 0.5, 1]),
    lumLum: diagonal(unit),
    satLum: flatAt([0, 0.5, 1], 1),
    hueFx: flatAt(SIXTHS, 0),
  };
}

const snakeCase = (name: HueCurveName): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** OCIO's GradingBSplineCurve::validate for the hue curves' kinds. */
function hueCurveProblem(curve: BSplineCurve, kind: HueSplineKind): string | null {
  const xs = curve.points.filter((_, i) => i % 2 === 0).map(Math.fround);
  const ys = curve.points.filter((_, i) => i % 2 === 1).map(Math.fround);
  const n = xs.length;
  if (kind === 'hueHue' && (xs[0]! < 0 || xs[n - 1]! > 1)) return 'x values must be from 0 to 1';
  if (kind === 'hueHue' || kind === 'diagonal') {
    let last = kind === 'hueHue' ? Math.fround(ys[n - 1]! - 1) : -Infinity;
    for (const y of ys) {
      if (y < last) return 'y values must not decrease';
      last = y;
    }
  }
  const periodic = kind === 'hueHue' || kind === 'periodic0' || kind === 'periodic1';
  if (periodic && n === 2 && Math.abs(1 - Math.fround(xs[1]! - xs[0]!)) < 1e-3) return 'its two x values must not wrap to the same hue';
  return null;
}

export function gradingHueCurveOp(t: Fields, direction: Direction, fail: Fail): GradingHueCurveOp {
  const style = gradingStyle(t.style, fail);
  const bypassHsy = t.hsy_transform !== undefined && t.hsy_transform !== null;
  if (bypassHsy && t.hsy_transform !== 'none')
    fail(`hsy_transform "${String(t.hsy_transform)}" is not "none" (leave it out to work in HSY)`);
  const defaults = hueCurveDefaults(style);
  const curves = {} as Record<HueCurveName, BSplineCurve>;
  for (const name of HUE_CURVE_NAMES) {
    const key = snakeCase(name);
    curves[name] = curve(t[key], key, defaults[name], fail);
    const problem = hueCurveProblem(curves[name], HUE_CURVE_KINDS[name]);
    if (problem) fail(`${key}: ${problem}`);
  }
  return { type: 'gradingHueCurve', direction, style, bypassHsy, curves };
}
