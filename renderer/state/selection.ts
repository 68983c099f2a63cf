// Multi-selection in the grid, as a listbox with aria-multiselectable: click, Ctrl/Cmd-click, Shift ranges, keyboard. Pure.

/** Selected file ids (in the order they were added), the anchor Shift extends from, and the focused (on-screen) file. */
export interface Selection {
  ids: readonly string[];
  anchor: string | null;
  focus: string | null;
}

export interface Modifiers {
  /** Ctrl on Linux/Windows, Cmd on macOS: toggle one without touching the rest. */
  toggle: boolean;
  /** Shift: a range from the anchor. */
  range: boolean;
}

export const EMPTY_SELECTION: Selection = { ids: [], anchor: null, focus: null };

/** The ids between a and b (inclusive) in grid order; just b when a is not in the grid any more. */
function rangeIds(order: readonly string[], a: string | null, b: string): string[] {
  const j = order.indexOf(b);
  const i = a === null ? -1 : order.indexOf(a);
  if (i < 0 || j < 0) return [b];
  return order.slice(Math.min(i, j), Math.max(i, j) + 1);
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** A pointer click on option `id`. */
export function clickSelect(sel: Selection, order: readonly string[], id: string, mods: Modifiers): Selection {
  if (mods.range) {
    const range = rangeIds(order, sel.anchor, id);
    return { ids: mods.toggle ? union(sel.ids, range) : range, anchor: sel.anchor ?? id, focus: id };
  }
  if (mods.toggle) {
    const on = sel.ids.includes(id);
    // toggling one off keeps the image on screen where it was; toggling one on shows it
    return { ids: on ? sel.ids.filter((x) => x !== id) : [...sel.ids, id], anchor: id, focus: on ? sel.focus : id };
  }
  return { ids: [id], anchor: id, focus: id };
}

export interface KeyInput {
  key: string;
  shift: boolean;
  ctrl: boolean;
}

/**
 * A key on the focused listbox, WAI-ARIA's recommended multi-select model for a grid of `columns`: arrows, Home and End
 * move the focus and select it alone; with Shift they extend from the anchor; with Ctrl/Cmd they move the focus only.
 * Space toggles the focused option (Shift+Space: the range to it); Ctrl/Cmd+A selects all. Null: not a selection key.
 */
export function keySelect(sel: Selection, order: readonly string[], input: KeyInput, columns: number): Selection | null {
  if (!order.length) return null;
  const at = sel.focus === null ? -1 : order.indexOf(sel.focus);
  if (input.ctrl && !input.shift && (input.key === 'a' || input.key === 'A'))
    return { ids: [...order], anchor: sel.anchor, focus: sel.focus ?? order[0]! };
  if (input.key === ' ') {
    if (at < 0) return { ids: [order[0]!], anchor: order[0]!, focus: order[0]! };
    return clickSelect(sel, order, order[at]!, { toggle: !input.shift, range: input.shift });
  }
  const steps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns };
  let next: number;
  if (input.key in steps) next = at < 0 ? 0 : Math.min(order.length - 1, Math.max(0, at + steps[input.key]!));
  else if (input.key === 'Home') next = 0;
  else if (input.key === 'End') next = order.length - 1;
  else return null;
  const id = order[next]!;
  if (input.ctrl && !input.shift) return { ...sel, focus: id };
  return clickSelect(sel, order, id, { toggle: input.ctrl, range: input.shift });
}

/** The selected ids that are still in the grid, in grid order. */
export function selectedInOrder(sel: Selection, order: readonly string[]): string[] {
  const on = new Set(sel.ids);
  return order.filter((id) => on.has(id));
}

/** Drops ids that no longer exist (files removed from the folder). */
export function pruneSelection(sel: Selection, exists: (id: string) => boolean): Selection {
  const ids = sel.ids.filter(exists);
  return {
    ids,
    anchor: sel.anchor !== null && exists(sel.anchor) ? sel.anchor : null,
    focus: sel.focus !== null && exists(sel.focus) ? sel.focus : null,
  };
}
