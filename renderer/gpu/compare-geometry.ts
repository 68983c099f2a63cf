// Where A (the current image) and B (the reference) land on the canvas in each compare mode, aligned by display window;
// packed as compare.wgsl's geometry. Pure.
import type { BoxTuple } from '../host-client/api-types.js';
import { FLAG_NEAREST, FLAG_OUTLINES, FLAG_PIXEL_GRID } from '../../shaders/display-params.js';
import {
  SHOW_A,
  SHOW_B,
  SHOW_METRIC_BASE,
  SHOW_SPLIT,
  differenceCode,
  isDifference,
  type CompareMode,
} from '../../shaders/compare-params.js';
import type { CompareGeometry, ComparePlacement } from '../../shaders/compare-layouts.js';
import type { Region } from '../../shaders/compare-cpu.js';
import type { PanZoom } from '../model/view-geometry.js';

export interface PlacedImage {
  dataWindow: BoxTuple;
  displayWindow: BoxTuple;
  levelCount: number;
}

/** What the compare pass is asked to draw besides the view: mode, flip side, wipe, colormap and its range. */
export interface CompareView {
  mode: CompareMode;
  /** A/B flip: true while B is shown. */
  showB: boolean;
  /** Wipe divider: its position as a fraction of the canvas, and its axis (x: a vertical line). */
  wipeFraction: number;
  wipeAxis: 'x' | 'y';
  /** 0: tone-map; else a colormap code. */
  colormap: number;
  rangeMin: number;
  rangeMax: number;
}

/** B's shift into A's pixel space: display windows' top-left corners meet. */
export function alignmentShift(a: PlacedImage, b: PlacedImage): [number, number] {
  return [a.displayWindow[0] - b.displayWindow[0], a.displayWindow[1] - b.displayWindow[1]];
}

/** B's data window in A's pixel space. */
export function alignedDataRegion(a: PlacedImage, b: PlacedImage): Region {
  const [sx, sy] = alignmentShift(a, b);
  const d = b.dataWindow;
  return { x0: d[0] + sx, y0: d[1] + sy, widthPx: d[2] - d[0] + 1, heightPx: d[3] - d[1] + 1 };
}

function place(
  v: PanZoom,
  x0: number,
  y0: number,
  widthPx: number,
  heightPx: number,
  levelCount: number,
  canvasWidthPx: number,
  canvasHeightPx: number,
  offsetXPx: number,
): ComparePlacement {
  return {
    originXPx: offsetXPx + canvasWidthPx / 2 + (x0 - v.centerX) * v.zoom,
    originYPx: canvasHeightPx / 2 + (y0 - v.centerY) * v.zoom,
    widthPx,
    heightPx,
    levelCount,
  };
}

/** The canvas pixel → image pixel mapping's centre for side by side: each half shows the same view of its image. */
export function sideBySide(mode: CompareMode): boolean {
  return mode === 'side-by-side';
}

export function compareGeometry(
  v: PanZoom,
  a: PlacedImage,
  b: PlacedImage,
  view: CompareView,
  canvasWidthPx: number,
  canvasHeightPx: number,
  background: number,
): CompareGeometry {
  const bRegion = alignedDataRegion(a, b);
  const side = sideBySide(view.mode);
  const halfW = side ? canvasWidthPx / 2 : canvasWidthPx;
  const ad = a.dataWindow;
  const pa = place(v, ad[0], ad[1], ad[2] - ad[0] + 1, ad[3] - ad[1] + 1, a.levelCount, halfW, canvasHeightPx, 0);
  const pb = place(v, bRegion.x0, bRegion.y0, bRegion.widthPx, bRegion.heightPx, b.levelCount, halfW, canvasHeightPx, side ? halfW : 0);
  const show =
    view.mode === 'flip'
      ? view.showB
        ? SHOW_B
        : SHOW_A
      : view.mode === 'wipe' || side
        ? SHOW_SPLIT
        : isDifference(view.mode)
          ? SHOW_METRIC_BASE + differenceCode(view.mode)
          : SHOW_A;
  const splitAxis = side ? 'x' : view.wipeAxis;
  const splitPx = side ? halfW : view.wipeFraction * (splitAxis === 'x' ? canvasWidthPx : canvasHeightPx);
  return {
    a: pa,
    b: pb,
    texelsPerPx: 1 / v.zoom,
    displayMinX: a.displayWindow[0] - ad[0],
    displayMinY: a.displayWindow[1] - ad[1],
    displayMaxX: a.displayWindow[2] + 1 - ad[0],
    displayMaxY: a.displayWindow[3] + 1 - ad[1],
    // side by side, each half frames its own image; elsewhere B lies over A, framed by A's outline
    ...(side
      ? {
          bDisplay: {
            minX: b.displayWindow[0] - b.dataWindow[0],
            minY: b.displayWindow[1] - b.dataWindow[1],
            maxX: b.displayWindow[2] + 1 - b.dataWindow[0],
            maxY: b.displayWindow[3] + 1 - b.dataWindow[1],
          },
        }
      : {}),
    background,
    viewFlags: FLAG_OUTLINES | (v.zoom >= 1 ? FLAG_NEAREST : 0) | (v.zoom >= 16 ? FLAG_PIXEL_GRID : 0),
    show,
    splitAxis,
    splitPx,
    colormap: view.colormap,
    rangeMin: view.rangeMin,
    rangeMax: view.rangeMax,
  };
}

/** Which image a canvas pixel shows in a split mode ('a' or 'b'), and the image pixel under it (A's pixel space). */
export function pickAt(
  v: PanZoom,
  view: CompareView,
  xPx: number,
  yPx: number,
  canvasWidthPx: number,
  canvasHeightPx: number,
): { side: 'a' | 'b'; x: number; y: number } {
  const side = sideBySide(view.mode);
  const halfW = side ? canvasWidthPx / 2 : canvasWidthPx;
  const inB = side
    ? xPx >= halfW
    : view.mode === 'wipe'
      ? (view.wipeAxis === 'x' ? xPx : yPx) >= view.wipeFraction * (view.wipeAxis === 'x' ? canvasWidthPx : canvasHeightPx)
      : view.mode === 'flip' && view.showB;
  const lx = side && inB ? xPx - halfW : xPx;
  return { side: inB ? 'b' : 'a', x: v.centerX + (lx - halfW / 2) / v.zoom, y: v.centerY + (yPx - canvasHeightPx / 2) / v.zoom };
}
