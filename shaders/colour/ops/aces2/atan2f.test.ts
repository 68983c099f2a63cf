// atan2F against glibc 2.36's atan2f (the OCIO reference tools' C library), where Math.atan2 rounded to float32 differs from it.

import { describe, expect, it } from 'vitest';
import { atan2F } from './atan2f.js';

/**
 * [y, x, atan2f(y, x)] as glibc 2.36 computes them on x86-64: picked from two million random float pairs where
 * fround(Math.atan2) lands a bit away, in all four quadrants and near ±π/2. (atan2F agreed with all two million.)
 */
const GLIBC_CASES: [number, number, number][] = [
  [61.44167709350586, 104.94718933105469, 0.5296546816825867],
  [-5481.8408203125, -23.05516815185547, -1.5750019550323486],
  [-42.40738296508789, 166.2778778076172, -0.24971583485603333],
  [1.9620000123977661, 0.46000000834465027, 1.340501308441162],
  [176278.734375, -0.0008410917944274843, 1.570796251296997],
  [9.699000358581543, 6.809000015258789, 0.9587084650993347],
  [0.7360000014305115, 4.427999973297119, 0.1647091954946518],
  [-0.0003150117117911577, -0.000048701844207243994, -1.7241851091384888],
  [-167.0233154296875, -51.38369369506836, -1.8692508935928345],
  [-13.517120361328125, -0.0003447900526225567, -1.570821762084961],
  [61.217044830322266, 37.58830642700195, 1.0201339721679688],
  [-179.8282928466797, -46.819374084472656, -1.8254977464675903],
];

describe('atan2F', () => {
  it('gives glibc atan2f bit for bit where Math.atan2 rounded to float32 does not', () => {
    for (const [y, x, expected] of GLIBC_CASES) {
      expect(Math.fround(Math.atan2(y, x))).not.toBe(expected);
      expect(atan2F(y, x), `atan2F(${y}, ${x})`).toBe(expected);
    }
  });

  it('zeros, infinities and NaN as C99 defines them', () => {
    const specials = [0, -0, 1, -1, Math.fround(1e-30), Infinity, -Infinity];
    for (const y of specials) for (const x of specials) expect(atan2F(y, x), `atan2F(${y}, ${x})`).toBe(Math.fround(Math.atan2(y, x)));
    expect(atan2F(NaN, 1)).toBeNaN();
    expect(atan2F(1, NaN)).toBeNaN();
  });

  it('stays within a float32 step or two of the true angle everywhere', () => {
    for (let k = 0; k < 5_000; k++) {
      const angle = (k / 5_000) * 2 * Math.PI - Math.PI;
      const radius = Math.pow(10, (k % 13) - 6);
      const y = Math.fround(radius * Math.sin(angle)),
        x = Math.fround(radius * Math.cos(angle));
      const truth = Math.atan2(y, x);
      expect(Math.abs(atan2F(y, x) - truth)).toBeLessThanOrEqual(2.5 * Math.pow(2, Math.floor(Math.log2(Math.abs(truth) || 1)) - 23));
    }
  });
});
