// deepSamples' arguments from an untrusted side: a pixel, channels and the depth sort pass; anything else is refused, saying what.
import { describe, expect, it } from 'vitest';
import { ArgumentError, validateArgs } from './validate-args.js';

describe('deepSamples: request', () => {
  it('passes one pixel, the whole part, channels and the depth sort through', () => {
    const pixel = { fileId: 'f', part: 1, pixel: { xPx: -3, yPx: 7 }, channels: ['Z', 'A'] };
    expect(validateArgs('deepSamples', [pixel])[0]).toEqual(pixel);
    expect(validateArgs('deepSamples', [{ fileId: 'f', part: 0, sortByDepth: true }])[0]).toEqual({
      fileId: 'f',
      part: 0,
      sortByDepth: true,
    });
  });

  it('refuses fractions, unknown fields, a wrong type and a missing request, saying which', () => {
    const bad = (request: unknown) => () => validateArgs('deepSamples', [request]);
    expect(bad({ fileId: 'f', part: 0, pixel: { xPx: 0.5, yPx: 0 } })).toThrow(/pixel\.xPx must be an integer/);
    expect(bad({ fileId: 'f', part: 0, pixel: { xPx: 0, yPx: 0, zPx: 1 } })).toThrow(/unknown field "zPx"/);
    expect(bad({ fileId: 'f', part: 0, path: '/etc/passwd' })).toThrow(/unknown field "path"/);
    expect(bad({ fileId: 'f', part: 0, sortByDepth: 'yes' })).toThrow(/sortByDepth must be true or false/);
    expect(bad({ part: 0 })).toThrow(/fileId must be a string/);
    expect(() => validateArgs('deepSamples', [])).toThrow(ArgumentError);
  });
});
