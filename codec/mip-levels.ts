// Lower resolution levels of a tiled part for the writer: each level a 2:1 box filter of the one above.

import { floatToHalf, HALF_TO_FLOAT } from './core/half.js';
import type { LevelRoundingMode } from './attributes.js';
import type { PixelType } from './core/types.js';

export type Plane = Uint16Array | Float32Array | Uint32Array;

/** A level's samples as doubles (uint stays exact), widthPx × heightPx, rows top to bottom. */
export interface FloatPlane {
  widthPx: number;
  heightPx: number;
  values: Float64Array;
}

export function toFloatPlane(data: Plane, pixelType: PixelType, widthPx: number, heightPx: number): FloatPlane {
  const values = new Float64Array(widthPx * heightPx);
  for (let i = 0; i < values.length; i++) values[i] = pixelType === 'half' ? HALF_TO_FLOAT[data[i]!]! : data[i]!;
  return { widthPx, heightPx, values };
}

export function fromFloatPlane(plane: FloatPlane, pixelType: PixelType): Plane {
  const n = plane.values.length;
  if (pixelType === 'half') {
    const out = new Uint16Array(n);
    for (let i = 0; i < n; i++) out[i] = floatToHalf(plane.values[i]!);
    return out;
  }
  if (pixelType === 'float') return Float32Array.from(plane.values);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(0xffffffff, Math.max(0, Math.round(plane.values[i]!)));
  return out;
}

/** Halves the width (axis 'x') or height (axis 'y'). A round-up level's odd last sample averages one source sample. */
export function reduce(plane: FloatPlane, axis: 'x' | 'y', rounding: LevelRoundingMode): FloatPlane {
  const { widthPx, heightPx, values } = plane;
  const along = axis === 'x' ? widthPx : heightPx;
  const half = Math.max(1, rounding === 'roundUp' ? Math.ceil(along / 2) : Math.floor(along / 2));
  const outW = axis === 'x' ? half : widthPx;
  const outH = axis === 'y' ? half : heightPx;
  const out = new Float64Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const sx = axis === 'x' ? 2 * x : x;
      const sy = axis === 'y' ? 2 * y : y;
      const a = values[sy * widthPx + sx]!;
      const hasB = axis === 'x' ? sx + 1 < widthPx : sy + 1 < heightPx;
      const b = hasB ? values[axis === 'x' ? sy * widthPx + sx + 1 : (sy + 1) * widthPx + sx]! : a;
      out[y * outW + x] = (a + b) / 2;
    }
  }
  return { widthPx: outW, heightPx: outH, values: out };
}
