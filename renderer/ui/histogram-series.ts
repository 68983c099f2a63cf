// Which curves the histogram draws for a layer choice: R, G, B and luminance for colour and grey; a two-channel (u,v)
// layer's two channels in red and green under their own names, no empty blue and no luminance it does not have. Pure.
import { channelSuffix, colourSlots, type LayerChoice } from '../model/layer-choice.js';

export interface HistogramSeries {
  /** Index of the series in the engine's bins: 0 luminance, 1 + slot for R, G, B. */
  bins: number;
  label: string;
  colour: string;
}

const COLOURS = ['rgba(255, 90, 90, 0.8)', 'rgba(90, 230, 90, 0.8)', 'rgba(110, 140, 255, 0.85)'];
const LUMINANCE: HistogramSeries = { bins: 0, label: 'luminance', colour: 'rgba(235, 235, 235, 0.9)' };

export function histogramSeries(choice: LayerChoice | null): HistogramSeries[] {
  const colour = choice ? colourSlots(choice) : [0, 1, 2];
  if (colour.length === 3) return [0, 1, 2].map((k) => ({ bins: k + 1, label: 'RGB'[k]!, colour: COLOURS[k]! })).concat(LUMINANCE);
  return colour.map((k) => ({ bins: k + 1, label: channelSuffix(choice!.slots[k]!), colour: COLOURS[k]! }));
}
