// Cube → lat-long: each face lands where OpenEXR's conventions put its direction; the result is 2:1.
import { describe, expect, it } from 'vitest';
import { cubeTexel, cubeToLatLongHalf } from './envmap-latlong.js';

describe('cube env maps to lat-long', () => {
  it('finds the face of each axis direction at its centre', () => {
    const sof = 9,
      c = (sof - 1) / 2;
    expect(cubeTexel(1, 0, 0, sof)).toEqual([c, 0 * sof + c]);
    expect(cubeTexel(-1, 0, 0, sof)).toEqual([c, 1 * sof + c]);
    expect(cubeTexel(0, 1, 0, sof)).toEqual([c, 2 * sof + c]);
    expect(cubeTexel(0, -1, 0, sof)).toEqual([c, 3 * sof + c]);
    expect(cubeTexel(0, 0, 1, sof)).toEqual([c, 4 * sof + c]);
    expect(cubeTexel(0, 0, -1, sof)).toEqual([c, 5 * sof + c]);
  });

  it('puts +Y at the top row, -Y at the bottom, +Z in the middle of the equator', () => {
    const sof = 8;
    const cube = new Uint16Array(sof * 6 * sof * 4);
    for (let y = 0; y < 6 * sof; y++) for (let x = 0; x < sof; x++) cube[(y * sof + x) * 4] = Math.floor(y / sof) + 1; // face index + 1 in R
    const ll = cubeToLatLongHalf(cube, sof, 6 * sof);
    expect([ll.widthPx, ll.heightPx]).toEqual([32, 16]);
    const at = (x: number, y: number): number => ll.rgbaHalf[(y * ll.widthPx + x) * 4]!;
    expect(at(5, 0)).toBe(3); // +Y
    expect(at(20, 15)).toBe(4); // -Y
    expect(at(16, 8)).toBe(5); // longitude ~0: +Z
    expect(at(0, 8)).toBe(6); // longitude +pi: -Z
    expect(at(8, 8)).toBe(1); // longitude +pi/2: +X
  });
});
