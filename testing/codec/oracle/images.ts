// Test support: synthetic images for the writer, with ramps, sign changes, special values and full-range ids.

import { floatToHalf } from '../../../codec/core/half.js';
import type { Box2i, PixelType } from '../../../codec/core/types.js';
import type { WriteChannel, WritePart } from '../../../codec/writer.js';

/** Deterministic pseudo-random numbers in [0, 1) (a 32-bit xorshift). */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/** A value for pixel (x, y) of a pattern; `kind` picks one of a few with different character. */
export function patternValue(kind: number, x: number, y: number, noise: number): number {
  switch (kind % 4) {
    case 0:
      return (x - 10) / 20 + noise * 0.01;
    case 1:
      return y / 300;
    case 2:
      return 1000 * Math.sin(x * 0.1) * Math.cos(y * 0.07);
    default:
      return ((x >> 3) + (y >> 3)) & 1 ? 1 : 0.25;
  }
}

/** Channel data of `pixelType` for a plane of widthSamples × heightSamples filled by `value`. */
export function planeOf(
  pixelType: PixelType,
  widthSamples: number,
  heightSamples: number,
  value: (x: number, y: number) => number,
): WriteChannel['data'] {
  const n = widthSamples * heightSamples;
  const data = pixelType === 'half' ? new Uint16Array(n) : pixelType === 'float' ? new Float32Array(n) : new Uint32Array(n);
  for (let y = 0; y < heightSamples; y++) {
    for (let x = 0; x < widthSamples; x++) {
      const v = value(x, y);
      data[y * widthSamples + x] =
        pixelType === 'half' ? floatToHalf(v) : pixelType === 'uint' ? Math.min(0xffffffff, Math.max(0, Math.floor(v))) >>> 0 : v;
    }
  }
  return data;
}

/** A full-range 32-bit id per pixel (for uint channels). */
export function idValue(x: number, y: number): number {
  return Math.imul(x * 73856093 + 1, 19349663 ^ y) >>> 0;
}

/** RGBA float over `dataWindow`: ramps, a signed sine, a checker alpha; R holds NaN and ±Inf, B a value too large for half. */
export function rgbaSource(dataWindow: Box2i, seed = 1): WritePart {
  const widthPx = dataWindow.xMax - dataWindow.xMin + 1;
  const heightPx = dataWindow.yMax - dataWindow.yMin + 1;
  const rand = random(seed);
  const channels = ['R', 'G', 'B', 'A'].map((name, kind) => ({
    name,
    pixelType: 'float' as const,
    data: planeOf('float', widthPx, heightPx, (x, y) => patternValue(kind, x, y, rand())),
  }));
  const special = (name: string, x: number, y: number, v: number) => {
    if (x < widthPx && y < heightPx) channels.find((c) => c.name === name)!.data[y * widthPx + x] = v;
  };
  special('R', 5, 5, NaN);
  special('R', 6, 5, Infinity);
  special('R', 7, 5, -Infinity);
  special('G', 50, 100, 1e-7);
  special('B', 3, 3, 70000);
  return { compression: 'none', dataWindow, channels };
}

/** Channels `layer.R/G/B/A` for each layer (half, with every third layer float), plus depth.Z (float) and id (uint). */
export function layeredChannels(layerCount: number, widthPx: number, heightPx: number): WriteChannel[] {
  const channels: WriteChannel[] = [];
  for (let l = 0; l < layerCount; l++) {
    const pixelType: PixelType = l % 3 === 2 ? 'float' : 'half';
    ['R', 'G', 'B', 'A'].forEach((c, kind) => {
      channels.push({
        name: `layer${String(l).padStart(2, '0')}.${c}`,
        pixelType,
        data: planeOf(pixelType, widthPx, heightPx, (x, y) => patternValue(kind + l, x, y, 0) * (l + 1)),
      });
    });
  }
  channels.push({ name: 'depth.Z', pixelType: 'float', data: planeOf('float', widthPx, heightPx, (x, y) => 10 + x * 0.5 + y) });
  channels.push({ name: 'id', pixelType: 'uint', data: planeOf('uint', widthPx, heightPx, idValue) });
  return channels;
}

/** Luminance/chroma channels as OpenEXR stores them: Y full, RY and BY 2x2 subsampled (dimensions must be even). */
export function subsampledChannels(widthPx: number, heightPx: number): WriteChannel[] {
  return [
    { name: 'Y', pixelType: 'half', data: planeOf('half', widthPx, heightPx, (x, y) => patternValue(0, x, y, 0)) },
    {
      name: 'RY',
      pixelType: 'half',
      xSampling: 2,
      ySampling: 2,
      data: planeOf('half', widthPx / 2, heightPx / 2, (x, y) => patternValue(2, x, y, 0) / 1000),
    },
    {
      name: 'BY',
      pixelType: 'float',
      xSampling: 2,
      ySampling: 2,
      data: planeOf('float', widthPx / 2, heightPx / 2, (x, y) => patternValue(1, x, y, 0) - 0.5),
    },
    { name: 'id', pixelType: 'uint', xSampling: 1, ySampling: 2, data: planeOf('uint', widthPx, heightPx / 2, idValue) },
  ];
}

/** A deep image: 0 to maxSamples samples per pixel, A/R/G/B half, Z float (increasing per pixel), id uint. */
export function deepSource(
  widthPx: number,
  heightPx: number,
  maxSamples: number,
  seed = 7,
): { sampleCounts: Uint32Array; channels: WriteChannel[] } {
  const rand = random(seed);
  const sampleCounts = new Uint32Array(widthPx * heightPx);
  for (let i = 0; i < sampleCounts.length; i++) sampleCounts[i] = Math.floor(rand() * (maxSamples + 1));
  let total = 0;
  for (const n of sampleCounts) total += n;
  const half = () => new Uint16Array(total);
  const a = half();
  const r = half();
  const g = half();
  const b = half();
  const z = new Float32Array(total);
  const id = new Uint32Array(total);
  let s = 0;
  for (let p = 0; p < sampleCounts.length; p++) {
    for (let k = 0; k < sampleCounts[p]!; k++, s++) {
      const alpha = 0.2 + 0.8 * rand();
      a[s] = floatToHalf(alpha);
      r[s] = floatToHalf(alpha * rand());
      g[s] = floatToHalf(alpha * rand());
      b[s] = floatToHalf(alpha * rand() * 4);
      z[s] = 1 + k + rand();
      id[s] = idValue(p, k);
    }
  }
  return {
    sampleCounts,
    channels: [
      { name: 'A', pixelType: 'half', data: a },
      { name: 'B', pixelType: 'half', data: b },
      { name: 'G', pixelType: 'half', data: g },
      { name: 'R', pixelType: 'half', data: r },
      { name: 'Z', pixelType: 'float', data: z },
      { name: 'id', pixelType: 'uint', data: id },
    ],
  };
}
