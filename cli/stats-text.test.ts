// The stats table: numbers as a person reads them, named, subsampled and deep parts, columns aligned.
import { describe, expect, it } from 'vitest';
import type { PartStats } from '../codec/index.js';
import { alignColumns, readableNumber, statsText } from './stats-text.js';

describe('readableNumber', () => {
  it('six significant digits, exponent form only below 1e-4 or from 1e6, "none" for no value', () => {
    expect(readableNumber(0.999674499)).toBe('0.999674');
    expect(readableNumber(-307.100006)).toBe('-307.1');
    expect(readableNumber(65504)).toBe('65504');
    expect(readableNumber(-0)).toBe('0');
    expect(readableNumber(0.000123456789)).toBe('0.000123457');
    expect(readableNumber(0.0000123)).toBe('1.23e-5');
    expect(readableNumber(1e7)).toBe('1e+7');
    expect(readableNumber(-1234567.8)).toBe('-1.2346e+6');
    expect(readableNumber(null)).toBe('none');
    expect(readableNumber(undefined)).toBe('none');
  });
});

describe('alignColumns', () => {
  it('pads text columns on the right and number columns on the left, two spaces apart, no trailing blanks', () => {
    expect(
      alignColumns(
        [
          ['name', 'n', 'last'],
          ['Y', '12345', ''],
          ['RY', '7', 'x'],
        ],
        ['left', 'right', 'left'],
      ),
    ).toEqual(['  name      n  last', '  Y     12345', '  RY        7  x']);
  });
});

describe('statsText', () => {
  const channel = (name: string, xSampling = 1) => ({ name, pixelType: 'half', xSampling, ySampling: xSampling });
  const stats: { parts: PartStats[] } = {
    parts: [
      {
        name: 'beauty',
        type: 'tiledimage',
        compression: 'piz',
        dataWindow: [-2, -1, 7, 8],
        displayWindow: [0, 0, 9, 9],
        channels: [
          { ...channel('BY', 2), min: -0.5, max: 0.5, mean: 0, nanCount: 0, infCount: 0 },
          { ...channel('Y'), min: 0, max: 1, mean: 0.25, nanCount: 0, infCount: 12 },
        ],
      },
      {
        name: 'depth',
        type: 'deepscanline',
        compression: 'zips',
        dataWindow: [0, 0, 9, 9],
        displayWindow: [0, 0, 9, 9],
        channels: [channel('Z'), channel('ZBack')],
      },
    ],
  };

  it("names each part, shows a sampling column where a channel is subsampled, and lists a deep part's channels without statistics", () => {
    expect(statsText('shot.exr', stats).split('\n')).toEqual([
      'shot.exr: 2 parts, 4 channels',
      '',
      'part 0 "beauty": tiledimage, piz compression',
      '  data window (-2, -1) - (7, 8), 10 x 10 pixels; display window (0, 0) - (9, 9)',
      '  channel  type  sampling   min  max  mean  NaN  Inf',
      '  BY       half  2 x 2     -0.5  0.5     0    0    0',
      '  Y        half  1 x 1        0    1  0.25    0   12',
      '',
      'part 1 "depth": deepscanline, zips compression',
      '  data window (0, 0) - (9, 9), 10 x 10 pixels; display window (0, 0) - (9, 9)',
      '  channel  type',
      '  Z        half',
      '  ZBack    half',
      '  (deep part: its samples are not summarised)',
      '',
      'min, max and mean are over finite values ("none" when there are none); NaN and Inf are counted apart.',
      '',
    ]);
  });

  it('says "1 part, 1 channel" in the singular', () => {
    expect(statsText('a.exr', { parts: [{ ...stats.parts[0]!, channels: [stats.parts[0]!.channels[1]!] }] })).toMatch(
      /^a\.exr: 1 part, 1 channel\n/,
    );
  });
});
