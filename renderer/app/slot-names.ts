// The names of the RGBA slots a layer choice fills, as the Statistics and Comparison panels label their rows.
import type { LayerChoice } from '../model/layer-choice.js';

/** Names of the RGBA slots a layer choice fills (null: a constant), as the panels label them. */
export function slotNames(c: LayerChoice): (string | null)[] {
  if (c.mode === 'y') return [c.slots[0] ?? null, null, null, c.slots[3] ?? null];
  if (c.mode === 'yc') return ['R (from Y, RY, BY)', 'G (from Y, RY, BY)', 'B (from Y, RY, BY)', c.slots[3] ?? null];
  return [...c.slots].map((s) => s ?? null);
}
