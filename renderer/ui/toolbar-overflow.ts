// Which toolbar items fit one row: the most important first, in their measured widths; the rest go to the "⋯" menu.
// The layout moves from the last one: a group that widens as it is used (HDR on, A/B flip) pushes others out rather
// than leaving itself, nothing comes back while the pointer is on the toolbar, and an item comes back from the menu only
// with room to spare: nothing swings between the row and the menu, and nothing moves from under the pointer.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface ToolbarItem {
  key: string;
  /** Lower goes to the menu first. */ priority: number;
}

/** Room to spare before an item in the menu comes back to the row (a few px of re-measuring must not move it again). */
export const RETURN_MARGIN_PX = 16;

export interface OverflowHold {
  /** The row group used last (clicked or focused): it keeps its place, and an item coming back never displaces it. */
  kept?: string | null;
  /** The pointer is on the toolbar (row or menu): nothing comes back from the menu, which would move what is under it. */
  frozen?: boolean;
}

/**
 * The keys (in display order) that do not fit `availablePx`, moving from the last layout (`wasOut`):
 * - while the row overflows, the least important item leaves it; with an item `kept` the items after it go first (it
 *   keeps its place), then those before, and it goes itself only when it alone cannot fit;
 * - then, unless `frozen`, items in the menu come back, the most important first, where they fit, displacing less
 *   important ones but never the kept one; those out before this call only with RETURN_MARGIN_PX to spare.
 * An item not measured yet counts as fitting: it is rendered in the row once, measured, and moved out if it does not fit.
 */
export function overflowKeys(
  items: readonly ToolbarItem[],
  widthsPx: ReadonlyMap<string, number>,
  availablePx: number,
  gapPx: number,
  wasOut: readonly string[] = [],
  hold: OverflowHold = {},
): string[] {
  const outBefore = new Set(wasOut);
  const row = new Set(items.filter((it) => !outBefore.has(it.key)).map((it) => it.key));
  const usedPx = (keys: Iterable<string>): number => {
    let px = 0,
      n = 0;
    for (const k of keys) {
      px += widthsPx.get(k) ?? 0;
      n++;
    }
    return px + Math.max(0, n - 1) * gapPx;
  };
  const ascending = (list: readonly ToolbarItem[]) => [...list].sort((a, b) => a.priority - b.priority);
  const keptAt = hold.kept == null || !row.has(hold.kept) ? -1 : items.findIndex((it) => it.key === hold.kept);
  const leaving =
    keptAt < 0 ? ascending(items) : [...ascending(items.slice(keptAt + 1)), ...ascending(items.slice(0, keptAt)), items[keptAt]!];
  for (const it of leaving) {
    if (usedPx(row) <= availablePx) break;
    row.delete(it.key);
  }
  if (hold.frozen) return items.filter((it) => !row.has(it.key)).map((it) => it.key);
  for (const it of ascending(items).reverse()) {
    if (row.has(it.key)) continue;
    const marginPx = outBefore.has(it.key) ? RETURN_MARGIN_PX : 0;
    const trial = new Set([...row, it.key]);
    for (const less of ascending(items)) {
      if (usedPx(trial) + marginPx <= availablePx || less.priority >= it.priority) break;
      if (less.key !== hold.kept) trial.delete(less.key);
    }
    if (usedPx(trial) + marginPx <= availablePx) {
      row.clear();
      for (const k of trial) row.add(k);
    }
  }
  return items.filter((it) => !row.has(it.key)).map((it) => it.key);
}

/**
 * Measures every item where it is (the row's `[data-item]`, the menu's `[data-menu-item]`; the closed menu is laid out,
 * unseen, so what changes in it is measured too) after every render and on resize; returns the keys for the menu.
 */
export function useToolbarOverflow(
  items: readonly ToolbarItem[],
  row: RefObject<HTMLElement | null>,
  menu: RefObject<HTMLElement | null>,
  gapPx: number,
): string[] {
  const widths = useRef(new Map<string, number>());
  const [out, setOut] = useState<string[]>([]);
  const outRef = useRef(out);
  outRef.current = out;
  // the row group used last keeps its place; while the pointer is on the toolbar nothing comes back to the row
  const hold = useRef<{ kept: string | null; frozen: boolean }>({ kept: null, frozen: false });
  const measure = useRef(() => {});
  measure.current = () => {
    const el = row.current;
    if (!el) return;
    for (const child of el.querySelectorAll<HTMLElement>(':scope > [data-item]'))
      widths.current.set(child.dataset.item!, child.offsetWidth);
    for (const child of menu.current?.querySelectorAll<HTMLElement>(':scope > [data-menu-item]') ?? [])
      if (child.offsetWidth > 0) widths.current.set(child.dataset.menuItem!, child.offsetWidth);
    const next = overflowKeys(items, widths.current, el.clientWidth, gapPx, outRef.current, hold.current);
    setOut((prev) => (prev.length === next.length && prev.every((k, i) => k === next[i]) ? prev : next));
  };
  // the row resizes with the window; an item resizes on its own (a LUT loaded widens its group without a toolbar render)
  const observer = useRef<ResizeObserver | null>(null);
  useLayoutEffect(() => {
    const el = row.current;
    if (!el) return;
    const ro = new ResizeObserver(() => measure.current());
    ro.observe(el);
    observer.current = ro;
    const bar = el.parentElement ?? el;
    const used = (e: Event): void => {
      const key = (e.target as Element).closest?.<HTMLElement>('[data-item]')?.dataset.item;
      if (key) hold.current.kept = key;
    };
    const enter = (): void => {
      hold.current.frozen = true;
    };
    const leave = (): void => {
      hold.current.frozen = false;
      // what waited for the pointer to leave (an item coming back) happens now, away from it
      measure.current();
    };
    el.addEventListener('pointerdown', used);
    el.addEventListener('focusin', used);
    bar.addEventListener('pointerenter', enter);
    bar.addEventListener('pointerleave', leave);
    return () => {
      ro.disconnect();
      observer.current = null;
      el.removeEventListener('pointerdown', used);
      el.removeEventListener('focusin', used);
      bar.removeEventListener('pointerenter', enter);
      bar.removeEventListener('pointerleave', leave);
    };
  }, [row]);
  useLayoutEffect(() => {
    for (const child of row.current?.querySelectorAll(':scope > [data-item]') ?? []) observer.current?.observe(child);
    for (const child of menu.current?.querySelectorAll(':scope > [data-menu-item]') ?? []) observer.current?.observe(child);
    measure.current();
  });
  return out;
}
