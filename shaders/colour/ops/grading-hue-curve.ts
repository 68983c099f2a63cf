// GradingHueCurveTransform: hue-hue, hue-sat, hue-lum, lum-sat, sat-sat, lum-lum, sat-lum and hue-fx curves in OCIO's HSY space.

import { evalCurve, evalCurveInverse, type FittedCurve } from './grading-bspline.js';
import { evalHueInverse, fitHueCurve, type HueSplineKind } from './grading-hue-spline.js';
import { hsyToRgb, rgbToHsy } from './hsy.js';
import { HUE_CURVE_NAMES, type GradingHueCurveOp, type HueCurveName } from './op.js';

const f = Math.fround;
const max0 = (v: number): number => (0 < v ? v : 0);
const stdMax = (a: number, b: number): number => (a < b ? b : a);
const stdMin = (a: number, b: number): number => (b < a ? b : a);

export const HUE_CURVE_KINDS: Record<HueCurveName, HueSplineKind> = {
  hueHue: 'hueHue',
  hueSat: 'periodic1',
  hueLum: 'periodic1',
  lumSat: 'horizontal1',
  satSat: 'diagonal',
  lumLum: 'diagonal',
  satLum: 'horizontal1',
  hueFx: 'periodic0',
};

type Fitted = Record<HueCurveName, FittedCurve | null>;
const cache = new WeakMap<GradingHueCurveOp, Fitted>();

function fittedOf(op: GradingHueCurveOp): Fitted {
  let fitted = cache.get(op);
  if (!fitted) {
    const entries = HUE_CURVE_NAMES.map((name) => [name, fitHueCurve(op.curves[name], HUE_CURVE_KINDS[name])]);
    cache.set(op, (fitted = Object.fromEntries(entries) as Fitted));
  }
  return fitted;
}

// The lum channel's lin ↔ log shaper for the linear style: OCIO's plain logf / powf here, not its SSE approximations.
const X_BREAK = f(0.0041318374739483946);
const SHIFT = f(-0.000157849851665374);
const M = f(1 / f(f(0.18) + SHIFT));
const GAIN = f(363.034608563);
const LOG2_E = f(1.4426950408889634);
const linToLog = (x: number): number => (x < X_BREAK ? f(f(x * GAIN) - 7) : f(LOG2_E * f(Math.log(f(f(x + SHIFT) * M)))));
const logToLin = (y: number): number => (y < -5.5 ? f(f(y + 7) / GAIN) : f(f(f(Math.pow(2, y)) * f(f(0.18) + SHIFT)) - SHIFT));

/** A curve at x, or `identity` where the curve is the identity (OCIO stores no knots for it). */
const at = (c: FittedCurve | null, x: number, identity: number): number => (c ? evalCurve(c, x) : identity);

export function applyGradingHueCurve(op: GradingHueCurveOp, rgba: Float32Array): void {
  const k = fittedOf(op);
  if (HUE_CURVE_NAMES.every((name) => k[name] === null)) return;
  const linear = op.style === 'linear';
  const inverse = op.direction === 'inverse';
  for (let i = 0; i < rgba.length; i += 4) {
    let [h, s, y] = op.bypassHsy ? [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!] : rgbToHsy(op.style, rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    if (!inverse) {
      if (linear) y = linToLog(y);
      const hueSatGain = max0(at(k.hueSat, h, 1));
      let hueLumGain = max0(at(k.hueLum, h, 1));
      h = at(k.hueHue, h, h);
      s = max0(at(k.satSat, s, s));
      s = f(s * f(max0(at(k.lumSat, y, 1)) * hueSatGain));
      const satLumGain = max0(at(k.satLum, s, 1));
      y = at(k.lumLum, y, y);
      if (linear) y = logToLin(y);
      // the hue is noisy at low saturation, and unknown (not invertible) at 0
      hueLumGain = f(1 - f(f(1 - hueLumGain) * stdMin(s, 1)));
      y = linear ? f(f(y * hueLumGain) * satLumGain) : f(y + f(f(f(hueLumGain + satLumGain) - 2) * f(0.1)));
      h = f(h - Math.floor(h));
      h = f(h + at(k.hueFx, h, 0));
    } else {
      h = evalHueInverse(k.hueFx, h, true);
      h = evalHueInverse(k.hueHue, h, false);
      h = f(h - Math.floor(h));
      const hueSatGain = max0(at(k.hueSat, h, 1));
      let hueLumGain = max0(at(k.hueLum, h, 1));
      s = max0(s);
      const satLumGain = max0(at(k.satLum, s, 1));
      hueLumGain = f(1 - f(f(1 - hueLumGain) * stdMin(s, 1)));
      y = linear ? f(y / stdMax(f(0.01), f(hueLumGain * satLumGain))) : f(y - f(f(f(hueLumGain + satLumGain) - 2) * f(0.1)));
      if (linear) y = linToLog(y);
      y = k.lumLum ? evalCurveInverse(k.lumLum, y) : y;
      const lumSatGain = max0(at(k.lumSat, y, 1));
      if (linear) y = logToLin(y);
      s = f(s / stdMax(f(0.01), f(lumSatGain * hueSatGain)));
      s = max0(k.satSat ? evalCurveInverse(k.satSat, s) : s);
    }
    const out = op.bypassHsy ? [h, s, y] : hsyToRgb(op.style, h, s, y);
    rgba[i] = out[0]!;
    rgba[i + 1] = out[1]!;
    rgba[i + 2] = out[2]!;
  }
}
