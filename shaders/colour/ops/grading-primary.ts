// GradingPrimaryTransform: log (brightness/contrast/gamma), linear (offset/exposure/contrast) and video (lift/gamma/gain) grades.

import type { GradingPrimaryOp } from './op.js';
import { ssePower } from './grading-sse-math.js';

const f = Math.fround;
const LUMA = [f(0.2126), f(0.7152), f(0.0722)] as const;

/** Per-channel values (r, g, b) combined with the master as OCIO's GradingPrimaryPreRender does, in double then float (the GPU writes the same as literals). */
export interface PreparedGradingPrimary {
  offset: number[];
  scale: number[];
  power: number[];
  pivot: number;
  powerIdentity: boolean;
}

const rgb = (fn: (c: number) => number): number[] => [0, 1, 2].map((c) => f(fn(c)));

export function prepareGradingPrimary(op: GradingPrimaryOp): PreparedGradingPrimary {
  const inv = op.direction === 'inverse';
  const sum = (v: number[], c: number): number => v[3]! + v[c]!;
  const prod = (v: number[], c: number): number => v[3]! * v[c]!;
  if (op.style === 'log') {
    const power = rgb((c) => (inv ? prod(op.gamma, c) : 1 / prod(op.gamma, c)));
    return {
      offset: rgb((c) => ((inv ? -1 : 1) * (sum(op.brightness, c) * 6.25)) / 1023),
      scale: rgb((c) => (inv ? 1 / (prod(op.contrast, c) || 1) : prod(op.contrast, c))),
      power,
      pivot: f(0.5 + op.pivot * 0.5),
      powerIdentity: power.every((p) => p === 1),
    };
  }
  if (op.style === 'linear') {
    const scale = rgb((c) => (inv ? 1 / prod(op.contrast, c) : prod(op.contrast, c)));
    return {
      offset: rgb((c) => (inv ? -1 : 1) * sum(op.offset, c)),
      scale: rgb((c) => (inv ? f(1 / f(Math.pow(2, f(sum(op.exposure, c))))) : Math.pow(2, f(sum(op.exposure, c))))),
      power: scale,
      pivot: f(0.18 * Math.pow(2, op.pivot)),
      powerIdentity: scale.every((p) => p === 1),
    };
  }
  const range = op.pivotWhite - op.pivotBlack;
  const gain = (c: number): number => prod(op.gain, c) || 1;
  const lift = (c: number): number => sum(op.lift, c);
  const power = rgb((c) => (inv ? prod(op.gamma, c) : 1 / prod(op.gamma, c)));
  return {
    offset: rgb((c) => (inv ? -1 : 1) * (op.offset[3]! + op.offset[c]! + op.lift[3]! + op.lift[c]!)),
    scale: rgb((c) => {
      const den = op.pivotWhite / gain(c) + lift(c) - op.pivotBlack;
      return inv ? (op.pivotWhite / gain(c) + (lift(c) - op.pivotBlack)) / range : range / (den || 1);
    }),
    power,
    pivot: f(op.pivotBlack),
    powerIdentity: power.every((p) => p === 1),
  };
}

const cache = new WeakMap<GradingPrimaryOp, PreparedGradingPrimary>();

const copysign = (mag: number, sign: number): number => (sign < 0 || Object.is(sign, -0) ? -mag : mag);

// SSE's min/max: a NaN pixel takes the clamp bound, as OCIO's x86 build does.
const clamp = (x: number, lo: number, hi: number): number => {
  const y = x > lo ? x : lo;
  return y < hi ? y : hi;
};

export function applyGradingPrimary(op: GradingPrimaryOp, rgba: Float32Array): void {
  let p = cache.get(op);
  if (!p) cache.set(op, (p = prepareGradingPrimary(op)));
  const noClamp = op.clampBlack === -Number.MAX_VALUE && op.clampWhite === Number.MAX_VALUE;
  const identity = p.powerIdentity && p.offset.every((o) => o === 0) && p.scale.every((s) => s === 1);
  if (op.saturation === 1 && noClamp && identity) return;
  const inv = op.direction === 'inverse';
  const sat = f(op.saturation);
  const saturation = inv ? f(1 / (sat !== 0 ? sat : 1)) : sat;
  const [lo, hi] = [f(op.clampBlack), f(op.clampWhite)];
  const [black, white] = [f(op.pivotBlack), f(op.pivotWhite)];
  const range = f(white - black);
  const px = [0, 0, 0];
  const offsetStep = (): void => {
    for (let c = 0; c < 3; c++) px[c] = f(px[c]! + p.offset[c]!);
  };
  const scaleStep = (): void => {
    if (op.style === 'linear') for (let c = 0; c < 3; c++) px[c] = f(px[c]! * p.scale[c]!);
    else for (let c = 0; c < 3; c++) px[c] = f(f(f(px[c]! - p.pivot) * p.scale[c]!) + p.pivot);
  };
  const powerStep = (): void => {
    if (p.powerIdentity) return;
    for (let c = 0; c < 3; c++) {
      if (op.style === 'linear') {
        px[c] = f(ssePower(Math.abs(f(px[c]! / p.pivot)), p.power[c]!) * copysign(p.pivot, px[c]!));
      } else {
        const d = f(px[c]! - black);
        px[c] = f(f(f(ssePower(f(Math.abs(d) / range), p.power[c]!) * copysign(1, d)) * range) + black);
      }
    }
  };
  // OCIO's x86 renderers skip saturation at 1 (and at 0 when inverting), which matters for NaN and infinite pixels.
  const skipSaturation = sat === 1 || (inv && sat === 0);
  const saturationStep = (): void => {
    if (skipSaturation) return;
    const luma = f(f(f(px[0]! * LUMA[0]) + f(px[1]! * LUMA[1])) + f(px[2]! * LUMA[2]));
    for (let c = 0; c < 3; c++) px[c] = f(luma + f(saturation * f(px[c]! - luma)));
  };
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) px[c] = rgba[i + c]!;
    if (!inv) {
      offsetStep();
      scaleStep();
      powerStep();
      saturationStep();
      for (let c = 0; c < 3; c++) px[c] = clamp(px[c]!, lo, hi);
    } else {
      for (let c = 0; c < 3; c++) px[c] = clamp(px[c]!, lo, hi);
      saturationStep();
      powerStep();
      scaleStep();
      offsetStep();
    }
    for (let c = 0; c < 3; c++) rgba[i + c] = px[c]!;
  }
}
