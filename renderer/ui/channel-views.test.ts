// The Channel menu's display modes: all of them for colour and grey layers; a u,v layer's as red and green by name.
import { describe, expect, it } from 'vitest';
import { CHANNEL_VIEWS } from '../../shaders/display-params.js';
import { channelViews } from './channel-views.js';

const layer = (name: string, channels: string[]) => ({ name, view: null, channels });

describe('channelViews', () => {
  it('offers every display mode for a colour layer and for a single channel', () => {
    expect(channelViews(layer('', ['B', 'G', 'R']), 'rgb').map((v) => v.view)).toEqual([...CHANNEL_VIEWS]);
    expect(channelViews(layer('depth', ['depth.Z']), 'rgb').map((v) => v.view)).toEqual([...CHANNEL_VIEWS]);
  });

  it('offers a two-channel layer as its channels in red and green, no blue or luminance', () => {
    expect(channelViews(layer('uv', ['uv.u', 'uv.v']), 'rgb')).toEqual([
      { view: 'rgb', label: 'u red, v green' },
      { view: 'r', label: 'u only' },
      { view: 'g', label: 'v only' },
    ]);
    expect(channelViews(layer('uv', ['uv.A', 'uv.u', 'uv.v']), 'rgb').map((v) => v.view)).toEqual(['rgb', 'rgba', 'r', 'g', 'a']);
  });

  it('keeps the mode on screen in the list, so the menu never names another', () => {
    expect(channelViews(layer('motion', ['motion.x', 'motion.y']), 'b').map((v) => v.view)).toEqual(['rgb', 'r', 'g', 'b']);
  });
});
