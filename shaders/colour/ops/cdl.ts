// CDLTransform: slope, offset, power, saturation (Rec. 709 luma), ASC v1.2 clamping or none; the inverse runs the steps backwards.

import type { CdlOp } from './op.js';

const f = Math.fround;
const LUMA = [f(0.2126), f(0.7152), f(0.0722)];
/** OCIO inverts slope, power and saturation with this floor, so a zero never divides. */
const reciprocal = (x: number): number => f(1 / f(Math.max(f(x), f(1e-2))));
const clamp01 = (v: number): number => Math.min(0 < v ? v : 0, 1); // NaN → 0, as OCIO's Clamp

export function applyCdl(op: CdlOp, rgba: Float32Array): void {
  const inverse = op.direction === 'inverse';
  const slope = op.slope.map((v) => (inverse ? reciprocal(v) : f(v)));
  const offset = op.offset.map((v) => (inverse ? -f(v) : f(v)));
  const power = op.power.map((v) => (inverse ? reciprocal(v) : f(v)));
  const saturation = inverse ? reciprocal(op.saturation) : f(op.saturation);
  const px = [0, 0, 0];
  const powerStep = (): void => {
    for (let c = 0; c < 3; c++) {
      const v = px[c]!;
      if (op.clamp) px[c] = Math.pow(clamp01(v), power[c]!);
      else px[c] = Number.isNaN(v) ? 0 : v < 0 ? v : Math.pow(v, power[c]!);
    }
  };
  const saturationStep = (): void => {
    const luma = f(f(f(px[0]! * LUMA[0]!) + f(px[1]! * LUMA[1]!)) + f(px[2]! * LUMA[2]!));
    for (let c = 0; c < 3; c++) px[c] = f(luma + f(saturation * f(px[c]! - luma)));
  };
  const clampStep = (): void => {
    if (op.clamp) for (let c = 0; c < 3; c++) px[c] = clamp01(px[c]!);
  };
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) px[c] = rgba[i + c]!;
    if (!inverse) {
      for (let c = 0; c < 3; c++) px[c] = f(f(px[c]! * slope[c]!) + offset[c]!);
      powerStep();
      saturationStep();
      clampStep();
    } else {
      clampStep();
      saturationStep();
      powerStep();
      for (let c = 0; c < 3; c++) px[c] = f(f(px[c]! + offset[c]!) * slope[c]!);
      clampStep();
    }
    for (let c = 0; c < 3; c++) rgba[i + c] = px[c]!;
  }
}
