// ExponentTransform and ExponentWithLinearTransform: OCIO's basic and moncurve gamma styles, with their negative-value rules.

import type { GammaOp } from './op.js';

const f = Math.fround;
const EPS = 1e-6;

interface Moncurve {
  gamma: number;
  offset: number;
  breakPnt: number;
  slope: number;
  scale: number;
}

/** The moncurve segment parameters, as OCIO derives them (in double, then rounded to float). */
export function moncurveParams(gammaIn: number, offsetIn: number, inverse: boolean): Moncurve {
  const gamma = Math.max(gammaIn, 1 + EPS);
  const offset = Math.max(offsetIn, EPS);
  if (!inverse) {
    const a = (gamma - 1) / offset;
    const b = (offset * gamma) / ((gamma - 1) * (1 + offset));
    return {
      gamma: f(gamma),
      offset: f(offset / (1 + offset)),
      breakPnt: f(offset / (gamma - 1)),
      slope: f(a * Math.pow(b, gamma)),
      scale: f(1 / (1 + offset)),
    };
  }
  const a = (gamma - 1) / offset;
  const b = (1 + offset) / gamma;
  return {
    gamma: f(1 / gamma),
    offset: f(offset),
    breakPnt: f(Math.pow((offset * gamma) / ((gamma - 1) * (1 + offset)), gamma)),
    slope: f(Math.pow(a, gamma - 1) * Math.pow(b, gamma)),
    scale: f(1 + offset),
  };
}

export function applyGamma(op: GammaOp, rgba: Float32Array): void {
  const inverse = op.direction === 'inverse';
  if (op.style === 'moncurve' || op.style === 'moncurveMirror') {
    const params = [0, 1, 2, 3].map((c) => moncurveParams(op.gamma[c]!, op.offset[c]!, inverse));
    const mirror = op.style === 'moncurveMirror';
    for (let i = 0; i < rgba.length; i++) {
      const p = params[i & 3]!;
      const x = rgba[i]!;
      const v = mirror ? Math.abs(x) : x;
      let y: number;
      if (!inverse) y = v <= p.breakPnt ? f(v * p.slope) : Math.pow(f(f(v * p.scale) + p.offset), p.gamma);
      else y = v <= p.breakPnt ? f(v * p.slope) : f(Math.pow(v, p.gamma)) * p.scale - p.offset;
      rgba[i] = mirror && x < 0 ? -y : mirror && Object.is(x, -0) ? -y : y;
    }
    return;
  }
  const exponents = [0, 1, 2, 3].map((c) => f(inverse ? 1 / op.gamma[c]! : op.gamma[c]!));
  for (let i = 0; i < rgba.length; i++) {
    const g = exponents[i & 3]!;
    const x = rgba[i]!;
    if (op.style === 'basic') {
      rgba[i] = Math.pow(0 < x ? x : 0, g); // std::max(0, NaN) is 0
    } else if (op.style === 'basicMirror') {
      const y = Math.pow(Math.abs(x), g);
      rgba[i] = x < 0 || Object.is(x, -0) ? -y : y;
    } else {
      rgba[i] = x > 0 ? Math.pow(x, g) : x;
    }
  }
}
