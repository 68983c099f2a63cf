// Layers, views and the preview accessor.

import { describe, expect, it } from 'vitest';
import type { Attribute } from './attributes.js';
import { partLayers, partViews, previewOf, splitView } from './layers.js';
import { ExrReader } from './reader.js';
import { memorySource } from './source.js';
import type { Channel } from './core/types.js';
import { writeExr } from './writer.js';

const channel = (name: string): Channel => ({ name, pixelType: 'half', pLinear: false, xSampling: 1, ySampling: 1 });
const multiView = (...views: string[]): Attribute => ({
  name: 'multiView',
  typeName: 'stringvector',
  value: { type: 'stringvector', value: views },
});
const summary = (names: string[], attributes: Attribute[] = []) =>
  partLayers(names.map(channel), attributes).layers.map((l) => `${l.view ?? '-'}:${l.name}:${l.channels.map((c) => c.channel).join(',')}`);

describe('partLayers', () => {
  it('groups by the last dot, base layer first, RGBA order then header order', () => {
    expect(summary(['A', 'B', 'G', 'R', 'Z', 'diffuse.A', 'diffuse.B', 'diffuse.G', 'diffuse.R', 'a.b.c.x', 'N.x', 'N.y'])).toEqual([
      '-::R,G,B,A,Z',
      '-:N:x,y',
      '-:a.b.c:x',
      '-:diffuse:R,G,B,A',
    ]);
  });

  it("splits views by OpenEXR's rule: one-component names are the default view's, else the second-to-last component", () => {
    // the channels of Beachball/singlepart.0001.exr
    const names = [
      'A',
      'B',
      'G',
      'R',
      'Z',
      'disparityL.x',
      'forward.left.u',
      'forward.left.v',
      'forward.right.u',
      'left.A',
      'left.B',
      'left.G',
      'left.R',
      'left.Z',
      'whitebarmask.left.mask',
    ];
    const layers = partLayers(names.map(channel), [multiView('right', 'left')]);
    expect(layers.views).toEqual(['right', 'left']);
    expect(layers.defaultView).toBe('right');
    expect(layers.layers.map((l) => `${l.view ?? '-'}:${l.name}:${l.channels.map((c) => c.channel).join(',')}`)).toEqual([
      'right::R,G,B,A,Z',
      'left::R,G,B,A,Z',
      '-:disparityL:x',
      'right:forward:u',
      'left:forward:u,v',
      'left:whitebarmask:mask',
    ]);
  });

  it('also takes a view as the first component (left.diffuse.R)', () => {
    expect(splitView('left.diffuse.R', ['right', 'left'], true)).toEqual({ view: 'left', rest: 'diffuse.R' });
    expect(splitView('diffuse.R', ['right', 'left'], true)).toEqual({ view: null, rest: 'diffuse.R' });
    expect(splitView('R', ['right', 'left'], true)).toEqual({ view: 'right', rest: 'R' });
  });

  it('puts every channel of a part with a view attribute in that view', () => {
    const view: Attribute = { name: 'view', typeName: 'string', value: { type: 'string', value: 'left' } };
    expect(partViews([view])).toEqual(['left']);
    expect(summary(['R', 'left.R'], [view])).toEqual(['left::R', 'left:left:R']);
    expect(partViews([])).toEqual([]);
  });
});

describe('previewOf', () => {
  it('returns the preview attribute the writer stored, and null without one', () => {
    const rgba = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => i * 7);
    const data = {
      dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 },
      channels: [{ name: 'Y', pixelType: 'half' as const, data: new Uint16Array(4) }],
    };
    const withPreview = ExrReader.open(memorySource(writeExr([{ ...data, preview: { widthPx: 3, heightPx: 2, rgba } }])));
    expect(previewOf(withPreview.parts[0]!.attributes)).toEqual({ widthPx: 3, heightPx: 2, rgba });
    expect(previewOf(ExrReader.open(memorySource(writeExr([data]))).parts[0]!.attributes)).toBeNull();
  });
});
