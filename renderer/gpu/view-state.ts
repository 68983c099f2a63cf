// What the engine draws with: the display (exposure, tone-map, LUT or OCIO, HDR), pan and zoom and the compare view of
// the preview, and the views drawn in place of its layer (Cryptomatte, a deep image's depth range); the grid's cells
// and its display, which stays 8-bit SDR (the display without its HDR part).
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import type { CompareView } from './compare-geometry.js';
import type { CryptomatteInput, CryptomatteView } from './cryptomatte-view.js';
import type { DeepRangeInput, DeepRangeView } from './deep-range-view.js';
import type { GridCell } from './engine-types.js';
import type { GridView } from './grid-drawer.js';
import type { PreviewView } from './preview-drawer.js';

export class ViewState {
  readonly preview: PreviewView = {
    display: { ...DEFAULT_DISPLAY },
    panZoom: { zoom: 1, centerX: 0, centerY: 0 },
    compareView: null,
    hdrCanvas: false,
  };
  readonly grid: GridView & { cells: GridCell[]; pinned: Set<string> } = { display: { ...DEFAULT_DISPLAY }, cells: [], pinned: new Set() };
  /** The Cryptomatte view drawn over the shown layer (null: none). */
  readonly cryptomatte: CryptomatteInput = { view: null };
  /** A deep image's depth-range composite in place of its flattened layer (null: none); also what it cost. */
  readonly deepRange: DeepRangeInput = { view: null, uploads: 0, composites: 0, error: null };

  /** Takes a display; true when the preview canvas must be configured again (HDR output turned on or off). */
  setDisplay(p: DisplayParams, hdrAvailable: boolean): boolean {
    const wantsHdr = !!p.hdr && hdrAvailable;
    this.preview.display = wantsHdr || !p.hdr ? p : { ...p, hdr: null };
    this.grid.display = p.hdr ? { ...p, hdr: null } : p;
    if (wantsHdr === this.preview.hdrCanvas) return false;
    this.preview.hdrCanvas = wantsHdr;
    return true;
  }

  /** Takes a compare view (null: the plain preview); false when it is the one already set. */
  setCompareView(v: CompareView | null): boolean {
    if (v && this.preview.compareView && JSON.stringify(v) === JSON.stringify(this.preview.compareView)) return false;
    this.preview.compareView = v;
    return true;
  }

  /** Takes the Cryptomatte view (null: none); false when it is the one already set. */
  setCryptomatte(view: CryptomatteView | null): boolean {
    if (view === this.cryptomatte.view) return false;
    this.cryptomatte.view = view;
    return true;
  }

  /** Takes the depth-range view (null: none); false when it is the one already set. */
  setDeepRange(view: DeepRangeView | null): boolean {
    if (view === this.deepRange.view) return false;
    this.deepRange.view = view;
    return true;
  }

  /** The visible grid cells, pinned in the thumbnail atlas while shown. */
  setGridCells(cells: GridCell[]): void {
    this.grid.cells = cells;
    this.grid.pinned.clear();
    for (const c of cells) this.grid.pinned.add(c.fileId);
  }
}
