// The window's layout preferences: the grid's and the inspector's widths, which of them is collapsed, all panels
// hidden; kept in localStorage so the window opens as the artist left it. Pure apart from the storage it is given.

export interface LayoutSlice {
  gridWidthPx: number;
  inspectorWidthPx: number;
  gridOpen: boolean;
  inspectorOpen: boolean;
  /** Every panel out of the way (Tab): the image alone with the toolbar and the status line. */
  panelsHidden: boolean;
}

export const GRID_WIDTH_RANGE_PX = [152, 900] as const;
export const INSPECTOR_WIDTH_RANGE_PX = [260, 720] as const;
/** The preview keeps at least this much of the window when panels are dragged wider. */
export const MIN_PREVIEW_PX = 320;

const STORAGE_KEY = 'exrview.layout';

/** One column of thumbnails below 1600 px, two from there; an inspector wide enough for its statistics table. */
export function defaultLayout(windowWidthPx: number): LayoutSlice {
  return {
    gridWidthPx: windowWidthPx >= 1600 ? 304 : 152,
    inspectorWidthPx: 340,
    gridOpen: true,
    inspectorOpen: true,
    panelsHidden: false,
  };
}

const clamp = (v: number, [lo, hi]: readonly [number, number]): number => Math.round(Math.min(Math.max(v, lo), hi));

/** The layout with widths inside their ranges (what a splitter drag or a stored value may ask for). */
export function clampLayout(l: LayoutSlice): LayoutSlice {
  return {
    ...l,
    gridWidthPx: clamp(l.gridWidthPx, GRID_WIDTH_RANGE_PX),
    inspectorWidthPx: clamp(l.inspectorWidthPx, INSPECTOR_WIDTH_RANGE_PX),
  };
}

/** A panel's width after a splitter drag, leaving the preview at least MIN_PREVIEW_PX of `windowWidthPx`. */
export function draggedWidth(
  startPx: number,
  deltaPx: number,
  otherPanelsPx: number,
  windowWidthPx: number,
  range: readonly [number, number],
): number {
  const room = windowWidthPx - otherPanelsPx - MIN_PREVIEW_PX;
  return clamp(Math.min(startPx + deltaPx, Math.max(range[0], room)), range);
}

/** The stored layout, or the default for this window when none is stored or what is stored is not a layout. */
export function loadLayout(storage: Pick<Storage, 'getItem'> | null, windowWidthPx: number): LayoutSlice {
  const base = defaultLayout(windowWidthPx);
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return base;
    const v = JSON.parse(raw) as Partial<Record<keyof LayoutSlice, unknown>>;
    const num = (x: unknown, d: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : d);
    const bool = (x: unknown, d: boolean): boolean => (typeof x === 'boolean' ? x : d);
    return clampLayout({
      gridWidthPx: num(v.gridWidthPx, base.gridWidthPx),
      inspectorWidthPx: num(v.inspectorWidthPx, base.inspectorWidthPx),
      gridOpen: bool(v.gridOpen, true),
      inspectorOpen: bool(v.inspectorOpen, true),
      panelsHidden: bool(v.panelsHidden, false),
    });
  } catch {
    // storage refused (private mode) or not JSON: the default layout
    return base;
  }
}

export function saveLayout(storage: Pick<Storage, 'setItem'> | null, l: LayoutSlice): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(l));
  } catch {
    // storage full or refused: the layout lasts this session only
  }
}
