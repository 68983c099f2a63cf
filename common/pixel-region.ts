// A rectangle of pixels (absolute data-window coordinates), and the smallest one holding two: updates that land
// together are fetched as one box.

export interface PixelBox {
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}

/** The smallest box holding both. */
export function unionRegion(a: PixelBox, b: PixelBox): PixelBox {
  const xPx = Math.min(a.xPx, b.xPx);
  const yPx = Math.min(a.yPx, b.yPx);
  return {
    xPx,
    yPx,
    widthPx: Math.max(a.xPx + a.widthPx, b.xPx + b.widthPx) - xPx,
    heightPx: Math.max(a.yPx + a.heightPx, b.yPx + b.heightPx) - yPx,
  };
}
