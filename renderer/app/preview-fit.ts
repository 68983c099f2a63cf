// The preview's size and the zoom that follows it: an image fitted to the old size stays fitted when the preview
// resizes (panels opening beside it); a zoom the user chose stays. Fit, 1:1 and zoom about the centre.
import type { PartSummary } from '../host-client/api-types.js';
import { fitArea, fitView, oneToOne, zoomAt, type PanZoom } from '../model/view-geometry.js';
import type { AppStore, StoreActions } from '../state/store.js';

const sameView = (a: PanZoom, b: PanZoom): boolean =>
  Math.abs(a.zoom / b.zoom - 1) < 1e-6 && Math.abs(a.centerX - b.centerX) < 1e-3 && Math.abs(a.centerY - b.centerY) < 1e-3;

export class PreviewFit {
  /** The preview canvas in device px. */
  sizePx = { widthPx: 1, heightPx: 1 };

  constructor(
    private readonly store: AppStore,
    private readonly actions: StoreActions,
    private readonly part: () => PartSummary | undefined,
  ) {}

  resize(widthPx: number, heightPx: number): void {
    const part = this.part();
    const old = this.sizePx;
    const wasFitted = part && (old.widthPx !== widthPx || old.heightPx !== heightPx) && this.isFitted(part, old);
    this.sizePx = { widthPx, heightPx };
    if (wasFitted) this.fit();
  }

  fit(): void {
    const part = this.part();
    if (!part) return;
    this.actions.setPanZoom(this.fitted(part, this.sizePx));
  }

  /** Whether the view on screen is the fit of `part` to a preview of `sizePx`. */
  isFitted(part: PartSummary, sizePx = this.sizePx): boolean {
    return sameView(this.store.getState().view.panZoom, this.fitted(part, sizePx));
  }

  /** The fit into one image's area: side by side, each image fits its half (compare-geometry places both). */
  private fitted(part: PartSummary, sizePx: { widthPx: number; heightPx: number }, sideBySide = this.sideBySide()): PanZoom {
    const area = fitArea(sizePx.widthPx, sizePx.heightPx, sideBySide);
    return fitView(part.displayWindow, part.dataWindow, area.widthPx, area.heightPx);
  }

  private sideBySide(): boolean {
    const s = this.store.getState();
    return !!s.compare.reference && s.compare.mode === 'side-by-side';
  }

  /** After A and B went side by side or back: a view fitted to the old area is fitted to the new one. */
  refitAfterSplit(wasSideBySide: boolean): void {
    const part = this.part();
    if (part && sameView(this.store.getState().view.panZoom, this.fitted(part, this.sizePx, wasSideBySide))) this.fit();
  }

  /** Zooms about the preview's centre (menu and keys). */
  zoomBy(factor: number): void {
    const { widthPx, heightPx } = this.sizePx;
    this.actions.setPanZoom(zoomAt(this.store.getState().view.panZoom, factor, widthPx / 2, heightPx / 2, widthPx, heightPx));
  }

  actualSize(): void {
    this.actions.setPanZoom(oneToOne(this.store.getState().view.panZoom));
  }
}
