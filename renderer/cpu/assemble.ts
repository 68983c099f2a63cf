// CPU assembly of a layer into interleaved float RGBA (the CPU path's version of assemble.wgsl; no subsampling).
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import { halfToFloat } from '../../shaders/tonemap-cpu.js';
import type { LayerChoice } from '../model/layer-choice.js';
import { evaluateExpression } from '../../shaders/expressions/index.js';

/** A plane's values at every data-window pixel as float32 (0 where the image lacks it, as the GPU reads a missing slot). */
function planeFloats(image: DecodedImage, name: string): Float32Array {
  const out = new Float32Array(image.widthPx * image.heightPx);
  const plane = image.planes.find((p) => p.name === name);
  if (!plane) return out;
  const samples =
    plane.pixelType === 'half'
      ? new Uint16Array(plane.data)
      : plane.pixelType === 'float'
        ? new Float32Array(plane.data)
        : new Uint32Array(plane.data);
  const table = plane.pixelType === 'half' ? halfTable() : null;
  for (let y = 0, i = 0; y < image.heightPx; y++) {
    const row = Math.min(Math.floor(y / plane.ySampling), plane.heightSamples - 1) * plane.widthSamples;
    for (let x = 0; x < image.widthPx; x++, i++) {
      const v = samples[row + Math.min(Math.floor(x / plane.xSampling), plane.widthSamples - 1)]!;
      out[i] = table ? table[v]! : v;
    }
  }
  return out;
}

let halfs: Float32Array | null = null;
function halfTable(): Float32Array {
  return (halfs ??= new Float32Array(65536).map((_, h) => halfToFloat(h)));
}

/** One sample of a plane at data-window pixel (x, y), as a number. */
export function planeValue(p: DecodedPlane, x: number, y: number): number {
  const i =
    Math.min(Math.floor(y / p.ySampling), p.heightSamples - 1) * p.widthSamples + Math.min(Math.floor(x / p.xSampling), p.widthSamples - 1);
  if (p.pixelType === 'half') return halfToFloat(new Uint16Array(p.data)[i]!);
  if (p.pixelType === 'float') return new Float32Array(p.data)[i]!;
  return new Uint32Array(p.data)[i]!;
}

export function assembleRgba(image: DecodedImage, choice: LayerChoice): Float32Array {
  const n = image.widthPx * image.heightPx;
  if (choice.expression)
    return evaluateExpression(
      choice.expression,
      choice.expression.planes.map((name) => planeFloats(image, name)),
      n,
    );
  const out = new Float32Array(n * 4);
  for (let k = 0; k < 4; k++) {
    const name = choice.slots[k];
    const plane = name ? image.planes.find((p) => p.name === name) : undefined;
    if (!plane) {
      if (k === 3) for (let i = 0; i < n; i++) out[i * 4 + 3] = 1;
      continue;
    }
    const full = plane.xSampling === 1 && plane.ySampling === 1;
    const half = plane.pixelType === 'half' ? new Uint16Array(plane.data) : null;
    const table = half ? new Float32Array(65536).map((_, h) => halfToFloat(h)) : null;
    for (let y = 0; y < image.heightPx; y++)
      for (let x = 0; x < image.widthPx; x++) {
        const i = y * image.widthPx + x;
        out[i * 4 + k] = full && half ? table![half[i]!]! : planeValue(plane, x, y);
      }
  }
  if (choice.mode !== 'direct') {
    for (let i = 0; i < n; i++) {
      const y = out[i * 4]!;
      if (choice.mode === 'y') {
        out[i * 4 + 1] = y;
        out[i * 4 + 2] = y;
        continue;
      }
      const r = (out[i * 4 + 1]! + 1) * y,
        b = (out[i * 4 + 2]! + 1) * y;
      out[i * 4] = r;
      out[i * 4 + 1] = (y - r * 0.2126 - b * 0.0722) / 0.7152;
      out[i * 4 + 2] = b;
    }
  }
  return out;
}
