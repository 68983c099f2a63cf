// Statistics text: %.9g exactly as C's printf writes it (expected strings taken from printf), and the stats arithmetic.
import { describe, expect, it } from 'vitest';
import { channelStats, formatG9, nine } from './stats.js';

const PRINTF_G9: [number, string][] = [
  [0.8876953125, '0.887695312'],
  [10000000000.0, '1e+10'],
  [-3.31997871e-5, '-3.31997871e-05'],
  [65504.0, '65504'],
  [0.1, '0.1'],
  [1 / 3, '0.333333333'],
  [123456789.0, '123456789'],
  [1234567890.0, '1.23456789e+09'],
  [-0.0001, '-0.0001'],
  [0.0001, '0.0001'],
  [1e-5, '1e-05'],
  [5e-324, '4.94065646e-324'],
  [1.7976931348623157e308, '1.79769313e+308'],
  [2.5, '2.5'],
  [0.000123456789012, '0.000123456789'],
  [999999999.5, '1e+09'],
  [-8.58306885e-6, '-8.58306885e-06'],
];

describe('formatG9', () => {
  for (const [value, text] of PRINTF_G9) {
    it(`${value} -> ${text}`, () => {
      expect(formatG9(value)).toBe(text);
      expect(nine(value)).toBe(Number(text));
    });
  }
});

describe('channelStats', () => {
  it('counts NaN and Inf apart and takes min/max/mean over finite half values', () => {
    // 1.0, -2.0, +Inf, NaN, 0.5
    const data = new Uint16Array([0x3c00, 0xc000, 0x7c00, 0x7e00, 0x3800]);
    const s = channelStats({ name: 'R', pixelType: 'half', xSampling: 1, ySampling: 1, widthSamples: 5, heightSamples: 1, data });
    expect(s).toEqual({ min: -2, max: 1, mean: -0.166666667, nanCount: 1, infCount: 1 });
  });

  it('gives null statistics when no value is finite, and converts uint through float32', () => {
    const nan = channelStats({
      name: 'Z',
      pixelType: 'float',
      xSampling: 1,
      ySampling: 1,
      widthSamples: 1,
      heightSamples: 1,
      data: new Float32Array([NaN]),
    });
    expect(nan).toEqual({ min: null, max: null, mean: null, nanCount: 1, infCount: 0 });
    const u = channelStats({
      name: 'id',
      pixelType: 'uint',
      xSampling: 1,
      ySampling: 1,
      widthSamples: 2,
      heightSamples: 1,
      data: new Uint32Array([16777217, 0]),
    });
    expect(u.max).toBe(16777216); // float(16777217) rounds to even
  });
});
