// The pixel-values overlay's numbers: A's, B's (shifted by the alignment) and the difference image's, per displayed channel.
import { describe, expect, it } from 'vitest';
import type { DecodedImage } from '../host-client/api-types.js';
import { displayedSlots, shortValue, shownValues } from './pixel-values.js';

function image(fileId: string, x0: number, y0: number, w: number, h: number, f: (x: number, y: number, c: number) => number): DecodedImage {
  const planes = ['R', 'G', 'B'].map((name, c) => {
    const d = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d[y * w + x] = f(x + x0, y + y0, c);
    return { name, pixelType: 'float' as const, xSampling: 1, ySampling: 1, widthSamples: w, heightSamples: h, data: d.buffer };
  });
  return {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [x0, y0, x0 + w - 1, y0 + h - 1],
    displayWindow: [0, 0, 9, 9],
    widthPx: w,
    heightPx: h,
    planes,
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
  };
}
const RGB = { slots: ['R', 'G', 'B', null], mode: 'direct' as const };

describe('shownValues', () => {
  const a = { image: image('a', 0, 0, 10, 10, (x, y, c) => x + 10 * y + c / 10), choice: RGB };
  const b = { image: image('b', 2, 1, 8, 8, () => 1), choice: RGB, shift: [0, 0] as [number, number] };

  it('shows A, B and their difference per displayed channel', () => {
    const near = (vs: { value: number }[] | null) => vs!.map((v) => +v.value.toFixed(4));
    expect(near(shownValues(a, b, 'off', 'a', 'rgb', 3, 2))).toEqual([23, 23.1, 23.2]);
    expect(shownValues(a, b, 'wipe', 'b', 'rgb', 3, 2)!.map((v) => v.value)).toEqual([1, 1, 1]);
    expect(near(shownValues(a, b, 'error', 'a', 'rgb', 3, 2))).toEqual([22, 22.1, 22.2]);
    expect(near(shownValues(a, b, 'absolute-error', 'a', 'g', 0, 0))).toEqual([0.1]); // B is 0 outside its data window
    expect(shownValues(a, b, 'flip', 'b', 'rgb', 0, 0)).toBeNull();
  });

  it('reads a two-channel layer as its two channels, u and v, with no blue', () => {
    const uv = { slots: ['uv.u', 'uv.v', null, null], mode: 'direct' as const };
    const im = image('u', 0, 0, 4, 4, (x, y, c) => (c === 0 ? 0.25 + x : c === 1 ? -0.5 - y : 99));
    im.planes[0]!.name = 'uv.u';
    im.planes[1]!.name = 'uv.v';
    im.planes.pop();
    expect(displayedSlots(uv, 'rgb')).toEqual([0, 1]);
    expect(displayedSlots(uv, 'rgba')).toEqual([0, 1]);
    expect(shownValues({ image: im, choice: uv }, null, 'off', 'a', 'rgb', 2, 1)).toEqual([
      { label: 'u', colour: '#ff9a9a', value: 2.25 },
      { label: 'v', colour: '#9aff9a', value: -1.5 },
    ]);
    // a single channel stays one grey value
    expect(displayedSlots({ slots: ['Z', null, null, null], mode: 'y' }, 'rgb')).toEqual([0]);
  });

  it('labels channels by their suffix and keeps numbers short', () => {
    expect(displayedSlots(RGB, 'rgba')).toEqual([0, 1, 2]);
    expect(displayedSlots({ slots: ['R', 'G', 'B', 'A'], mode: 'direct' }, 'rgba')).toEqual([0, 1, 2, 3]);
    expect(shownValues(a, null, 'off', 'a', 'r', 1, 1)![0]!.label).toBe('R');
    expect(shortValue(0.123456)).toBe('0.1235');
    expect(shortValue(123456)).toBe('1.23e+5');
    expect(shortValue(NaN)).toBe('NaN');
  });
});
