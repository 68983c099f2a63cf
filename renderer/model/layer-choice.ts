// Which planes feed R, G, B, A for a layer and channel pick, and what the tone-map then shows. Pure.
import type { LayerSummary } from '../host-client/api-types.js';
import type { ChannelView } from '../../shaders/display-params.js';
import type { AssembleMode } from '../../shaders/layouts.js';
import { SAMPLES_PLANE } from './deep-samples.js';
import { compileExpression, type ExpressionProgram } from '../../shaders/expressions/index.js';

/**
 * The channel picker's value: a view of the layer's RGBA, one named channel in grey, or a deep part's sample counts. A
 * layer of two channels (u,v) fills R and G, B stays 0; a single channel is grey.
 */
export type ChannelPick = ChannelView | `channel:${string}` | 'samples' | `expr:${string}`;

/** The pick that shows a channel expression's result (shaders/expressions) as the layer. */
export const expressionPick = (text: string): ChannelPick => `expr:${text}`;
export const pickExpression = (pick: ChannelPick): string | null => (pick.startsWith('expr:') ? pick.slice('expr:'.length) : null);

/** Which planes go to R, G, B, A (null: 0 for colour, 1 for alpha) and how they combine. */
export interface LayerChoice {
  slots: readonly (string | null)[];
  mode: AssembleMode;
  /**
   * A channel expression's result in place of planes: the layer is computed from `expression.planes` (slots then only
   * name the result's channels for panels).
   */
  expression?: ExpressionProgram;
}

export function layerKey(c: LayerChoice): string {
  if (c.expression) return `expr:${c.expression.planes.join('|')}:${c.expression.text}`;
  return `${c.mode}:${c.slots.map((s) => s ?? '-').join('|')}`;
}

/** The planes a layer choice reads, each once. */
export function planesOf(c: LayerChoice): string[] {
  if (c.expression) return [...c.expression.planes];
  return [...new Set(c.slots.filter((s): s is string => s !== null))];
}

const suffix = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

export function findSuffix(channels: readonly string[], ...names: string[]): string | null {
  for (const n of names) {
    const hit = channels.find((c) => suffix(c) === n);
    if (hit) return hit;
  }
  return null;
}

/**
 * `partChannels`: every channel of the part, which an expression pick is checked against (else the layer's); an
 * expression that does not check against them shows the layer's RGB.
 */
export function layerChoice(
  layer: LayerSummary,
  pick: ChannelPick,
  partChannels: readonly string[] = layer.channels,
): { choice: LayerChoice; channelView: ChannelView } {
  const ch = layer.channels;
  const text = pickExpression(pick);
  if (text !== null) {
    const compiled = compileExpression(text, partChannels);
    if (!compiled.ok) return layerChoice(layer, 'rgb');
    const program = compiled.program;
    const scalar = program.root.size === 1;
    const slots = scalar ? ['value', null, null, null] : ['R', 'G', 'B', program.root.size === 4 ? 'A' : null];
    return { choice: { slots, mode: scalar ? 'y' : 'direct', expression: program }, channelView: 'rgb' };
  }
  if (pick === 'samples') return { choice: { slots: [SAMPLES_PLANE, null, null, null], mode: 'y' }, channelView: 'rgb' };
  if (pick.startsWith('channel:')) {
    const name = pick.slice('channel:'.length);
    return { choice: { slots: [name, null, null, null], mode: 'y' }, channelView: 'rgb' };
  }
  const view = pick as ChannelView;
  const a = findSuffix(ch, 'A', 'a', 'alpha');
  const r = findSuffix(ch, 'R', 'r', 'red');
  const g = findSuffix(ch, 'G', 'g', 'green');
  const b = findSuffix(ch, 'B', 'b', 'blue');
  if (r || g || b) return { choice: { slots: [r, g, b, a], mode: 'direct' }, channelView: view };
  const y = findSuffix(ch, 'Y');
  if (y) {
    const ry = findSuffix(ch, 'RY');
    const by = findSuffix(ch, 'BY');
    return { choice: { slots: [y, ry, by, a], mode: ry && by ? 'yc' : 'y' }, channelView: view };
  }
  const colour = ch.filter((c) => c !== a);
  // two channels (u,v; motion x,y): red and green, as compositing tools show them, each measured under its own name
  if (colour.length === 2) return { choice: { slots: [colour[0]!, colour[1]!, null, a], mode: 'direct' }, channelView: view };
  const first = colour[0] ?? ch[0] ?? null;
  return { choice: { slots: [first, null, null, a], mode: 'y' }, channelView: view };
}

const channelLists = new WeakMap<object, string[]>();

/** A part's channel names (what an expression pick is checked against), computed once per part summary. */
export function partChannelNames(part: { channels: readonly { name: string }[] }): string[] {
  let names = channelLists.get(part);
  if (!names) channelLists.set(part, (names = part.channels.map((c) => c.name)));
  return names;
}

/** The colour slots (R, G, B) a choice fills with a channel: all three for grey and luminance/chroma, else those named. */
export function colourSlots(c: LayerChoice): number[] {
  if (c.mode !== 'direct') return [0, 1, 2];
  const named = [0, 1, 2].filter((k) => c.slots[k] !== null);
  return named.length ? named : [0, 1, 2];
}

/** A channel's name without its layer: "u" for "uv.u". */
export const channelSuffix = suffix;

/**
 * What one colormapped value is made of for a channel pick: the RGBA slots read (one for a single channel, R, G and B
 * for a colour view, whose luminance the colormap shows) and the name the colour bar gives it.
 */
export function colormapSource(pick: ChannelPick): { label: string; slots: number[] } {
  const one = ['r', 'g', 'b', 'a'].indexOf(pick);
  if (one >= 0) return { label: pick.toUpperCase(), slots: [one] };
  if (pick.startsWith('channel:')) return { label: pick.slice('channel:'.length), slots: [0] };
  if (pick === 'samples') return { label: 'sample count', slots: [0] };
  if (pick.startsWith('expr:')) return { label: 'expression', slots: [0, 1, 2] };
  return { label: 'luminance', slots: [0, 1, 2] };
}
