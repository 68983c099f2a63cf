// The ops a processor runs: plain data, one kind per OCIO op type, each applied in place to RGBA float32 pixels.

import type { BSplineCurve } from './grading-bspline.js';

export type Direction = 'forward' | 'inverse';

/** out = m·in + offset over RGBA (m row-major 4×4). */
export interface MatrixOp {
  type: 'matrix';
  m: number[];
  offset: number[];
}

/** Scale and offset from [minIn, maxIn] to [minOut, maxOut], clamped to the out bounds that are set. */
export interface RangeOp {
  type: 'range';
  minIn?: number;
  maxIn?: number;
  minOut?: number;
  maxOut?: number;
}

export type GammaStyle = 'basic' | 'basicMirror' | 'basicPassThru' | 'moncurve' | 'moncurveMirror';

/** Exponent (basic) or exponent with a linear segment (moncurve); per channel R, G, B, A. */
export interface GammaOp {
  type: 'gamma';
  style: GammaStyle;
  direction: Direction;
  gamma: number[];
  /** Moncurve only. */
  offset: number[];
}

/** OCIO's log params per channel: [logSideSlope, logSideOffset, linSideSlope, linSideOffset, linSideBreak?, linearSlope?]. */
export interface LogOp {
  type: 'log';
  direction: Direction;
  base: number;
  params: number[][];
  camera: boolean;
}

export interface CdlOp {
  type: 'cdl';
  direction: Direction;
  clamp: boolean;
  slope: number[];
  offset: number[];
  power: number[];
  saturation: number;
}

export type ExposureContrastStyle = 'linear' | 'video' | 'log';

export interface ExposureContrastOp {
  type: 'exposureContrast';
  direction: Direction;
  style: ExposureContrastStyle;
  exposure: number;
  contrast: number;
  gamma: number;
  pivot: number;
  logExposureStep: number;
  logMidGray: number;
}

/** A 1D LUT on [0, 1], `values` interleaved RGB, `length` entries per channel. */
export interface Lut1DOp {
  type: 'lut1d';
  direction: Direction;
  length: number;
  values: Float32Array;
  interpolation: 'linear' | 'nearest';
  /** Identifies the table for pair-inverse detection. */
  source: string;
  /** CLF's hueAdjust="dw3": the middle channel is set to keep the input's hue after the curves. */
  hueAdjust?: boolean;
}

/** A 3D LUT on [0, 1]³, `values` RGB with blue fastest (index (r·n + g)·n + b). */
export interface Lut3DOp {
  type: 'lut3d';
  direction: Direction;
  size: number;
  values: Float32Array;
  interpolation: 'linear' | 'tetrahedral' | 'nearest';
  source: string;
}

/** One of OCIO's fixed functions (`FixedFunctionTransform` style names, e.g. ACES_OutputTransform20), with its numeric params. */
export interface FixedFunctionOp {
  type: 'fixedFunction';
  style: string;
  direction: Direction;
  params: number[];
}

/** A 1D LUT indexed by the half-float code of the input (65536 entries, one channel applied to R, G and B). */
export interface HalfLut1DOp {
  type: 'lut1dHalf';
  direction: Direction;
  values: Float32Array;
  source: string;
}

export type GradingStyle = 'log' | 'linear' | 'video';

/** GradingRGBCurveTransform: per-channel then master B-spline curves ([x0, y0, x1, y1, …] control points, optional slopes). */
export interface GradingRgbCurveOp {
  type: 'gradingRgbCurve';
  direction: Direction;
  style: GradingStyle;
  bypassLinToLog: boolean;
  red: BSplineCurve;
  green: BSplineCurve;
  blue: BSplineCurve;
  master: BSplineCurve;
}

/** GradingPrimaryTransform's values; each RGBM list is [red, green, blue, master]. */
export interface GradingPrimaryOp {
  type: 'gradingPrimary';
  direction: Direction;
  style: GradingStyle;
  brightness: number[];
  contrast: number[];
  gamma: number[];
  offset: number[];
  exposure: number[];
  lift: number[];
  gain: number[];
  saturation: number;
  pivot: number;
  pivotBlack: number;
  pivotWhite: number;
  /** ∓Number.MAX_VALUE: no clamp. */
  clampBlack: number;
  clampWhite: number;
}

/** One of GradingTone's zones: a gain per channel [red, green, blue, master], and where the zone starts and how wide it is. */
export interface ToneZone {
  rgbm: number[];
  /** The centre for midtones. */
  start: number;
  /** The pivot for shadows and highlights. */
  width: number;
}

/** GradingToneTransform: blacks, shadows, midtones, highlights and whites zones, then an S-contrast. */
export interface GradingToneOp {
  type: 'gradingTone';
  direction: Direction;
  style: GradingStyle;
  blacks: ToneZone;
  shadows: ToneZone;
  midtones: ToneZone;
  highlights: ToneZone;
  whites: ToneZone;
  sContrast: number;
}

/** GradingHueCurveTransform's eight curves, in OCIO's order (HueCurveType). */
export const HUE_CURVE_NAMES = ['hueHue', 'hueSat', 'hueLum', 'lumSat', 'satSat', 'lumLum', 'satLum', 'hueFx'] as const;
export type HueCurveName = (typeof HUE_CURVE_NAMES)[number];

/** GradingHueCurveTransform: curves applied in OCIO's hue/saturation/luma space (HSY), or on RGB as given when `bypassHsy`. */
export interface GradingHueCurveOp {
  type: 'gradingHueCurve';
  direction: Direction;
  style: GradingStyle;
  bypassHsy: boolean;
  curves: Record<HueCurveName, BSplineCurve>;
}

export type Op =
  | MatrixOp
  | RangeOp
  | GammaOp
  | LogOp
  | CdlOp
  | ExposureContrastOp
  | Lut1DOp
  | Lut3DOp
  | FixedFunctionOp
  | HalfLut1DOp
  | GradingRgbCurveOp
  | GradingPrimaryOp
  | GradingToneOp
  | GradingHueCurveOp;

export const IDENTITY_MATRIX: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function identityMatrixOp(): MatrixOp {
  return { type: 'matrix', m: [...IDENTITY_MATRIX], offset: [0, 0, 0, 0] };
}

export function flip(direction: Direction): Direction {
  return direction === 'forward' ? 'inverse' : 'forward';
}
