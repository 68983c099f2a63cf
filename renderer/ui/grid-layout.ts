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

/** The row at the top of the view: the grid renders again only when a scroll crosses into another row. */
export function scrollRow(scrollTopPx: number, pitchPx: number): number {
  return Math.max(0, Math.floor(scrollTopPx / pitchPx));
}

/**
 * The cells to render while the view's top is anywhere in row `row`: the layout of that row's top with the view one row
 * taller, so that every scroll position inside the row finds its visible cells (and the overscan) rendered.
 */
export function rowLayout(
  count: number,
  widthPx: number,
  row: number,
  viewportHeightPx: number,
  cellPx: number,
  gapPx: number,
  overscanRows = 2,
): GridLayout {
  const pitch = cellPx + gapPx;
  return gridLayout(count, widthPx, row * pitch, viewportHeightPx + pitch, cellPx, gapPx, overscanRows);
}

/** A thumbnail's place on the grid canvas, in device px. */
export interface CanvasCell {
  fileId: string;
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}

/**
 * The canvas's cells for the items `l` covers, the view's top at `scrollTopPx`: each item's thumbnail (`thumbPx` square at
 * its cell's top-left), a strip of several files (a sequence's filmstrip) side by side in it.
 */
export function canvasCells(
  l: GridLayout,
  strips: (i: number) => readonly string[],
  scrollTopPx: number,
  thumbPx: number,
  dpr: number,
): CanvasCell[] {
  const cells: CanvasCell[] = [];
  for (let i = l.first; i <= l.last; i++) {
    const p = cellPosition(l, i);
    const strip = strips(i);
    const widthPx = (thumbPx * dpr) / strip.length;
    for (let k = 0; k < strip.length; k++) {
      cells.push({ fileId: strip[k]!, xPx: p.xPx * dpr + k * widthPx, yPx: (p.yPx - scrollTopPx) * dpr, widthPx, heightPx: thumbPx * dpr });
    }
  }
  return cells;
}
