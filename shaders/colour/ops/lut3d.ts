// 3D LUTs: OCIO's trilinear and tetrahedral interpolation on [0, 1]³ (NaN → 0), blue-fastest tables; the inverse in lut3d-inverse.

import { applyInverseLut3D } from './lut3d-inverse.js';
import type { Lut3DOp } from './op.js';

const f = Math.fround;

export function applyLut3D(op: Lut3DOp, rgba: Float32Array): void {
  if (op.direction === 'inverse') return applyInverseLut3D(op, rgba);
  const n = op.size;
  const last = f(n - 1);
  const v = op.values;
  const at = (r: number, g: number, b: number, c: number): number => v[((r * n + g) * n + b) * 3 + c]!;
  for (let i = 0; i < rgba.length; i += 4) {
    const idx = [0, 1, 2].map((c) => {
      const x = f(rgba[i + c]! * last);
      return Math.min(0 < x ? x : 0, last);
    });
    const lo = idx.map(Math.floor),
      hi = idx.map(Math.ceil);
    const fr = f(idx[0]! - lo[0]!),
      fg = f(idx[1]! - lo[1]!),
      fb = f(idx[2]! - lo[2]!);
    const [r0, g0, b0] = lo as [number, number, number];
    const [r1, g1, b1] = hi as [number, number, number];
    if (op.interpolation === 'nearest') {
      const [rn, gn, bn] = idx.map(Math.round) as [number, number, number];
      for (let c = 0; c < 3; c++) rgba[i + c] = at(rn, gn, bn, c);
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const c000 = at(r0, g0, b0, c),
        c111 = at(r1, g1, b1, c);
      if (op.interpolation === 'tetrahedral') {
        let out: number;
        if (fr > fg) {
          if (fg > fb) out = (1 - fr) * c000 + (fr - fg) * at(r1, g0, b0, c) + (fg - fb) * at(r1, g1, b0, c) + fb * c111;
          else if (fr > fb) out = (1 - fr) * c000 + (fr - fb) * at(r1, g0, b0, c) + (fb - fg) * at(r1, g0, b1, c) + fg * c111;
          else out = (1 - fb) * c000 + (fb - fr) * at(r0, g0, b1, c) + (fr - fg) * at(r1, g0, b1, c) + fg * c111;
        } else {
          if (fb > fg) out = (1 - fb) * c000 + (fb - fg) * at(r0, g0, b1, c) + (fg - fr) * at(r0, g1, b1, c) + fr * c111;
          else if (fb > fr) out = (1 - fg) * c000 + (fg - fb) * at(r0, g1, b0, c) + (fb - fr) * at(r0, g1, b1, c) + fr * c111;
          else out = (1 - fg) * c000 + (fg - fr) * at(r0, g1, b0, c) + (fr - fb) * at(r1, g1, b0, c) + fb * c111;
        }
        rgba[i + c] = out;
      } else {
        const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
        const c00 = lerp(c000, at(r0, g0, b1, c), fb),
          c01 = lerp(at(r0, g1, b0, c), at(r0, g1, b1, c), fb);
        const c10 = lerp(at(r1, g0, b0, c), at(r1, g0, b1, c), fb),
          c11 = lerp(at(r1, g1, b0, c), c111, fb);
        rgba[i + c] = lerp(lerp(c00, c01, fg), lerp(c10, c11, fg), fr);
      }
    }
  }
}
