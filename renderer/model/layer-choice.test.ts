// Which planes a layer shows in R, G, B, A: colour layers, luminance/chroma, two-channel (u,v) layers, single channels.
import { describe, expect, it } from 'vitest';
import { colourSlots, layerChoice } from './layer-choice.js';

const layer = (name: string, channels: string[]) => ({ name, view: null, channels });

describe('layerChoice', () => {
  it('shows a two-channel layer as red and green, blue left 0, in every colour view', () => {
    for (const view of ['rgb', 'rgba', 'luminance'] as const)
      expect(layerChoice(layer('uv', ['uv.u', 'uv.v']), view)).toEqual({
        choice: { slots: ['uv.u', 'uv.v', null, null], mode: 'direct' },
        channelView: view,
      });
    expect(layerChoice(layer('motion', ['motion.x', 'motion.y']), 'rgb').choice.slots).toEqual(['motion.x', 'motion.y', null, null]);
  });

  it('keeps a two-channel layer’s alpha as alpha, and a single channel with alpha grey', () => {
    expect(layerChoice(layer('uv', ['uv.A', 'uv.u', 'uv.v']), 'rgba').choice).toEqual({
      slots: ['uv.u', 'uv.v', null, 'uv.A'],
      mode: 'direct',
    });
    expect(layerChoice(layer('mask', ['mask.A', 'mask.m']), 'rgb').choice).toEqual({ slots: ['mask.m', null, null, 'mask.A'], mode: 'y' });
  });

  it('shows a single channel as a grey ramp, and one channel of a two-channel layer alone in grey', () => {
    expect(layerChoice(layer('depth', ['depth.Z']), 'rgb').choice).toEqual({ slots: ['depth.Z', null, null, null], mode: 'y' });
    expect(layerChoice(layer('uv', ['uv.u', 'uv.v']), 'channel:uv.v').choice).toEqual({ slots: ['uv.v', null, null, null], mode: 'y' });
  });

  it('leaves colour and luminance/chroma layers as they were', () => {
    expect(layerChoice(layer('', ['B', 'G', 'R']), 'rgb').choice).toEqual({ slots: ['R', 'G', 'B', null], mode: 'direct' });
    expect(layerChoice(layer('', ['BY', 'RY', 'Y']), 'rgb').choice.mode).toBe('yc');
  });
});

describe('colourSlots', () => {
  it('names the colour slots that hold a channel: R and G for u,v; all three for colour and grey', () => {
    expect(colourSlots(layerChoice(layer('uv', ['uv.u', 'uv.v']), 'rgb').choice)).toEqual([0, 1]);
    expect(colourSlots(layerChoice(layer('', ['R', 'G', 'B']), 'rgb').choice)).toEqual([0, 1, 2]);
    expect(colourSlots(layerChoice(layer('depth', ['depth.Z']), 'rgb').choice)).toEqual([0, 1, 2]);
  });
});
