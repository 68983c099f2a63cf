// Synthetic test images for the GPU bench: smooth gradients plus seeded noise, as half or float planes (never zeros).

import { floatToHalf as toHalf } from '../../codec/index.js';

/** half bits → float (table: 65536 entries). */
export const HALF_TO_FLOAT: Float32Array = (() => {
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >>> 10) & 0x1f;
    const m = h & 0x3ff;
    t[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return t;
})();

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export interface Planes<T extends Uint16Array | Float32Array> {
  width: number;
  height: number;
  r: T;
  g: T;
  b: T;
  a: T;
}

/** Half planes quickly (a table of 4096 halves indexed by smooth ramps plus noise): cheap enough for 8K images. */
export function makeHalfPlanes(width: number, height: number, seed = 1): Planes<Uint16Array> {
  const lut = new Uint16Array(4096);
  for (let k = 0; k < 4096; k++) lut[k] = toHalf((4 * k) / 4096 + 0.01);
  const n = width * height;
  const mk = () => new Uint16Array(new SharedArrayBuffer(n * 2));
  const p = { width, height, r: mk(), g: mk(), b: mk(), a: mk() };
  const rand = rng(seed);
  for (let y = 0; y < height; y++) {
    const ky = Math.floor((y * 4095) / height);
    for (let x = 0; x < width; x++) {
      const kx = Math.floor((x * 4095) / width);
      const noise = (rand() * 64) | 0;
      const i = y * width + x;
      p.r[i] = lut[(kx + noise) & 4095]!;
      p.g[i] = lut[(ky + noise) & 4095]!;
      p.b[i] = lut[((kx + ky) >> 1) + (noise >> 1)]!;
      p.a[i] = lut[2048 + (ky >> 2)]!;
    }
  }
  return p;
}

/** The same image as float planes (for rgba32float uploads). */
export function halfToFloatPlanes(p: Planes<Uint16Array>): Planes<Float32Array> {
  const n = p.width * p.height;
  const conv = (src: Uint16Array) => {
    const dst = new Float32Array(new SharedArrayBuffer(n * 4));
    for (let i = 0; i < n; i++) dst[i] = HALF_TO_FLOAT[src[i]!]!;
    return dst;
  };
  return { width: p.width, height: p.height, r: conv(p.r), g: conv(p.g), b: conv(p.b), a: conv(p.a) };
}
