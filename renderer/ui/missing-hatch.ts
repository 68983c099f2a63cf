// The pixels of a damaged image that could not be read, drawn over the preview: grey with diagonal hatching and an outline,
// so that they never pass for black pixels of the image.
import type { BoxTuple } from '../host-client/api-types.js';

/** Draws each box (image px, inclusive) through `toCanvas` (image px to canvas px). */
export function drawMissingHatch(
  ctx: CanvasRenderingContext2D,
  regions: readonly BoxTuple[],
  toCanvas: (x: number, y: number) => [number, number],
  dpr: number,
): void {
  const step = 10 * dpr;
  ctx.save();
  for (const [x0, y0, x1, y1] of regions) {
    const [left, top] = toCanvas(x0, y0);
    const [right, bottom] = toCanvas(x1 + 1, y1 + 1);
    const w = right - left,
      h = bottom - top;
    if (w <= 0 || h <= 0) continue;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, w, h);
    ctx.clip();
    ctx.fillStyle = 'rgba(110, 110, 110, 0.55)';
    ctx.fillRect(left, top, w, h);
    ctx.strokeStyle = 'rgba(230, 230, 230, 0.6)';
    ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath();
    // lines at 45° every `step` canvas px, anchored to the canvas so they do not crawl as the box is clipped
    for (let d = Math.floor((left + top) / step) * step; d < right + bottom + step; d += step) {
      ctx.moveTo(d - top, top);
      ctx.lineTo(d - bottom, bottom);
    }
    ctx.stroke();
    ctx.restore();
    ctx.strokeStyle = 'rgba(255, 200, 80, 0.9)';
    ctx.lineWidth = 1 * dpr;
    ctx.setLineDash([4 * dpr, 3 * dpr]);
    ctx.strokeRect(left, top, w, h);
    ctx.setLineDash([]);
  }
  ctx.restore();
}
