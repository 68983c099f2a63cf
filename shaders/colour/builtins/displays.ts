// Display built-ins: CIE XYZ (D65) to each display's primaries and encoding, and the PQ / HLG curves (OCIO's Displays.cpp).

import { halfLutOf } from '../ops/lut1d-half.js';
import type { GammaOp, GammaStyle, Op } from '../ops/op.js';
import { matrixOp, scaleOp } from './matrix-ops.js';
import { fromXyzD65, P3_D60, P3_D65, P3_DCI, REC2020, REC709, type Adaptation, type Primaries } from '../ops/aces2/primaries.js';

const copySign = (mag: number, sign: number): number => (sign < 0 || Object.is(sign, -0) ? -Math.abs(mag) : Math.abs(mag));

const PQ = { m1: (0.25 * 2610) / 4096, m2: (128 * 2523) / 4096, c2: (32 * 2413) / 4096, c3: (32 * 2392) / 4096 };
const PQ_C1 = PQ.c3 - PQ.c2 + 1;

const pqToLinear = (): Op =>
  halfLutOf((v) => {
    const x = Math.pow(Math.abs(v), 1 / PQ.m2);
    return copySign(100 * Math.pow(Math.max(0, x - PQ_C1) / (PQ.c2 - PQ.c3 * x), 1 / PQ.m1), v);
  }, 'builtin:PQ_TO_LINEAR');

const linearToPq = (): Op =>
  halfLutOf((v) => {
    const y = Math.pow(Math.abs(v * 0.01), PQ.m1);
    return copySign(Math.pow(Math.max(0, (PQ_C1 + PQ.c2 * y) / (1 + PQ.c3 * y)), PQ.m2), v);
  }, 'builtin:LINEAR_TO_PQ');

const HLG = { Lw: 1000, eMax: 3, a: 0.17883277 };
const hlgB = ((1 - 4 * HLG.a) * HLG.eMax) / 12;
const hlgC = Math.log(12 / HLG.eMax) * HLG.a + (0.5 - HLG.a * Math.log(4 * HLG.a));
const hlgScale = 3 / HLG.eMax;

const hlgToLinear = (): Op =>
  halfLutOf((v) => {
    const e = Math.abs(v);
    return copySign(e < 0.5 ? (e * e) / hlgScale : hlgB + Math.exp((e - hlgC) / HLG.a), v);
  }, 'builtin:HLG_TO_LINEAR');

const linearToHlg = (): Op =>
  halfLutOf((v) => {
    const e = Math.abs(v);
    return copySign(e < HLG.eMax / 12 ? Math.sqrt(e * hlgScale) : HLG.a * Math.log(e - hlgB) + hlgC, v);
  }, 'builtin:LINEAR_TO_HLG');

/** An exponent applied display-wards (OCIO's *_REV gamma styles): in^(1/γ), or the sRGB-style moncurve when `offset` is set. */
const encode = (style: GammaStyle, gamma: number, offset = 0): GammaOp => ({
  type: 'gamma',
  style,
  direction: 'inverse',
  gamma: [gamma, gamma, gamma, 1],
  offset: [offset, offset, offset, 0],
});

const display = (prims: Primaries, method: Adaptation, gamma: GammaOp) => (): Op[] => [matrixOp(fromXyzD65(prims, method)), gamma];

function rec2100Hlg(): Op[] {
  const gamma = 1.2 + 0.42 * Math.log10(HLG.Lw / 1000);
  return [
    matrixOp(fromXyzD65(REC2020, 'none')),
    scaleOp(100),
    scaleOp(Math.pow(HLG.eMax, gamma) / HLG.Lw),
    { type: 'fixedFunction', style: 'REC2100_Surround', direction: 'forward', params: [1 / gamma] },
    linearToHlg(),
  ];
}

export const DISPLAY_BUILTINS: Record<string, () => Op[]> = {
  'DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.709': display(REC709, 'none', encode('basic', 2.4)),
  'DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.709 - MIRROR NEGS': display(REC709, 'none', encode('basicMirror', 2.4)),
  'DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.2020': display(REC2020, 'none', encode('basic', 2.4)),
  'DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.2020 - MIRROR NEGS': display(REC2020, 'none', encode('basicMirror', 2.4)),
  'DISPLAY - CIE-XYZ-D65_to_G2.2-REC.709': display(REC709, 'none', encode('basic', 2.2)),
  'DISPLAY - CIE-XYZ-D65_to_G2.2-REC.709 - MIRROR NEGS': display(REC709, 'none', encode('basicMirror', 2.2)),
  'DISPLAY - CIE-XYZ-D65_to_sRGB': display(REC709, 'none', encode('moncurve', 2.4, 0.055)),
  'DISPLAY - CIE-XYZ-D65_to_sRGB - MIRROR NEGS': display(REC709, 'none', encode('moncurveMirror', 2.4, 0.055)),
  'DISPLAY - CIE-XYZ-D65_to_G2.6-P3-DCI-BFD': display(P3_DCI, 'bradford', encode('basic', 2.6)),
  'DISPLAY - CIE-XYZ-D65_to_G2.6-P3-D65': display(P3_D65, 'none', encode('basic', 2.6)),
  'DISPLAY - CIE-XYZ-D65_to_G2.6-P3-D65 - MIRROR NEGS': display(P3_D65, 'none', encode('basicMirror', 2.6)),
  'DISPLAY - CIE-XYZ-D65_to_G2.6-P3-D60-BFD': display(P3_D60, 'bradford', encode('basic', 2.6)),
  'DISPLAY - CIE-XYZ-D65_to_DCDM-D65': () => [scaleOp(48 / 52.37), encode('basic', 2.6)],
  'DISPLAY - CIE-XYZ-D65_to_DisplayP3': display(P3_D65, 'none', encode('moncurveMirror', 2.4, 0.055)),
  'DISPLAY - CIE-XYZ-D65_to_DisplayP3-HDR': display(P3_D65, 'none', encode('moncurveMirror', 2.4, 0.055)),
  'CURVE - ST-2084_to_LINEAR': () => [pqToLinear()],
  'CURVE - LINEAR_to_ST-2084': () => [linearToPq()],
  'DISPLAY - CIE-XYZ-D65_to_REC.2100-PQ': () => [matrixOp(fromXyzD65(REC2020, 'none')), linearToPq()],
  'DISPLAY - CIE-XYZ-D65_to_ST2084-P3-D65': () => [matrixOp(fromXyzD65(P3_D65, 'none')), linearToPq()],
  'DISPLAY - CIE-XYZ-D65_to_ST2084-DCDM-D65': () => [linearToPq()],
  'CURVE - HLG-OETF-INVERSE': () => [hlgToLinear()],
  'CURVE - HLG-OETF': () => [linearToHlg()],
  'DISPLAY - CIE-XYZ-D65_to_REC.2100-HLG-1000nit': rec2100Hlg,
};
