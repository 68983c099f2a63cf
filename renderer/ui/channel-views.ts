// The Channel menu's display modes for a layer, named by what they show of it: a two-channel (u,v) layer offers its
// two channels as red and green, not a blue or a luminance it does not have. Pure.
import { CHANNEL_VIEWS, type ChannelView } from '../../shaders/display-params.js';
import type { LayerSummary } from '../host-client/api-types.js';
import { channelSuffix, colourSlots, layerChoice, pickExpression, type ChannelPick } from '../model/layer-choice.js';

/**
 * The display modes by what they show, apart from the layer's own channels below them (which may be named R, G, B, A
 * too): "R" twice in one list, once as a mode and once as a channel, read as a mistake.
 */
const VIEW_LABELS: Record<ChannelView, string> = {
  rgb: 'RGB',
  rgba: 'RGBA (over a checkerboard)',
  r: 'red only',
  g: 'green only',
  b: 'blue only',
  a: 'alpha as grey',
  luminance: 'luminance',
};

/** The Channel menu's entry for an expression shown as the layer (its value is the pick), else null. */
export function expressionOption(current: ChannelPick): { value: ChannelPick; label: string } | null {
  const text = pickExpression(current);
  return text === null ? null : { value: current, label: `ƒx ${text.length > 40 ? `${text.slice(0, 39)}…` : text}` };
}

/** The display modes offered for `layer`, with their labels; `current` is kept in the list so the menu names it. */
export function channelViews(layer: LayerSummary | undefined, current: ChannelPick): { view: ChannelView; label: string }[] {
  const all = CHANNEL_VIEWS.map((view) => ({ view, label: VIEW_LABELS[view] }));
  if (!layer) return all;
  const { choice } = layerChoice(layer, 'rgb');
  const colour = colourSlots(choice);
  if (choice.mode !== 'direct' || colour.length !== 2) return all;
  const [first, second] = colour.map((k) => channelSuffix(choice.slots[k]!));
  const one: ChannelView[] = ['r', 'g', 'b'];
  const named: Partial<Record<ChannelView, string>> = {
    rgb: `${first} red, ${second} green`,
    ...(choice.slots[3] ? { rgba: `${first} red, ${second} green, over a checkerboard` } : {}),
    [one[colour[0]!]!]: `${first} only`,
    [one[colour[1]!]!]: `${second} only`,
    ...(choice.slots[3] ? { a: VIEW_LABELS.a } : {}),
  };
  return CHANNEL_VIEWS.filter((v) => named[v] !== undefined || v === current).map((view) => ({
    view,
    label: named[view] ?? VIEW_LABELS[view],
  }));
}
