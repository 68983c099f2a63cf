// The Layers view's tiles: n layers of one aspect ratio in a grid that fills the preview, each with room for its name
// below. Pure; the engine draws in device px and the labels sit at the same places in CSS px.

export interface SheetTile {
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}
export const SHEET_LABEL_PX = 18;
export const SHEET_GAP_PX = 8;

/** Picks the column count that makes the tiles largest; image rects keep the aspect ratio, centred in their cell. */
export function sheetLayout(
  n: number,
  widthPx: number,
  heightPx: number,
  aspect: number,
  labelPx = SHEET_LABEL_PX,
  gapPx = SHEET_GAP_PX,
): SheetTile[] {
  if (n <= 0 || widthPx <= 0 || heightPx <= 0) return [];
  let best = { cols: 1, scale: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const cellW = (widthPx - gapPx * (cols + 1)) / cols,
      cellH = (heightPx - gapPx * (rows + 1)) / rows - labelPx;
    const w = Math.min(cellW, cellH * aspect);
    if (w > best.scale) best = { cols, scale: w };
  }
  const cols = best.cols,
    rows = Math.ceil(n / cols);
  const cellW = (widthPx - gapPx * (cols + 1)) / cols,
    cellH = (heightPx - gapPx * (rows + 1)) / rows;
  const w = Math.max(1, Math.min(cellW, (cellH - labelPx) * aspect)),
    h = Math.max(1, w / aspect);
  return Array.from({ length: n }, (_, i) => {
    const cx = gapPx + (i % cols) * (cellW + gapPx),
      cy = gapPx + Math.floor(i / cols) * (cellH + gapPx);
    return {
      xPx: Math.round(cx + (cellW - w) / 2),
      yPx: Math.round(cy + (cellH - labelPx - h) / 2),
      widthPx: Math.round(w),
      heightPx: Math.round(h),
    };
  });
}
