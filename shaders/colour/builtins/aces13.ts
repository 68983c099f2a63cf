// ACES 1.3 output transforms (OCIO's ACES.cpp "ACES-OUTPUT … _1.0/_1.1"): RRT preamble, B-spline tone curves, ODT clamps.

import { halfLutOf } from '../ops/lut1d-half.js';
import type { GradingRgbCurveOp, LogOp, Op } from '../ops/op.js';
import {
  AP0,
  AP1,
  conversionMatrix,
  P3_D65,
  REC2020,
  REC709,
  rgbToXyz,
  toXyzD65,
  vonKries,
  WHITE_XYZ,
  type Primaries,
} from '../ops/aces2/primaries.js';
import { matrixOp, scaleOp } from './matrix-ops.js';

const log10 = (direction: 'forward' | 'inverse'): LogOp => ({
  type: 'log',
  direction,
  base: 10,
  params: [0, 1, 2].map(() => [1, 0, 1, 0]),
  camera: false,
});

const clampLow: Op = { type: 'range', minIn: 0, minOut: 0 };
const clampHigh = (max: number): Op => ({ type: 'range', maxIn: max, maxOut: max });
const IDENTITY_CURVE = { points: [0, 0, 1, 1] };

/** A master-only curve in log style, with OCIO's hard-coded slopes. */
const masterCurve = (points: number[], slopes: number[]): GradingRgbCurveOp => ({
  type: 'gradingRgbCurve',
  direction: 'forward',
  style: 'log',
  bypassLinToLog: false,
  red: IDENTITY_CURVE,
  green: IDENTITY_CURVE,
  blue: IDENTITY_CURVE,
  master: { points, slopes },
});

function rrtPreamble(): Op[] {
  return [
    { type: 'fixedFunction', style: 'ACES_Glow10', direction: 'forward', params: [] },
    { type: 'fixedFunction', style: 'ACES_RedMod10', direction: 'forward', params: [] },
    clampLow,
    matrixOp(conversionMatrix(AP0, AP1, 'none')),
    clampLow,
    matrixOp([
      0.970889148671, 0.026963270632, 0.002147580696, 0.010889148671, 0.986963270632, 0.002147580696, 0.010889148671, 0.026963270632,
      0.962147580696,
    ]),
  ];
}

const RRT_SDR = masterCurve(
  [
    -5.26017743, -4, -3.75502745, -3.57868829, -2.24987747, -1.82131329, -0.74472749, 0.68124124, 1.06145248, 2.87457742, 2.86763245,
    3.83406206, 4.67381243, 4,
  ],
  [0, 0.55982688, 1.77532247, 1.55, 0.8787017, 0.18374463, 0],
);

const ODT_SDR = masterCurve(
  [
    -2.54062362, -1.69897, -2.08035721, -1.588435, -1.6200908, -1.3535, -1.15982439, -1.04695, -0.69955799, -0.6564, -0.23929158, -0.22141,
    0.22097483, 0.22814402, 0.68124124, 0.68124124, 1.01284632, 0.99142189, 1.3444514, 1.258, 1.67605648, 1.44995, 2.00766156, 1.5591,
    2.33926665, 1.6226, 2.67087173, 1.66065457, 3.00247681, 1.68124124,
  ],
  [
    0, 0.4803088, 0.5405565, 0.79149813, 0.9055625, 0.98460368, 0.96884766, 1, 0.87078346, 0.73702127, 0.42068113, 0.23763206, 0.14535362,
    0.08416378, 0.04,
  ],
);

/** The HDR RRT+ODT curves per peak luminance (nits): points then slopes. */
const HDR_CURVES: Record<number, [number[], number[]]> = {
  1000: [
    [
      -5.60050155, -4, -4.09535157, -3.57868829, -2.59020159, -1.82131329, -1.08505161, 0.68124124, 0.22347059, 2.22673503, 1.53199279,
      2.87906206, 2.840515, 3,
    ],
    [0, 0.55982688, 1.77532247, 1.55, 0.81219728, 0.1848466, 0],
  ],
  2000: [
    [
      -5.59738488, -4, -4.0922349, -3.57868829, -2.58708492, -1.82131329, -1.08193494, 0.68124124, 0.37639718, 2.42130131, 1.8347293,
      3.16609199, 3.29306142, 3.30103,
    ],
    [0, 0.55982688, 1.77532247, 1.55, 0.83637009, 0.18505799, 0],
  ],
  4000: [
    [
      -5.59503319, -4, -4.08988322, -3.57868829, -2.58473324, -1.82131329, -1.07958326, 0.68124124, 0.52855878, 2.61625839, 2.13670081,
      3.45351273, 3.74484285, 3.60205999,
    ],
    [0, 0.55982688, 1.77532247, 1.55, 0.85652519, 0.18474395, 0],
  ],
  108: [
    [
      -5.37852506, -4, -3.87337508, -3.57868829, -2.3682251, -1.82131329, -0.86307513, 0.68124124, -0.0355771, 1.60464482, 0.79192092,
      1.96008059, 1.61941895, 2.03342376,
    ],
    [0, 0.55982688, 1.77532247, 1.55, 0.68179646, 0.17726487, 0],
  ],
};

function sdrToneCurve(): Op[] {
  const cinemaWhite = 48,
    cinemaBlack = 0.02;
  const scale = 1 / (cinemaWhite - cinemaBlack);
  return [log10('forward'), RRT_SDR, ODT_SDR, log10('inverse'), scaleOp(scale, -cinemaBlack * scale)];
}

function hdrToneCurve(peakNits: number): Op[] {
  const [points, slopes] = HDR_CURVES[peakNits]!;
  const minNits = 0.0001;
  const scale = 1 / (peakNits - minNits);
  return [log10('forward'), masterCurve(points, slopes), log10('inverse'), scaleOp(scale, -minNits * scale)];
}

function videoAdjustment(): Op[] {
  return [
    { type: 'fixedFunction', style: 'ACES_DarkToDim10', direction: 'forward', params: [] },
    matrixOp([
      0.949056010175, 0.047185723607, 0.003758266219, 0.019056010175, 0.977185723607, 0.003758266219, 0.019056010175, 0.047185723607,
      0.933758266219,
    ]),
  ];
}

const unitRange: Op = { type: 'range', minIn: 0, maxIn: 1, minOut: 0, maxOut: 1 };

const sdrPrimaryClamp = (limit: Primaries): Op[] => [
  matrixOp(conversionMatrix(AP1, limit, 'bradford')),
  unitRange,
  matrixOp(rgbToXyz(limit)),
];

const hdrPrimaryClamp = (limit: Primaries): Op[] => [
  matrixOp(conversionMatrix(AP1, limit, 'none')),
  unitRange,
  matrixOp(rgbToXyz(limit)),
  matrixOp(vonKries(WHITE_XYZ.d60, WHITE_XYZ.d65, 'bradford')),
];

/** The DCI "roll white" shoulder that keeps the simulated white under the projector's. */
function rollWhite(newWhite: number, source: string): Op {
  return halfLutOf((x) => {
    const width = 0.5,
      x0 = -1,
      x1 = x0 + width;
    const y0 = -newWhite,
      y1 = x1,
      m1 = x1 - x0;
    const a = y0 - y1 + m1,
      b = 2 * (y1 - y0) - m1,
      c = y0;
    const t = (-x - x0) / (x1 - x0);
    if (t < 0) return -(t * b + c);
    if (t > 1) return x;
    return -((t * a + b) * t + c);
  }, source);
}

const ap1ToXyzD65 = (): Op => matrixOp(toXyzD65(AP1, 'bradford'));
const dciToD65 = (): Op => matrixOp(vonKries(WHITE_XYZ.dci, WHITE_XYZ.d65, 'bradford'));
const sdr = (...rest: Op[][]): Op[] => [...rrtPreamble(), ...sdrToneCurve(), ...rest.flat()];
const hdr = (peakNits: number, limit: Primaries): Op[] => [
  ...rrtPreamble(),
  ...hdrToneCurve(peakNits),
  ...hdrPrimaryClamp(limit),
  scaleOp(peakNits * 0.01),
];

const PREFIX = 'ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - ';

export const ACES13_BUILTINS: Record<string, () => Op[]> = {
  [`${PREFIX}SDR-CINEMA_1.0`]: () => sdr([ap1ToXyzD65()]),
  [`${PREFIX}SDR-VIDEO_1.0`]: () => sdr(videoAdjustment(), [ap1ToXyzD65()]),
  [`${PREFIX}SDR-CINEMA-REC709lim_1.1`]: () => sdr(sdrPrimaryClamp(REC709)),
  [`${PREFIX}SDR-VIDEO-REC709lim_1.1`]: () => sdr(videoAdjustment(), sdrPrimaryClamp(REC709)),
  [`${PREFIX}SDR-VIDEO-P3lim_1.1`]: () => sdr(videoAdjustment(), sdrPrimaryClamp(P3_D65)),
  [`${PREFIX}SDR-CINEMA-D60sim-D65_1.1`]: () => sdr([clampHigh(1), scaleOp(0.964), matrixOp(rgbToXyz(AP1))]),
  [`${PREFIX}SDR-VIDEO-D60sim-D65_1.0`]: () => sdr([clampHigh(1), scaleOp(0.955)], videoAdjustment(), [matrixOp(rgbToXyz(AP1))]),
  [`${PREFIX}SDR-CINEMA-D60sim-DCI_1.0`]: () =>
    sdr([rollWhite(0.918, 'builtin:ACES_ROLL_WHITE_D60'), clampHigh(0.918), scaleOp(0.96), matrixOp(rgbToXyz(AP1)), dciToD65()]),
  [`${PREFIX}SDR-CINEMA-D65sim-DCI_1.1`]: () =>
    sdr([rollWhite(0.908, 'builtin:ACES_ROLL_WHITE_D65'), clampHigh(0.908), scaleOp(0.9575), ap1ToXyzD65(), dciToD65()]),
  [`${PREFIX}HDR-VIDEO-1000nit-15nit-REC2020lim_1.1`]: () => hdr(1000, REC2020),
  [`${PREFIX}HDR-VIDEO-1000nit-15nit-P3lim_1.1`]: () => hdr(1000, P3_D65),
  [`${PREFIX}HDR-VIDEO-2000nit-15nit-REC2020lim_1.1`]: () => hdr(2000, REC2020),
  [`${PREFIX}HDR-VIDEO-2000nit-15nit-P3lim_1.1`]: () => hdr(2000, P3_D65),
  [`${PREFIX}HDR-VIDEO-4000nit-15nit-REC2020lim_1.1`]: () => hdr(4000, REC2020),
  [`${PREFIX}HDR-VIDEO-4000nit-15nit-P3lim_1.1`]: () => hdr(4000, P3_D65),
  [`${PREFIX}HDR-CINEMA-108nit-7.2nit-P3lim_1.1`]: () => hdr(108, P3_D65),
};
