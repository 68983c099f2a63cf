// Pan/zoom math of the preview: image px ↔ canvas px, fit, and the packed geometry the preview shader reads. Pure.
import type { BoxTuple } from '../host-client/api-types.js';
import { FLAG_NEAREST, FLAG_OUTLINES, FLAG_PIXEL_GRID } from '../../shaders/display-params.js';
import type { PreviewGeometry } from '../../shaders/layouts.js';

export interface PanZoom {
  /** Canvas (device) px per image px. */
  zoom: number;
  /** Image coordinate (absolute, file pixel space) at the canvas centre. */
  centerX: number;
  centerY: number;
}

export const MIN_ZOOM = 1 / 64;
export const MAX_ZOOM = 128;

export function clampZoom(z: number): number {
  return Math.min(Math.max(z, MIN_ZOOM), MAX_ZOOM);
}

/** Fits the display window (or the data window when that is larger) into the canvas, centred. */
export function fitView(display: BoxTuple, data: BoxTuple, canvasWidthPx: number, canvasHeightPx: number): PanZoom {
  const x0 = Math.min(display[0], data[0]),
    y0 = Math.min(display[1], data[1]);
  const x1 = Math.max(display[2], data[2]) + 1,
    y1 = Math.max(display[3], data[3]) + 1;
  const zoom = clampZoom(Math.min(canvasWidthPx / Math.max(1, x1 - x0), canvasHeightPx / Math.max(1, y1 - y0)));
  return { zoom, centerX: (x0 + x1) / 2, centerY: (y0 + y1) / 2 };
}

/** The canvas area one image is fitted into: all of it, or its half when A and B are shown side by side. */
export function fitArea(canvasWidthPx: number, canvasHeightPx: number, sideBySide: boolean): { widthPx: number; heightPx: number } {
  return { widthPx: sideBySide ? canvasWidthPx / 2 : canvasWidthPx, heightPx: canvasHeightPx };
}

/** 1:1 around the same centre. */
export function oneToOne(v: PanZoom): PanZoom {
  return { ...v, zoom: 1 };
}

export function canvasToImage(v: PanZoom, xPx: number, yPx: number, canvasWidthPx: number, canvasHeightPx: number): [number, number] {
  return [v.centerX + (xPx - canvasWidthPx / 2) / v.zoom, v.centerY + (yPx - canvasHeightPx / 2) / v.zoom];
}

/** Zooms by `factor` keeping the image point under (xPx, yPx) where it is. */
export function zoomAt(v: PanZoom, factor: number, xPx: number, yPx: number, canvasWidthPx: number, canvasHeightPx: number): PanZoom {
  const [ix, iy] = canvasToImage(v, xPx, yPx, canvasWidthPx, canvasHeightPx);
  const zoom = clampZoom(v.zoom * factor);
  return { zoom, centerX: ix - (xPx - canvasWidthPx / 2) / zoom, centerY: iy - (yPx - canvasHeightPx / 2) / zoom };
}

export function panBy(v: PanZoom, dxPx: number, dyPx: number): PanZoom {
  return { ...v, centerX: v.centerX - dxPx / v.zoom, centerY: v.centerY - dyPx / v.zoom };
}

/** Writes the preview shader's geometry for this view into `out` (reused: no allocation per frame). */
export function previewGeometry(
  out: PreviewGeometry,
  v: PanZoom,
  data: BoxTuple,
  display: BoxTuple,
  levelCount: number,
  canvasWidthPx: number,
  canvasHeightPx: number,
  background: number,
): void {
  out.originXPx = canvasWidthPx / 2 + (data[0] - v.centerX) * v.zoom;
  out.originYPx = canvasHeightPx / 2 + (data[1] - v.centerY) * v.zoom;
  out.texelsPerPx = 1 / v.zoom;
  out.levelCount = levelCount;
  out.widthPx = data[2] - data[0] + 1;
  out.heightPx = data[3] - data[1] + 1;
  out.displayMinX = display[0] - data[0];
  out.displayMinY = display[1] - data[1];
  out.displayMaxX = display[2] + 1 - data[0];
  out.displayMaxY = display[3] + 1 - data[1];
  out.background = background;
  out.viewFlags = FLAG_OUTLINES | (v.zoom >= 1 ? FLAG_NEAREST : 0) | (v.zoom >= 16 ? FLAG_PIXEL_GRID : 0);
}

export function emptyGeometry(): PreviewGeometry {
  return {
    originXPx: 0,
    originYPx: 0,
    texelsPerPx: 1,
    levelCount: 1,
    widthPx: 1,
    heightPx: 1,
    displayMinX: 0,
    displayMinY: 0,
    displayMaxX: 1,
    displayMaxY: 1,
    background: 0.1,
    viewFlags: 0,
  };
}
