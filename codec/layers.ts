// Layers and views of a part: channels grouped by name (`diffuse.R` is channel R of layer diffuse), views from multiView/view.

import type { Attribute, Preview } from './attributes.js';
import type { Channel } from './core/types.js';

export interface LayerChannel {
  /** The channel's full name in the file. */
  name: string;
  /** The last component of the name (`R` of `diffuse.R`). */
  channel: string;
  channelInfo: Channel;
}

export interface Layer {
  /** Everything before the last '.', without the view component; "" for the base layer. */
  name: string;
  /** The view the channels belong to; null when they belong to no particular view (shared by all). */
  view: string | null;
  /** R, G, B, A first (in that order), then the rest in header order. */
  channels: LayerChannel[];
}

export interface PartLayers {
  /** The part's views: its multiView list (the first is the default view), else its view attribute; empty when neither. */
  views: string[];
  defaultView: string | null;
  /** Base layer first, then by name; within a name, by view order. */
  layers: Layer[];
}

const RGBA_ORDER = ['R', 'G', 'B', 'A'];

function attribute(attributes: readonly Attribute[], name: string): Attribute['value'] | undefined {
  return attributes.find((a) => a.name === name)?.value;
}

/** The views of a part from its `multiView` (stringvector) or `view` (string) attribute. */
export function partViews(attributes: readonly Attribute[]): string[] {
  const multiView = attribute(attributes, 'multiView');
  if (multiView?.type === 'stringvector') return multiView.value.filter((v) => v !== '');
  const view = attribute(attributes, 'view');
  if (view?.type === 'string' && view.value !== '') return [view.value];
  return [];
}

/**
 * Which view a channel belongs to, and its name without the view. With a multiView list, OpenEXR's
 * rule (ImfMultiView): a name of one component belongs to the default view; otherwise the
 * second-to-last component names the view when it is one (`diffuse.left.R`); we also accept a view as
 * the first component (`left.diffuse.R`, as some applications write). A name matching no view belongs
 * to none. A part with a single `view` attribute puts every channel in that view.
 */
export function splitView(name: string, views: readonly string[], multiView: boolean): { view: string | null; rest: string } {
  if (!multiView) return { view: views[0] ?? null, rest: name };
  const parts = name.split('.');
  if (parts.length === 1) return { view: views[0] ?? null, rest: name };
  const penultimate = parts[parts.length - 2]!;
  if (views.includes(penultimate)) return { view: penultimate, rest: [...parts.slice(0, -2), parts[parts.length - 1]!].join('.') };
  if (parts.length > 2 && views.includes(parts[0]!)) return { view: parts[0]!, rest: parts.slice(1).join('.') };
  // no view named: channels of the default view carry no prefix (OpenEXR leaves them view-less)
  return { view: null, rest: name };
}

function rank(channel: string): number {
  const i = RGBA_ORDER.indexOf(channel);
  return i < 0 ? RGBA_ORDER.length : i;
}

/** Groups a part's channels into layers, per view. */
export function partLayers(channels: readonly Channel[], attributes: readonly Attribute[]): PartLayers {
  const views = partViews(attributes);
  const multiView = attribute(attributes, 'multiView')?.type === 'stringvector' && views.length > 0;
  const byKey = new Map<string, Layer>();
  channels.forEach((info) => {
    const { view, rest } = splitView(info.name, views, multiView);
    const dot = rest.lastIndexOf('.');
    const layerName = dot < 0 ? '' : rest.slice(0, dot);
    const channel = dot < 0 ? rest : rest.slice(dot + 1);
    const key = `${view ?? ''}\u0000${layerName}`;
    let layer = byKey.get(key);
    if (!layer) {
      layer = { name: layerName, view, channels: [] };
      byKey.set(key, layer);
    }
    layer.channels.push({ name: info.name, channel, channelInfo: info });
  });
  const viewIndex = (v: string | null) => (v === null ? -1 : views.indexOf(v));
  const layers = [...byKey.values()].sort((a, b) => {
    if (a.name !== b.name) return a.name === '' ? -1 : b.name === '' ? 1 : a.name < b.name ? -1 : 1;
    return viewIndex(a.view) - viewIndex(b.view);
  });
  for (const layer of layers) {
    // a stable sort keeps header order among the rest
    layer.channels.sort((a, b) => rank(a.channel) - rank(b.channel));
  }
  return { views, defaultView: views[0] ?? null, layers };
}

/** The part's preview image (RGBA, 8 bits per component, top row first), or null. */
export function previewOf(attributes: readonly Attribute[]): Preview | null {
  const value = attribute(attributes, 'preview');
  return value?.type === 'preview' ? value.value : null;
}
