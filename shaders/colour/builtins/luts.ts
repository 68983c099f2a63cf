// 1D LUTs OCIO's built-ins compute at construction (on [0, 1], float32 entries), as plain lut1d ops.

import type { Lut1DOp } from '../ops/op.js';

const cache = new Map<string, Lut1DOp>();

/** An n-entry LUT of `generate` sampled at i / (n − 1), built once per source name. */
export function lut1dOf(length: number, generate: (x: number) => number, source: string): Lut1DOp {
  const cached = cache.get(source);
  if (cached) return cached;
  const values = new Float32Array(length * 3);
  for (let i = 0; i < length; i++) values.fill(generate(i / (length - 1)), i * 3, i * 3 + 3);
  const op: Lut1DOp = { type: 'lut1d', direction: 'forward', length, values, interpolation: 'linear', source };
  cache.set(source, op);
  return op;
}
