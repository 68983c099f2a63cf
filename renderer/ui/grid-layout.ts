// Virtualized grid geometry: columns, rows and the index range to render for a scroll position. Pure.

export interface GridLayout {
  columns: number;
  rows: number;
  cellPx: number;
  gapPx: number;
  totalHeightPx: number;
  first: number;
  last: number;
}

export function gridLayout(
  count: number,
  widthPx: number,
  scrollTopPx: number,
  viewportHeightPx: number,
  cellPx: number,
  gapPx: number,
  overscanRows = 2,
): GridLayout {
  const pitch = cellPx + gapPx;
  const columns = Math.max(1, Math.floor((widthPx - gapPx) / pitch));
  const rows = Math.ceil(count / columns);
  const totalHeightPx = rows * pitch + gapPx;
  const firstRow = Math.max(0, Math.floor(scrollTopPx / pitch) - overscanRows);
  const lastRow = Math.min(rows - 1, Math.ceil((scrollTopPx + viewportHeightPx) / pitch) + overscanRows);
  const first = Math.min(count, firstRow * columns);
  const last = Math.min(count - 1, (lastRow + 1) * columns - 1);
  return { columns, rows, cellPx, gapPx, totalHeightPx, first, last };
}

/** Top-left of cell i in grid content px. */
export function cellPosition(l: GridLayout, i: number): { xPx: number; yPx: number } {
  const pitch = l.cellPx + l.gapPx;
  return { xPx: l.gapPx + (i % l.columns) * pitch, yPx: l.gapPx + Math.floor(i / l.columns) * pitch };
}
