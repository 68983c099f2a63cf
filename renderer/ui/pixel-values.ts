// What the pixel-values overlay and the readout show at an image pixel: the displayed channels' values of A, B or the
// difference image, read from the CPU copies of the planes. Pure.
import type { DecodedImage } from '../host-client/api-types.js';
import { planeValue } from '../cpu/assemble.js';
import { evaluateExpression } from '../../shaders/expressions/index.js';
import { differenceValue, isDifference, type CompareMode } from '../../shaders/compare-params.js';
import type { ChannelView } from '../../shaders/display-params.js';
import { colourSlots, type LayerChoice } from '../model/layer-choice.js';

export interface ShownChannel {
  label: string;
  colour: string;
  value: number;
}

const COLOURS = ['#ff9a9a', '#9aff9a', '#a8b8ff', '#ffffff'];

/**
 * The RGBA slots a channel view displays (all four for rgba; one for r, g, b, a; R, G, B otherwise), less those no
 * channel fills: a two-channel (u,v) layer reads u and v, never a blue that is not in the file.
 */
export function displayedSlots(choice: LayerChoice, view: ChannelView): number[] {
  if (choice.mode === 'y') return choice.slots[3] && view === 'rgba' ? [0, 3] : [0];
  const k = { r: [0], g: [1], b: [2], a: [3], rgba: [0, 1, 2, 3] } as Record<string, number[]>;
  const colour = colourSlots(choice);
  return (k[view] ?? [0, 1, 2]).filter((i) => (i < 3 ? colour.includes(i) : choice.slots[i] !== null));
}

/** A slot's value at an absolute pixel (0 outside the data window; 1 for a missing alpha). */
export function slotValue(image: DecodedImage, choice: LayerChoice, slot: number, x: number, y: number): number {
  const name = choice.slots[slot];
  const [x0, y0, x1, y1] = image.dataWindow;
  if (x < x0 || y < y0 || x > x1 || y > y1) return 0;
  const program = choice.expression;
  if (program) {
    const planes = program.planes.map((n) => {
      const q = image.planes.find((p) => p.name === n);
      return [q ? planeValue(q, x - x0, y - y0) : 0];
    });
    return evaluateExpression(program, planes, 1)[slot]!;
  }
  const p = name ? image.planes.find((q) => q.name === name) : undefined;
  if (!p) return slot === 3 ? 1 : 0;
  return planeValue(p, x - x0, y - y0);
}

const shortName = (n: string | null, slot: number): string => (n ? n.slice(n.lastIndexOf('.') + 1) : ['R', 'G', 'B', 'A'][slot]!);

/**
 * The values shown at A-space pixel (x, y): A's (side 'a'), B's (side 'b', at x − shift), or the difference image's when
 * the mode is one. Null where the image has no pixel there.
 */
export function shownValues(
  a: { image: DecodedImage; choice: LayerChoice },
  b: { image: DecodedImage; choice: LayerChoice; shift: [number, number] } | null,
  mode: CompareMode,
  side: 'a' | 'b',
  view: ChannelView,
  x: number,
  y: number,
): ShownChannel[] | null {
  const inside = (im: DecodedImage, px: number, py: number) =>
    px >= im.dataWindow[0] && py >= im.dataWindow[1] && px <= im.dataWindow[2] && py <= im.dataWindow[3];
  const slots = displayedSlots(a.choice, view);
  if (b && isDifference(mode)) {
    const bx = x - b.shift[0],
      by = y - b.shift[1];
    if (!inside(a.image, x, y) && !inside(b.image, bx, by)) return null;
    return slots.map((s) => ({
      label: shortName(a.choice.slots[s] ?? null, s),
      colour: COLOURS[s]!,
      value: differenceValue(mode, slotValue(a.image, a.choice, s, x, y), slotValue(b.image, b.choice, s, bx, by)),
    }));
  }
  if (side === 'b' && b) {
    const bx = x - b.shift[0],
      by = y - b.shift[1];
    if (!inside(b.image, bx, by)) return null;
    return displayedSlots(b.choice, view).map((s) => ({
      label: shortName(b.choice.slots[s] ?? null, s),
      colour: COLOURS[s]!,
      value: slotValue(b.image, b.choice, s, bx, by),
    }));
  }
  if (!inside(a.image, x, y)) return null;
  return slots.map((s) => ({
    label: shortName(a.choice.slots[s] ?? null, s),
    colour: COLOURS[s]!,
    value: slotValue(a.image, a.choice, s, x, y),
  }));
}

/** Short enough to fit a pixel: 4 significant digits, or an exponent. */
export function shortValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e4 || a < 1e-3)) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}
