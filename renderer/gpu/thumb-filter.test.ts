// Thumbnail shrinking: half conversion exact both ways, area averages in linear light, no aliasing of fine detail.
import { describe, expect, it } from 'vitest';
import { halfToFloat } from '../../shaders/tonemap-cpu.js';
import { boxDownsampleHalfRgba, fitSize, floatToHalf } from './thumb-filter.js';

function image(w: number, h: number, f: (x: number, y: number, c: number) => number): Uint16Array {
  const out = new Uint16Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 4; c++) out[(y * w + x) * 4 + c] = floatToHalf(f(x, y, c));
  return out;
}
const at = (img: Uint16Array, w: number, x: number, y: number, c: number): number => halfToFloat(img[(y * w + x) * 4 + c]!);

describe('floatToHalf', () => {
  it('round-trips every half value exactly (NaN stays NaN)', () => {
    for (let h = 0; h < 65536; h++) {
      const v = halfToFloat(h);
      if (Number.isNaN(v)) expect(Number.isNaN(halfToFloat(floatToHalf(v)))).toBe(true);
      else expect(floatToHalf(v)).toBe(h);
    }
  });

  it('rounds to nearest even, overflows to Inf, underflows to signed zero', () => {
    expect(floatToHalf(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and the next half: even (1)
    expect(floatToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02); // halfway, rounds up to even
    expect(floatToHalf(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    expect(floatToHalf(65520)).toBe(0x7c00);
    expect(floatToHalf(-1e6)).toBe(0xfc00);
    expect(floatToHalf(2 ** -26)).toBe(0);
    expect(floatToHalf(-(2 ** -26))).toBe(0x8000);
    expect(floatToHalf(3 * 2 ** -25)).toBe(2); // subnormal halfway 1.5 ulp → 2
  });
});

describe('boxDownsampleHalfRgba', () => {
  it('a one-pixel checkerboard halved becomes its mean everywhere (skipping pixels would give all black or all white)', () => {
    const w = 256,
      h = 128;
    const src = image(w, h, (x, y, c) => (c === 3 ? 1 : (x + y) % 2));
    const out = boxDownsampleHalfRgba(src, w, h, 128, 64);
    for (let y = 0; y < 64; y++)
      for (let x = 0; x < 128; x++) {
        expect(at(out, 128, x, y, 0)).toBe(0.5);
        expect(at(out, 128, x, y, 3)).toBe(1);
      }
  });

  it('weights by area for a non-integer ratio and keeps the mean (energy) of the image', () => {
    const w = 5,
      h = 1;
    const values = [1, 2, 3, 4, 5];
    const src = image(w, h, (x, _y, c) => (c === 0 ? values[x]! : 0));
    const out = boxDownsampleHalfRgba(src, w, h, 2, 1);
    // [0, 2.5) and [2.5, 5): (1 + 2 + 0.5·3) / 2.5 and (0.5·3 + 4 + 5) / 2.5
    expect(at(out, 2, 0, 0, 0)).toBeCloseTo(1.8, 2);
    expect(at(out, 2, 1, 0, 0)).toBeCloseTo(4.2, 2);
    expect((at(out, 2, 0, 0, 0) + at(out, 2, 1, 0, 0)) / 2).toBeCloseTo(3, 2);
  });

  it('averages linear values (a bright highlight keeps its energy: HDR, not display-encoded)', () => {
    const src = image(4, 4, (x, y, c) => (c < 3 && x === 0 && y === 0 ? 160 : 0));
    const out = boxDownsampleHalfRgba(src, 4, 4, 1, 1);
    expect(at(out, 1, 0, 0, 0)).toBe(10);
  });
});

describe('fitSize', () => {
  it('fits the long side, keeps the aspect, never enlarges, never zero', () => {
    expect(fitSize(256, 128, 128)).toEqual({ widthPx: 128, heightPx: 64 });
    expect(fitSize(100, 300, 128)).toEqual({ widthPx: 43, heightPx: 128 });
    expect(fitSize(64, 48, 128)).toEqual({ widthPx: 64, heightPx: 48 });
    expect(fitSize(4000, 1, 128)).toEqual({ widthPx: 128, heightPx: 1 });
  });
});
