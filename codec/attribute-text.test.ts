// Attribute text: exrheader's layout for `exrview info`, and the same value alone for the header panel.
import { describe, expect, it } from 'vitest';
import { attributeText, attributeValueText } from './attribute-text.js';
import type { Attribute } from './attributes.js';

const chlist: Attribute = {
  name: 'channels',
  typeName: 'chlist',
  value: {
    type: 'chlist',
    value: [
      { name: 'B', pixelType: 'half', pLinear: false, xSampling: 1, ySampling: 1 },
      { name: 'RY', pixelType: 'half', pLinear: true, xSampling: 2, ySampling: 2 },
    ],
  },
};
const box: Attribute = {
  name: 'dataWindow',
  typeName: 'box2i',
  value: { type: 'box2i', value: { xMin: 0, yMin: -3, xMax: 549, yMax: 831 } },
};
const htj2k: Attribute = { name: 'compression', typeName: 'compression', value: { type: 'compression', value: 'htj2k32' } };
const matrix: Attribute = { name: 'worldToCamera', typeName: 'm33f', value: { type: 'm33f', value: [1, 0, 0, 0, 1, 0, 0, 0, 1] } };

describe('attribute text', () => {
  it('lays attributes out as exrheader does', () => {
    expect(attributeText(box)).toBe('dataWindow (type box2i): (0 -3) - (549 831)');
    expect(attributeText(chlist)).toBe(
      'channels (type chlist):\n    B, 16-bit floating-point, sampling 1 1\n    RY, 16-bit floating-point, sampling 2 2, plinear',
    );
    expect(attributeText(matrix)).toBe('worldToCamera (type m33f):\n   (1 0 0\n    0 1 0\n    0 0 1)');
    expect(attributeText(htj2k)).toBe('compression (type compression): htj2k32: High-Throughput JPEG 2000 (32 lines)');
  });

  it('gives the value alone, block lines without their indent', () => {
    expect(attributeValueText(box)).toBe('(0 -3) - (549 831)');
    expect(attributeValueText(chlist)).toBe('B, 16-bit floating-point, sampling 1 1\nRY, 16-bit floating-point, sampling 2 2, plinear');
    expect(attributeValueText(matrix)).toBe('(1 0 0\n0 1 0\n0 0 1)');
  });
});
