// Which toolbar items fit one row: the most important first, in their measured widths; the rest go to the "⋯" menu.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface ToolbarItem {
  key: string;
  /** Lower goes to the menu first. */ priority: number;
}

/**
 * The keys that do not fit `availablePx`, taking items by priority: an item that does not fit goes to the menu, and a
 * less important one that still fits the room left stays (the row is filled). An item not measured yet counts as
 * fitting: it is rendered in the row once, measured, and moved out on the next pass if it does not fit.
 */
export function overflowKeys(
  items: readonly ToolbarItem[],
  widthsPx: ReadonlyMap<string, number>,
  availablePx: number,
  gapPx: number,
): string[] {
  const byPriority = [...items].sort((a, b) => b.priority - a.priority);
  let usedPx = 0;
  const out: string[] = [];
  for (const it of byPriority) {
    const needPx = (widthsPx.get(it.key) ?? 0) + (usedPx ? gapPx : 0);
    if (usedPx + needPx > availablePx) out.push(it.key);
    else usedPx += needPx;
  }
  return out;
}

/** Measures the row's `[data-item]` children after every render and on resize; returns the keys for the menu. */
export function useToolbarOverflow(items: readonly ToolbarItem[], row: RefObject<HTMLElement | null>, gapPx: number): string[] {
  const widths = useRef(new Map<string, number>());
  const [out, setOut] = useState<string[]>([]);
  const measure = useRef(() => {});
  measure.current = () => {
    const el = row.current;
    if (!el) return;
    for (const child of el.querySelectorAll<HTMLElement>(':scope > [data-item]'))
      widths.current.set(child.dataset.item!, child.offsetWidth);
    const next = overflowKeys(items, widths.current, el.clientWidth, gapPx);
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
    return () => {
      ro.disconnect();
      observer.current = null;
    };
  }, [row]);
  useLayoutEffect(() => {
    for (const child of row.current?.querySelectorAll(':scope > [data-item]') ?? []) observer.current?.observe(child);
    measure.current();
  });
  return out;
}
