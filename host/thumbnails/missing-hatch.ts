// A damaged file's thumbnail pixels that no readable chunk fills: grey with light diagonal stripes, as the preview hatches
// them, so that they never pass for dark pixels of the image.

import { floatToHalf } from '../../codec/index.js';

/** Linear values that display (sRGB, 0 EV) as the preview's hatch: a mid grey and its lighter stripes. */
const HATCH_GREY = floatToHalf(0.16);
const HATCH_STRIPE = floatToHalf(0.58);
const ONE = floatToHalf(1);
/** Stripes every this many pixels along a diagonal, two pixels wide: visible at a grid cell's size. */
const HATCH_PERIOD_PX = 6;

/** Paints the pixels `mask` marks (1) in `rgbaHalf` (half RGBA, widthPx wide); returns how many it painted. */
export function hatchMissing(rgbaHalf: Uint16Array, mask: Uint8Array, widthPx: number): number {
  let painted = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    const x = i % widthPx;
    const y = (i - x) / widthPx;
    const v = (x + y) % HATCH_PERIOD_PX < 2 ? HATCH_STRIPE : HATCH_GREY;
    rgbaHalf.set([v, v, v, ONE], i * 4);
    painted++;
  }
  return painted;
}
