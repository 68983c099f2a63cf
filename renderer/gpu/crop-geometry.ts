// Where a crop of level 0 stands against the view: the pixels a canvas shows, and whether a crop holds them. Pure.
import type { BoxTuple } from '../host-client/api-types.js';
import type { PanZoom } from '../model/view-geometry.js';

/** Level 0's pixels (absolute, fractional) a canvas of `widthPx` × `heightPx` shows with view `v`. */
export function visibleBox(v: PanZoom, widthPx: number, heightPx: number): [number, number, number, number] {
  const halfW = widthPx / 2 / v.zoom,
    halfH = heightPx / 2 / v.zoom;
  return [v.centerX - halfW, v.centerY - halfH, v.centerX + halfW, v.centerY + halfH];
}

/**
 * Whether `crop` (absolute, inclusive) holds every pixel of `dataWindow` (level 0's) that `visible` touches: outside
 * the data window there is nothing to hold.
 */
export function cropCovers(crop: BoxTuple, dataWindow: BoxTuple, visible: readonly number[]): boolean {
  const x0 = Math.max(dataWindow[0], Math.floor(visible[0]!)),
    y0 = Math.max(dataWindow[1], Math.floor(visible[1]!));
  const x1 = Math.min(dataWindow[2], Math.ceil(visible[2]!) - 1),
    y1 = Math.min(dataWindow[3], Math.ceil(visible[3]!) - 1);
  if (x1 < x0 || y1 < y0) return false;
  return x0 >= crop[0] && y0 >= crop[1] && x1 <= crop[2] && y1 <= crop[3];
}
