// The CPU Cryptomatte view: the ID colours of the swatches in float32, broken coverage adding nothing, each mode's blend.
import { describe, expect, it } from 'vitest';
import { idColour } from './colour.js';
import { idOfName } from './hash.js';
import { interleaveGroup, matteCpu } from './matte-cpu.js';
import { cryptomatteViewCpu, idColour32 } from './view-cpu.js';

/** One rank group over `ids.length` pixels: rank 0 (id, coverage), rank 1 (id, coverage). */
function group(rows: [number, number, number, number][]) {
  const planes = [0, 1, 2, 3].map((c) => {
    const plane = new Float32Array(rows.length);
    const bits = new Uint32Array(plane.buffer);
    rows.forEach((r, i) => (c % 2 === 0 ? (bits[i] = r[c]!) : (plane[i] = r[c]!)));
    return plane;
  }) as unknown as [Float32Array, Float32Array, Float32Array, Float32Array];
  return { planes, rgba: interleaveGroup(planes, rows.length) };
}

describe('cryptomatteViewCpu', () => {
  it('colours an ID as the swatches do (in float32), ID 0 black', () => {
    for (const name of ['bunny', 'chair', 'mtl "glass"', 'asset_ÿ']) {
      const id = idOfName(name);
      const [r, g, b] = idColour32(id);
      const swatch = idColour(id);
      for (const [k, v] of [r, g, b].entries()) expect(Math.abs(v - swatch[k]!)).toBeLessThan(1e-6);
      expect(Math.max(r, g, b)).toBeGreaterThan(0.02);
    }
    expect(idColour32(0)).toEqual([0, 0, 0]);
  });

  it('the ID view sums colour × coverage; NaN, ±Inf coverage add nothing, the rest clamped to 0..1', () => {
    const a = idOfName('a');
    const b = idOfName('b');
    const { rgba } = group([
      [a, 0.25, b, 0.75],
      [a, NaN, b, Infinity],
      [a, -1, b, 2],
      [0, 1, 0, 1],
    ]);
    const out = cryptomatteViewCpu({ groups: [rgba], matte: null, beauty: null, picked: [], mode: 0, pixelCount: 4 });
    const ca = idColour32(a);
    const cb = idColour32(b);
    const f = Math.fround;
    for (let c = 0; c < 3; c++) {
      expect(out[c]).toBe(f(f(ca[c]! * 0.25) + f(cb[c]! * 0.75)));
      expect(out[4 + c]).toBe(0);
      expect(out[8 + c]).toBe(cb[c]);
      expect(out[12 + c]).toBe(0);
    }
    expect([out[3], out[7], out[11], out[15]]).toEqual([1, 1, 1, 1]);
  });

  it('alpha is the matte, isolate the beauty times it, overlay the beauty where nothing is picked dimmed', () => {
    const a = idOfName('a');
    const b = idOfName('b');
    const { planes, rgba } = group([
      [a, 0.5, b, 0.5],
      [b, 1, 0, 0],
    ]);
    const matte = matteCpu([planes], [a], 2);
    expect(Array.from(matte)).toEqual([0.5, 0]);
    const beauty = Float32Array.from([2, 4, 6, 1, 8, 8, 8, 1]);
    const view = (mode: 1 | 2 | 3) => cryptomatteViewCpu({ groups: [rgba], matte, beauty, picked: [a], mode, pixelCount: 2 });
    expect(Array.from(view(2))).toEqual([0.5, 0.5, 0.5, 1, 0, 0, 0, 1]);
    expect(Array.from(view(3))).toEqual([1, 2, 3, 1, 0, 0, 0, 1]);
    // the pixel nothing picked covers: the beauty mixed a quarter towards its IDs' colours, at 45 %
    const overlay = view(1);
    const cb = idColour32(b);
    for (let c = 0; c < 3; c++) expect(overlay[4 + c]).toBeCloseTo((8 * 0.75 + cb[c]! * 0.25) * 0.45, 5);
  });
});
