// Camera built-ins: each vendor's log curve to linear, then its gamut to ACES2065-1 (OCIO's CameraBuiltins).

import { halfLutOf } from '../ops/lut1d-half.js';
import { lut1dOf } from './luts.js';
import type { LogOp, Op } from '../ops/op.js';
import { matrixOp } from './matrix-ops.js';
import { AP0, conversionMatrix, REC2020, type Adaptation, type Primaries, type Xy } from '../ops/aces2/primaries.js';

const D65: Xy = [0.3127, 0.329];
const gamut = (r: Xy, g: Xy, b: Xy): Primaries => ({ red: r, green: g, blue: b, white: D65 });

const ARRI_WIDE_GAMUT = gamut([0.684, 0.313], [0.221, 0.848], [0.0861, -0.102]);
const ARRI_WIDE_GAMUT_4 = gamut([0.7347, 0.2653], [0.1424, 0.8576], [0.0991, -0.0308]);
const SONY_SGAMUT3 = gamut([0.73, 0.28], [0.14, 0.855], [0.1, -0.05]);
const SONY_SGAMUT3_CINE = gamut([0.766, 0.275], [0.225, 0.8], [0.089, -0.087]);
const RED_WIDE_GAMUT = gamut([0.780308, 0.304253], [0.121595, 1.493994], [0.095612, -0.084589]);
const PANASONIC_VGAMUT = gamut([0.73, 0.28], [0.165, 0.84], [0.1, -0.03]);
const CANON_CGAMUT = gamut([0.74, 0.27], [0.17, 1.14], [0.08, -0.1]);

/** A log-to-linear LogOp: params [logSideSlope, logSideOffset, linSideSlope, linSideOffset, linSideBreak?, linearSlope?]. */
const logToLin = (base: number, params: number[]): LogOp => ({
  type: 'log',
  direction: 'inverse',
  base,
  params: [params, params, params],
  camera: params.length > 4,
});

const logC3 = (): LogOp => {
  const linSlope = 1 / ((0.18 * 0.005 * (800 / 400)) / 0.01);
  const linOffset = 0.052272275;
  return logToLin(10, [0.2471896383, 0.3855369987, linSlope, linOffset, (1 / 9 - linOffset) / linSlope]);
};
const logC4 = (): LogOp => logToLin(2, [0.0647954196341293, -0.295908392682586, 2231.82630906769, 64, -0.0180569961199113]);
const sLog3 = (): LogOp =>
  logToLin(10, [261.5 / 1023, 420 / 1023, 1 / (0.18 + 0.01), 0.01 / (0.18 + 0.01), 0.01125, (171.2102946929 - 95) / 0.01125 / 1023]);
const redLogFilm = (): LogOp => {
  const refWhite = 685 / 1023,
    refBlack = 95 / 1023;
  const multiFactor = (0.002 * 1023) / 0.6;
  const gain = 1 / (1 - Math.pow(10, multiFactor * (refBlack - refWhite)));
  const offset = gain - 1;
  return logToLin(10, [1 / multiFactor, refWhite, 1 / gain, offset / gain]);
};
const log3G10 = (): LogOp => logToLin(10, [0.224282, 0, 155.975327, 0.01 * 155.975327 + 1, -0.01]);
const vLog = (): LogOp => logToLin(10, [0.241514, 0.598206, 1, 0.00873, 0.01]);

/** Canon Log 2 and 3 to linear, as 4096-entry LUTs on [0, 1] (OCIO's LUT build of them). */
const canonLog2 = (): Op =>
  lut1dOf(
    4096,
    (x) => {
      const out =
        x < 0.092864125
          ? -(Math.pow(10, (0.092864125 - x) / 0.24136077) - 1) / 87.099375
          : (Math.pow(10, (x - 0.092864125) / 0.24136077) - 1) / 87.099375;
      return out * 0.9;
    },
    'builtin:CANON_CLOG2',
  );
const canonLog3 = (): Op =>
  lut1dOf(
    4096,
    (x) => {
      let out: number;
      if (x < 0.097465473) out = -(Math.pow(10, (0.12783901 - x) / 0.36726845) - 1) / 14.98325;
      else if (x <= 0.15277891) out = (x - 0.12512219) / 1.9754798;
      else out = (Math.pow(10, (x - 0.12240537) / 0.36726845) - 1) / 14.98325;
      return out * 0.9;
    },
    'builtin:CANON_CLOG3',
  );

/** Apple Log to linear, as a half-domain LUT. */
const appleLog = (): Op => {
  const R0 = -0.05641088,
    Rt = 0.01,
    c = 47.28711236,
    beta = 0.00964052,
    gamma = 0.08550479,
    delta = 0.69336945;
  const Pt = c * Math.pow(Rt - R0, 2);
  return halfLutOf((x) => (x >= Pt ? Math.pow(2, (x - delta) / gamma) - beta : x >= 0 ? Math.sqrt(x / c) + R0 : R0), 'builtin:APPLE_LOG');
};

const toAces = (curve: () => Op, prims: Primaries, method: Adaptation) => (): Op[] => [
  curve(),
  matrixOp(conversionMatrix(prims, AP0, method)),
];
const withMatrix = (curve: () => Op, m: number[]) => (): Op[] => [curve(), matrixOp(m)];

export const CAMERA_BUILTINS: Record<string, () => Op[]> = {
  'ARRI_ALEXA-LOGC-EI800-AWG_to_ACES2065-1': toAces(logC3, ARRI_WIDE_GAMUT, 'cat02'),
  'ARRI_LOGC4_to_ACES2065-1': toAces(logC4, ARRI_WIDE_GAMUT_4, 'cat02'),
  'SONY_SLOG3-SGAMUT3_to_ACES2065-1': toAces(sLog3, SONY_SGAMUT3, 'cat02'),
  'SONY_SLOG3-SGAMUT3.CINE_to_ACES2065-1': toAces(sLog3, SONY_SGAMUT3_CINE, 'cat02'),
  'SONY_SLOG3-SGAMUT3-VENICE_to_ACES2065-1': withMatrix(
    sLog3,
    [0.7933297411, 0.0890786256, 0.1175916333, 0.0155810585, 1.0327123069, -0.0482933654, -0.0188647478, 0.0127694121, 1.0060953358],
  ),
  'SONY_SLOG3-SGAMUT3.CINE-VENICE_to_ACES2065-1': withMatrix(
    sLog3,
    [0.6742570921, 0.2205717359, 0.105171172, -0.0093136061, 1.1059588614, -0.0966452553, -0.0382090673, -0.0179383766, 1.0561474439],
  ),
  'RED_REDLOGFILM-RWG_to_ACES2065-1': toAces(redLogFilm, RED_WIDE_GAMUT, 'bradford'),
  'RED_LOG3G10-RWG_to_ACES2065-1': toAces(log3G10, RED_WIDE_GAMUT, 'bradford'),
  'PANASONIC_VLOG-VGAMUT_to_ACES2065-1': toAces(vLog, PANASONIC_VGAMUT, 'bradford'),
  'CANON_CLOG2-CGAMUT_to_ACES2065-1': toAces(canonLog2, CANON_CGAMUT, 'cat02'),
  'CURVE - CANON_CLOG2_to_LINEAR': () => [canonLog2()],
  'CANON_CLOG3-CGAMUT_to_ACES2065-1': toAces(canonLog3, CANON_CGAMUT, 'cat02'),
  'CURVE - CANON_CLOG3_to_LINEAR': () => [canonLog3()],
  'APPLE_LOG_to_ACES2065-1': toAces(appleLog, REC2020, 'bradford'),
  'CURVE - APPLE_LOG_to_LINEAR': () => [appleLog()],
};
