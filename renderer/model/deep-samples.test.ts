// Deep parts: the counts plane, its max, the count in the pixel inspector, the display scaling, and the channel pick.
import { describe, expect, it } from 'vitest';
import type { DecodedImage } from '../host-client/api-types.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { falseColourZone, toneMapPixel } from '../../shaders/tonemap-cpu.js';
import { pixelReadout } from '../ui/pixel-readout.js';
import { maxSampleCount, sampleCountAt, samplesDisplay, SAMPLES_PLANE, withSampleCountPlane } from './deep-samples.js';
import { layerChoice } from './layer-choice.js';

function deepImage(counts: number[], w: number, h: number, x0 = 10, y0 = 20): DecodedImage {
  const r = new Float32Array(counts.map((n) => n / 10));
  return {
    fileId: 'd',
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [x0, y0, x0 + w - 1, y0 + h - 1],
    displayWindow: [x0, y0, x0 + w - 1, y0 + h - 1],
    widthPx: w,
    heightPx: h,
    planes: [{ name: 'R', pixelType: 'float', xSampling: 1, ySampling: 1, widthSamples: w, heightSamples: h, data: r.buffer }],
    deepSampleCounts: new Uint32Array(counts).buffer,
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
  };
}

describe('deep sample counts', () => {
  const img = withSampleCountPlane(deepImage([0, 1, 3, 8, 2, 0], 3, 2));

  it("become a uint plane over the host's buffer, once; flat images and wrong-sized buffers are left alone", () => {
    const plane = img.planes.find((p) => p.name === SAMPLES_PLANE)!;
    expect(plane).toMatchObject({ pixelType: 'uint', widthSamples: 3, heightSamples: 2 });
    expect(plane.data).toBe(img.deepSampleCounts);
    expect(withSampleCountPlane(img)).toBe(img);
    const flat = { ...deepImage([1], 1, 1), deepSampleCounts: undefined };
    expect(withSampleCountPlane(flat)).toBe(flat);
    const bad = { ...deepImage([1, 2], 2, 1), deepSampleCounts: new ArrayBuffer(4) };
    expect(withSampleCountPlane(bad).planes).toHaveLength(1);
  });

  it('max and per-pixel count at absolute coordinates; the inspector shows the count after the flattened values', () => {
    expect(maxSampleCount(img)).toBe(8);
    expect(sampleCountAt(img, 10, 21)).toBe(8);
    expect(sampleCountAt(img, 9, 20)).toBeNull();
    expect(pixelReadout(img, ['R'], 11, 20)).toBe('11, 20  R=0.10000 samples=1');
  });

  it('grey: 0 is black and the max count white, whatever the exposure; false colour puts the max in the top zone', () => {
    const d = samplesDisplay({ ...DEFAULT_DISPLAY, exposureEv: 5, transform: 'aces', clipping: true }, 8);
    const grey = (n: number) => toneMapPixel(n, n, n, 1, 0, 0, d)[0];
    expect(grey(0)).toBe(0);
    expect(grey(8)).toBeCloseTo(1, 6);
    expect(grey(4)).toBeCloseTo(0.5, 6);
    const f = samplesDisplay({ ...DEFAULT_DISPLAY, falseColour: true }, 8);
    const zone = (n: number) => falseColourZone(n * 2 ** f.exposureEv);
    expect(zone(8)).toBe(8);
    expect(zone(0)).toBe(0);
    expect(zone(1)).toBeLessThan(zone(4));
  });

  it('the "samples" pick shows the counts plane in grey', () => {
    expect(layerChoice({ name: '', view: null, channels: ['R', 'G', 'B', 'A'] }, 'samples')).toEqual({
      choice: { slots: [SAMPLES_PLANE, null, null, null], mode: 'y' },
      channelView: 'rgb',
    });
  });
});
