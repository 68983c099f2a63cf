// The histogram's curves: R, G, B and luminance for colour and grey layers, u and v alone for a two-channel layer.
import { describe, expect, it } from 'vitest';
import { layerChoice } from '../model/layer-choice.js';
import { histogramSeries } from './histogram-series.js';

const choice = (channels: string[]) => layerChoice({ name: '', view: null, channels }, 'rgb').choice;

describe('histogramSeries', () => {
  it('draws R, G, B and luminance for a colour layer, a single channel and nothing chosen yet', () => {
    for (const c of [choice(['B', 'G', 'R']), choice(['Z']), null])
      expect(histogramSeries(c).map((s) => [s.bins, s.label])).toEqual([
        [1, 'R'],
        [2, 'G'],
        [3, 'B'],
        [0, 'luminance'],
      ]);
  });

  it('draws a two-channel layer’s u and v in red and green, no blue or luminance', () => {
    expect(histogramSeries(choice(['uv.u', 'uv.v'])).map((s) => [s.bins, s.label])).toEqual([
      [1, 'u'],
      [2, 'v'],
    ]);
  });
});
