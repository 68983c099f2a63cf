// The workers' box filter: every target the mean of the level 0 samples its box covers (checked against sums taken
// here sample by sample), two factors from one read as each alone, and rows split into tasks as the whole at once.
import { describe, expect, it } from 'vitest';
import { HALF_TO_FLOAT, floatToHalf } from '../../codec/index.js';
import { boxFilterRows, halfRow } from './box-filter.js';

/** The mean of the W×H samples of `values` in the box of (ox, oy) at `factor`, partial at the edges. */
function boxMean(values: ArrayLike<number>, W: number, H: number, factor: number, ox: number, oy: number): number {
  let sum = 0,
    n = 0;
  for (let y = oy * factor; y < Math.min(H, (oy + 1) * factor); y++)
    for (let x = ox * factor; x < Math.min(W, (ox + 1) * factor); x++, n++) sum += values[x + y * W]!;
  return sum / n;
}

describe('the box filter of rows into reduced levels', () => {
  const W = 45,
    H = 37;
  const values = Array.from({ length: W * H }, (_, i) => ((i * 37) % 101) / 7 - 3);

  it('makes a 1/4 and a 1/16 level of float samples in one read, each the mean of level 0 over its box', () => {
    const src = Float32Array.from(values);
    const fine = new Float32Array(12 * 10),
      coarse = new Float32Array(3 * 3);
    boxFilterRows('float', src, W, H, [
      { factor: 4, data: fine, firstRow: 0 },
      { factor: 16, data: coarse, firstRow: 0 },
    ]);
    for (let oy = 0; oy < 10; oy++)
      for (let ox = 0; ox < 12; ox++) expect(fine[oy * 12 + ox]).toBeCloseTo(boxMean(src, W, H, 4, ox, oy), 5);
    for (let oy = 0; oy < 3; oy++)
      for (let ox = 0; ox < 3; ox++) expect(coarse[oy * 3 + ox], `${ox},${oy}`).toBeCloseTo(boxMean(src, W, H, 16, ox, oy), 5);
  });

  it('rounds half means once, from level 0 (not the finer level rounded first)', () => {
    const src = Uint16Array.from(values, floatToHalf);
    const asFloat = Array.from(src, (h) => HALF_TO_FLOAT[h]!);
    const fine = new Uint16Array(23 * 19),
      coarse = new Uint16Array(6 * 5);
    boxFilterRows('half', src, W, H, [
      { factor: 2, data: fine, firstRow: 0 },
      { factor: 8, data: coarse, firstRow: 0 },
    ]);
    for (let oy = 0; oy < 5; oy++)
      for (let ox = 0; ox < 6; ox++) expect(coarse[oy * 6 + ox]).toBe(floatToHalf(boxMean(asFloat, W, H, 8, ox, oy)));
    for (let oy = 0; oy < 19; oy++)
      for (let ox = 0; ox < 23; ox++) expect(fine[oy * 23 + ox]).toBe(floatToHalf(boxMean(asFloat, W, H, 2, ox, oy)));
  });

  it('writes rows split into tasks (each starting on a multiple of every factor) as the whole at once', () => {
    const src = Uint16Array.from(values, floatToHalf);
    const whole = [new Uint16Array(12 * 10), new Uint16Array(3 * 3)];
    boxFilterRows('half', src, W, H, [
      { factor: 4, data: whole[0]!, firstRow: 0 },
      { factor: 16, data: whole[1]!, firstRow: 0 },
    ]);
    const split = [new Uint16Array(12 * 10), new Uint16Array(3 * 3)];
    for (let y = 0; y < H; y += 16) {
      const rows = Math.min(16, H - y);
      boxFilterRows('half', src.subarray(y * W, (y + rows) * W), W, rows, [
        { factor: 4, data: split[0]!, firstRow: y / 4 },
        { factor: 16, data: split[1]!, firstRow: y / 16 },
      ]);
    }
    expect(split).toEqual(whole);
  });

  it("takes a uint box's first sample (IDs cannot be averaged), and refuses factors that do not nest", () => {
    const ids = Uint32Array.from({ length: 6 * 4 }, (_, i) => i);
    const out = [new Uint32Array(3 * 2), new Uint32Array(2 * 1)];
    boxFilterRows('uint', ids, 6, 4, [
      { factor: 2, data: out[0]!, firstRow: 0 },
      { factor: 4, data: out[1]!, firstRow: 0 },
    ]);
    expect([...out[0]!]).toEqual([0, 2, 4, 12, 14, 16]);
    expect([...out[1]!]).toEqual([0, 4]);
    expect(() =>
      boxFilterRows('float', new Float32Array(36), 6, 6, [
        { factor: 2, data: new Float32Array(9), firstRow: 0 },
        { factor: 3, data: new Float32Array(4), firstRow: 0 },
      ]),
    ).toThrow(/divide/);
  });

  it("makes half bits a row at a time as the codec's floatToHalf does: rounding, subnormals, overflow, NaN", () => {
    const values = [0, -0, 1, -2.5, 65504, 65519, 65520, 1e6, -1e6, 6e-8, 3e-8, 2.9e-8, 1e-5, 6.1e-5, Infinity, -Infinity, NaN];
    for (let i = 0; i < 4000; i++) values.push(Math.sinh((i - 2000) / 150) * 1.37);
    const f32 = Float32Array.from(values);
    const out = new Uint16Array(values.length + 2);
    halfRow(new Uint32Array(f32.buffer), out, 2, values.length);
    expect([...out.subarray(2)]).toEqual(values.map(floatToHalf));
  });

  it('reads a NaN half as 0 and an infinity as the largest half, so one bad sample does not blank its box', () => {
    const src = Uint16Array.from([1, 1, 1, 1], floatToHalf);
    src[1] = 0x7e00; // NaN
    src[2] = 0x7c00; // +Inf
    const out = new Uint16Array(1);
    boxFilterRows('half', src, 2, 2, [{ factor: 2, data: out, firstRow: 0 }]);
    expect(out[0]).toBe(floatToHalf((1 + 0 + 65504 + 1) / 4));
  });
});
