// The layout preferences: defaults by window width, widths kept in range, the preview's share kept, storage round trip.
import { describe, expect, it } from 'vitest';
import {
  GRID_WIDTH_RANGE_PX,
  INSPECTOR_WIDTH_RANGE_PX,
  MIN_PREVIEW_PX,
  defaultLayout,
  draggedWidth,
  loadLayout,
  saveLayout,
} from './layout.js';

const memory = (): Storage => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as Storage;
};

describe('layout preferences', () => {
  it('leaves the image most of the window by default: 55 % or more at 1280 and 1920 px', () => {
    for (const w of [1280, 1920]) {
      const l = defaultLayout(w);
      expect((w - l.gridWidthPx - l.inspectorWidthPx - 2 * 8) / w).toBeGreaterThanOrEqual(0.55);
    }
  });

  it('a drag keeps the width in range and leaves the preview its minimum', () => {
    expect(draggedWidth(200, 50, 340, 1280, GRID_WIDTH_RANGE_PX)).toBe(250);
    expect(draggedWidth(200, -500, 340, 1280, GRID_WIDTH_RANGE_PX)).toBe(GRID_WIDTH_RANGE_PX[0]);
    const wide = draggedWidth(200, 2000, 340, 1280, GRID_WIDTH_RANGE_PX);
    expect(1280 - wide - 340).toBeGreaterThanOrEqual(MIN_PREVIEW_PX);
    expect(draggedWidth(340, 1000, 0, 4000, INSPECTOR_WIDTH_RANGE_PX)).toBe(INSPECTOR_WIDTH_RANGE_PX[1]);
  });

  it('remembers sizes and folds across a reload, and falls back to the default on anything else', () => {
    const storage = memory();
    expect(loadLayout(storage, 1280)).toEqual(defaultLayout(1280));
    saveLayout(storage, { gridWidthPx: 400, inspectorWidthPx: 300, gridOpen: false, inspectorOpen: true, panelsHidden: true });
    expect(loadLayout(storage, 1920)).toEqual({
      gridWidthPx: 400,
      inspectorWidthPx: 300,
      gridOpen: false,
      inspectorOpen: true,
      panelsHidden: true,
    });
    storage.setItem('exrview.layout', '{"gridWidthPx": 99999, "gridOpen": "yes"}');
    expect(loadLayout(storage, 1280)).toMatchObject({ gridWidthPx: GRID_WIDTH_RANGE_PX[1], gridOpen: true });
    storage.setItem('exrview.layout', 'not json');
    expect(loadLayout(storage, 1280)).toEqual(defaultLayout(1280));
    expect(loadLayout(null, 1280)).toEqual(defaultLayout(1280));
  });
});
