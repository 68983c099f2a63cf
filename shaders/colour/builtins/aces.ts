// ACES built-ins: AP0/AP1 conversions, ACEScc/ACEScct/ACESproxy/ADX, the LMTs and the ACES 2.0 output transforms (OCIO's ACES.cpp).

import { halfLutOf } from '../ops/lut1d-half.js';
import type { LogOp, Op } from '../ops/op.js';
import { lut1dOf } from './luts.js';
import { matrixOp, scaleOp } from './matrix-ops.js';
import {
  AP0,
  AP1,
  conversionMatrix,
  inv3,
  apply3,
  P3_D60,
  P3_D65,
  REC2020,
  REC2020_D60,
  REC709,
  REC709_D60,
  toXyzD65,
  XYZ_E,
  type Primaries,
} from '../ops/aces2/primaries.js';

const f = Math.fround;
const ap0ToAp1 = (): number[] => conversionMatrix(AP0, AP1, 'none');
const ap1ToAp0 = (): number[] => conversionMatrix(AP1, AP0, 'none');

const plainLog = (base: number, direction: 'forward' | 'inverse'): LogOp => ({
  type: 'log',
  direction,
  base,
  params: [0, 1, 2].map(() => [1, 0, 1, 0]),
  camera: false,
});

const acesCctToLinear = (): LogOp => {
  const params = [1 / 17.52, 9.72 / 17.52, 1, 0, 0.0078125];
  return { type: 'log', direction: 'inverse', base: 2, params: [params, params, params], camera: true };
};

function acesCcToAces(): Op[] {
  const lut = lut1dOf(
    4096,
    (input) => {
      const x = input * (1.5 - -0.36) + -0.36;
      return x < (9.72 - 15) / 17.52 ? (Math.pow(2, x * 17.52 - 9.72) - Math.pow(2, -16)) * 2 : Math.pow(2, x * 17.52 - 9.72);
    },
    'builtin:ACEScc_to_LINEAR',
  );
  return [
    { type: 'range', minIn: -0.36, maxIn: 1.5, minOut: 0, maxOut: 1 },
    lut,
    matrixOp(ap1ToAp0()),
    { type: 'range', minIn: 0, minOut: 0 },
  ];
}

const ADX_TABLE = [
  [-0.19, -6],
  [0.01, -2.721718645],
  [0.028, -2.521718645],
  [0.054, -2.321718645],
  [0.095, -2.121718645],
  [0.145, -1.921718645],
  [0.22, -1.721718645],
  [0.3, -1.521718645],
  [0.4, -1.321718645],
  [0.5, -1.121718645],
  [0.6, -0.926545676714876],
] as const;

function adxDensityToLogExposure(x: number): number {
  const first = ADX_TABLE[0],
    second = ADX_TABLE[1],
    last = ADX_TABLE[ADX_TABLE.length - 1]!;
  if (x < first[0]) {
    const slope = (second[1] - first[1]) / (second[0] - first[0]);
    return Math.max(first[1] - slope * (first[0] - x), -10);
  }
  if (x <= last[0]) {
    if (x >= last[0]) return last[1];
    for (let k = 1; k < ADX_TABLE.length; k++) {
      if (x < ADX_TABLE[k]![0]) {
        const [x0, y0] = ADX_TABLE[k - 1]!,
          [x1, y1] = ADX_TABLE[k]!;
        const t = (x - x0) / (x1 - x0);
        return y0 * (1 - t) + y1 * t;
      }
    }
  }
  const refPoint = ((7120 - 1520) / 8000) * (100 / 55) - Math.log10(0.18);
  return Math.min((100 / 55) * x - refPoint, 4.8162678);
}

function adxToAces(scale: number, offset: number): Op[] {
  return [
    scaleOp(scale, offset),
    matrixOp([0.75573, 0.22197, 0.0223, 0.05901, 0.96928, -0.02829, 0.16134, 0.07406, 0.7646]),
    halfLutOf(adxDensityToLogExposure, 'builtin:ADX_TO_LOG_EXPOSURE'),
    plainLog(10, 'inverse'),
    matrixOp([0.72286, 0.1263, 0.15084, 0.11923, 0.76418, 0.11659, 0.01427, 0.08213, 0.90359]),
  ];
}

const primariesParams = (p: Primaries): number[] => [
  p.red[0],
  p.red[1],
  p.green[0],
  p.green[1],
  p.blue[0],
  p.blue[1],
  p.white[0],
  p.white[1],
];

/** ACES 2.0's output transform to CIE XYZ (D65): clamp in AP1, the JMh fixed function, the peak clamp, white scaling. */
function aces2Output(peak: number, limiting: Primaries, encoding: Primaries, linearScale: number, scaleWhite: boolean): Op[] {
  const upperBound = f(8 * (128 + 768 * f(f(Math.log(f(peak / 100))) / f(Math.log(f(10000 / 100))))));
  const toAp1 = ap0ToAp1();
  const ops: Op[] = [
    matrixOp(toAp1),
    { type: 'range', minIn: 0, maxIn: upperBound, minOut: 0, maxOut: upperBound },
    matrixOp(inv3(toAp1)),
    { type: 'fixedFunction', style: 'ACES_OutputTransform20', direction: 'forward', params: [peak, ...primariesParams(limiting)] },
    { type: 'range', minIn: 0, maxIn: f(peak / 100), minOut: 0, maxOut: f(peak / 100) },
  ];
  if (scaleWhite) {
    const white = apply3(conversionMatrix(limiting, encoding, 'none'), [1, 1, 1]);
    ops.push(scaleOp(1 / Math.max(white[0]!, white[1]!, white[2]!)));
  }
  if (linearScale !== 1) ops.push(scaleOp(f(linearScale)));
  ops.push(matrixOp(toXyzD65(limiting, 'none')));
  return ops;
}

const ACES2_OUTPUTS: [string, number, Primaries, Primaries, number, boolean][] = [
  ['SDR-100nit-REC709', 100, REC709, REC709, 1, false],
  ['SDR-100nit-P3-D65', 100, P3_D65, P3_D65, 1, false],
  ['HDR-108nit-P3-D65', 225, P3_D65, P3_D65, 0.48, false],
  ['HDR-300nit-P3-D65', 625, P3_D65, P3_D65, 0.48, false],
  ['HDR-500nit-P3-D65', 500, P3_D65, P3_D65, 1, false],
  ['HDR-1000nit-P3-D65', 1000, P3_D65, P3_D65, 1, false],
  ['HDR-2000nit-P3-D65', 2000, P3_D65, P3_D65, 1, false],
  ['HDR-4000nit-P3-D65', 4000, P3_D65, P3_D65, 1, false],
  ['HDR-500nit-REC2020', 500, REC2020, REC2020, 1, false],
  ['HDR-1000nit-REC2020', 1000, REC2020, REC2020, 1, false],
  ['HDR-2000nit-REC2020', 2000, REC2020, REC2020, 1, false],
  ['HDR-4000nit-REC2020', 4000, REC2020, REC2020, 1, false],
  ['SDR-100nit-REC709-D60-in-REC709-D65', 100, REC709_D60, REC709, 1, true],
  ['SDR-100nit-REC709-D60-in-P3-D65', 100, REC709_D60, P3_D65, 1, true],
  ['SDR-100nit-REC709-D60-in-REC2020-D65', 100, REC709_D60, REC2020, 1, true],
  ['SDR-100nit-P3-D60-in-P3-D65', 100, P3_D60, P3_D65, 1, true],
  ['SDR-100nit-P3-D60-in-XYZ-E', 100, P3_D60, XYZ_E, 1, false],
  ['HDR-108nit-P3-D60-in-P3-D65', 225, P3_D60, P3_D65, 0.48, true],
  ['HDR-300nit-P3-D60-in-XYZ-E', 625, P3_D60, XYZ_E, 0.48, true],
  ['HDR-500nit-P3-D60-in-P3-D65', 500, P3_D60, P3_D65, 1, true],
  ['HDR-1000nit-P3-D60-in-P3-D65', 1000, P3_D60, P3_D65, 1, true],
  ['HDR-2000nit-P3-D60-in-P3-D65', 2000, P3_D60, P3_D65, 1, true],
  ['HDR-4000nit-P3-D60-in-P3-D65', 4000, P3_D60, P3_D65, 1, true],
  ['HDR-500nit-P3-D60-in-REC2020-D65', 500, P3_D60, REC2020, 1, true],
  ['HDR-1000nit-P3-D60-in-REC2020-D65', 1000, P3_D60, REC2020, 1, true],
  ['HDR-2000nit-P3-D60-in-REC2020-D65', 2000, P3_D60, REC2020, 1, true],
  ['HDR-4000nit-P3-D60-in-REC2020-D65', 4000, P3_D60, REC2020, 1, true],
  ['HDR-500nit-REC2020-D60-in-REC2020-D65', 500, REC2020_D60, REC2020, 1, true],
  ['HDR-1000nit-REC2020-D60-in-REC2020-D65', 1000, REC2020_D60, REC2020, 1, true],
  ['HDR-2000nit-REC2020-D60-in-REC2020-D65', 2000, REC2020_D60, REC2020, 1, true],
  ['HDR-4000nit-REC2020-D60-in-REC2020-D65', 4000, REC2020_D60, REC2020, 1, true],
];

export const ACES_BUILTINS: Record<string, () => Op[]> = {
  'UTILITY - ACES-AP0_to_CIE-XYZ-D65_BFD': () => [matrixOp(toXyzD65(AP0, 'bradford'))],
  'UTILITY - ACES-AP1_to_CIE-XYZ-D65_BFD': () => [matrixOp(toXyzD65(AP1, 'bradford'))],
  'UTILITY - ACES-AP1_to_LINEAR-REC709_BFD': () => [matrixOp(conversionMatrix(AP1, REC709, 'bradford'))],
  'CURVE - ACEScct-LOG_to_LINEAR': () => [acesCctToLinear()],
  'ACEScct_to_ACES2065-1': () => [acesCctToLinear(), matrixOp(ap1ToAp0())],
  'ACEScc_to_ACES2065-1': acesCcToAces,
  'ACEScg_to_ACES2065-1': () => [matrixOp(ap1ToAp0())],
  'ACESproxy10i_to_ACES2065-1': () => [
    { type: 'range', minIn: 64 / 1023, maxIn: 940 / 1023, minOut: (64 - 425) / 50 - 2.5, maxOut: (940 - 425) / 50 - 2.5 },
    plainLog(2, 'inverse'),
    matrixOp(ap1ToAp0()),
  ],
  'ADX10_to_ACES2065-1': () => adxToAces(1023 / 500, -95 / 500),
  'ADX16_to_ACES2065-1': () => adxToAces(65535 / 8000, -1520 / 8000),
  'ACES-LMT - BLUE_LIGHT_ARTIFACT_FIX': () => [
    matrixOp([
      0.9404372683, -0.0183068787, 0.0778696104, 0.0083786969, 0.8286599939, 0.1629613092, 0.0005471261, -0.0008833746, 1.0003362486,
    ]),
  ],
  'ACES-LMT - ACES 1.3 Reference Gamut Compression': () => [
    matrixOp(ap0ToAp1()),
    { type: 'fixedFunction', style: 'ACES_GamutComp13', direction: 'forward', params: [1.147, 1.264, 1.312, 0.815, 0.803, 0.88, 1.2] },
    matrixOp(inv3(ap0ToAp1())),
  ],
  ...Object.fromEntries(
    ACES2_OUTPUTS.map(([name, peak, limiting, encoding, linearScale, scaleWhite]) => [
      `ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - ${name}_2.0`,
      () => aces2Output(peak, limiting, encoding, linearScale, scaleWhite),
    ]),
  ),
};
