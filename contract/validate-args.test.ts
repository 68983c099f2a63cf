// decodeImage's fitWithin from an untrusted page: two positive integers, nothing else.
import { describe, expect, it } from 'vitest';
import { ArgumentError, validateArgs } from './validate-args.js';

const request = (fitWithin: unknown) => [{ requestId: 'r', fileId: 'f', part: 0, priority: 'preview', fitWithin }];

describe('decodeImage: request.fitWithin', () => {
  it('passes the page limits through, and a request without them unchanged', () => {
    expect(validateArgs('decodeImage', request({ maxSidePx: 8192, maxPixels: 40_000_000 }))[0].fitWithin).toEqual({
      maxSidePx: 8192,
      maxPixels: 40_000_000,
    });
    expect('fitWithin' in validateArgs('decodeImage', [{ requestId: 'r', fileId: 'f', part: 0, priority: 'preview' }])[0]).toBe(false);
  });

  it('refuses zero, fractions, strings and unknown fields, saying which', () => {
    expect(() => validateArgs('decodeImage', request({ maxSidePx: 0, maxPixels: 1 }))).toThrow(/at least 1/);
    expect(() => validateArgs('decodeImage', request({ maxSidePx: 1.5, maxPixels: 1 }))).toThrow(
      /maxSidePx must be a non-negative integer/,
    );
    expect(() => validateArgs('decodeImage', request({ maxSidePx: '8192', maxPixels: 1 }))).toThrow(ArgumentError);
    expect(() => validateArgs('decodeImage', request({ maxSidePx: 1, maxPixels: 1, tile: 1 }))).toThrow(/unknown field "tile"/);
  });
});

describe('decodeImage: request.region', () => {
  const withRegion = (region: unknown) => [{ requestId: 'r', fileId: 'f', part: 0, priority: 'preview', region }];
  it('passes a crop of level 0 through', () => {
    const region = { xPx: 1024, yPx: 0, widthPx: 2048, heightPx: 1024 };
    expect(validateArgs('decodeImage', withRegion(region))[0].region).toEqual(region);
  });
  it("refuses an empty crop, fractions and unknown fields, saying which; an origin left of 0 is a data window's", () => {
    expect(() => validateArgs('decodeImage', withRegion({ xPx: 0, yPx: 0, widthPx: 0, heightPx: 4 }))).toThrow(/at least 1/);
    expect(() => validateArgs('decodeImage', withRegion({ xPx: 0.5, yPx: 0, widthPx: 4, heightPx: 4 }))).toThrow(/xPx must be an integer/);
    expect(validateArgs('decodeImage', withRegion({ xPx: -8, yPx: -8, widthPx: 4, heightPx: 4 }))[0].region?.xPx).toBe(-8);
    expect(() => validateArgs('decodeImage', withRegion({ xPx: 0, yPx: 0, widthPx: 4, heightPx: 4, lx: 1 }))).toThrow(/unknown field "lx"/);
  });
});

describe('setPlayback: plan.fitWithin', () => {
  const plan = (fitWithin: unknown) => [{ fileIds: ['a', 'b'], part: 0, channels: ['R'], fitWithin }];
  it('passes the page limits through, and a plan without them unchanged', () => {
    expect(validateArgs('setPlayback', plan({ maxSidePx: 8192, maxPixels: 1 << 26 }))[0]?.fitWithin).toEqual({
      maxSidePx: 8192,
      maxPixels: 1 << 26,
    });
    expect('fitWithin' in validateArgs('setPlayback', [{ fileIds: ['a'], part: 0, channels: ['R'] }])[0]!).toBe(false);
  });
  it('refuses zero and unknown fields, saying which', () => {
    expect(() => validateArgs('setPlayback', plan({ maxSidePx: 0, maxPixels: 1 }))).toThrow(
      /plan.fitWithin: maxSidePx and maxPixels must be at least 1/,
    );
    expect(() => validateArgs('setPlayback', plan({ maxSidePx: 1, maxPixels: 1, level: 2 }))).toThrow(/unknown field "level"/);
  });
});
