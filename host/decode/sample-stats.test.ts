// The workers' measuring kernels against the page's CPU reference (accumulateStat, countHistogramPixel), value by value:
// every half bit pattern, and float32 values across the histogram's bin edges, NaN, ±Inf, negatives and subnormals.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HALF_TO_FLOAT } from '../../codec/index.js';
import { accumulateStat, emptyChannelStats, type ChannelStats } from '../../shaders/compare-cpu.js';
import { HIST_BINS } from '../../shaders/display-params.js';
import { countHistogramPixel } from '../../shaders/tonemap-cpu.js';
import { ChannelMeter, countHistogram } from './sample-stats.js';

function reference(values: ArrayLike<number>): ChannelStats {
  const s = emptyChannelStats();
  for (let i = 0; i < values.length; i++) accumulateStat(s, values[i]!);
  return s;
}

function expectSame(got: ChannelStats, want: ChannelStats): void {
  expect({ n: got.n, min: got.min, max: got.max, nan: got.nan, inf: got.inf }).toEqual({
    n: want.n,
    min: want.min,
    max: want.max,
    nan: want.nan,
    inf: want.inf,
  });
  // two passes in float64 against Welford's one: equal to a few parts in 1e12 of the magnitudes involved
  const scale = Math.max(1, Math.abs(want.min), Math.abs(want.max));
  expect(Math.abs(got.mean - want.mean)).toBeLessThanOrEqual(1e-9 * scale);
  expect(Math.abs(got.m2 - want.m2)).toBeLessThanOrEqual(1e-9 * Math.max(1, want.m2, scale * scale));
}

describe('the measuring kernels', () => {
  it('count every half bit pattern as the reference does, over runs', () => {
    const bits = Uint16Array.from({ length: 65536 * 2 }, (_, i) => (i * 40503) & 0xffff);
    const meter = new ChannelMeter();
    meter.add(bits, 0, 1000);
    meter.add(bits, 1000, bits.length);
    expectSame(meter.result(), reference(Array.from(bits, (h) => HALF_TO_FLOAT[h]!)));
  });

  it('reduce float32 runs as the reference does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.float({ noDefaultInfinity: false }), fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-40)), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.nat(400),
        (values, cut) => {
          const data = Float32Array.from(values);
          const at = Math.min(cut, data.length);
          const meter = new ChannelMeter();
          meter.add(data, 0, at);
          meter.add(data, at, data.length);
          expectSame(meter.result(), reference(data));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('bin pixels as histogram-bins.wgsl does, half and float, across bin edges', () => {
    // values on and around every bin edge (8 an octave from 2^-16 to 2^16), and odd ones
    const edges = Array.from({ length: HIST_BINS + 1 }, (_, k) => 2 ** (-16 + k / 8));
    const values = new Float32Array([
      ...edges.flatMap((e) => [e, Math.fround(e * (1 - 2 ** -23)), Math.fround(e * (1 + 2 ** -23)), -e]),
      0,
      -0,
      NaN,
      Infinity,
      -Infinity,
      1e-45,
      3e38,
      65504,
    ]);
    const n = values.length;
    const g = values.map((_, i) => values[(i * 7) % n]!);
    const b = values.map((_, i) => values[(i * 13) % n]!);
    const want = new Uint32Array(4 * HIST_BINS);
    for (let i = 0; i < n; i++) countHistogramPixel(want, values[i]!, g[i]!, b[i]!);
    const got = new Uint32Array(4 * HIST_BINS);
    countHistogram(got, [values, g, b], 0, n);
    expect([...got]).toEqual([...want]);

    const half = Uint16Array.from({ length: 65536 }, (_, h) => h);
    const half2 = half.map((h) => (h * 40503) & 0xffff);
    const wantHalf = new Uint32Array(4 * HIST_BINS);
    for (let i = 0; i < half.length; i++) countHistogramPixel(wantHalf, HALF_TO_FLOAT[half[i]!]!, HALF_TO_FLOAT[half2[i]!]!, 0);
    const gotHalf = new Uint32Array(4 * HIST_BINS);
    countHistogram(gotHalf, [half, half2, null], 0, half.length);
    expect([...gotHalf]).toEqual([...wantHalf]);
  });
});
