// How panels name the layer they measure: a channel expression by its text, not the layer it was picked over.
import type { LayerChoice } from '../model/layer-choice.js';

/** `expr: TEXT` for an expression's result; else the layer's name, `(base)` for the unnamed one. */
export function shownLayerText(layerName: string, choice: LayerChoice | null): string {
  if (choice?.expression) return `expr: ${choice.expression.text}`;
  return layerName || '(base)';
}
