// The size a sequence's frames arrive in. Playback asks the host as the preview's fetch does (DecodeRequest.fitWithin):
// level 0 when the engine shows it whole, else the power-of-two reduction the host makes for a page that cannot
// (host/images/reduced-level.ts), so the slot ring is sized for what comes and a huge frame never needs a texture
// past the device's limit.
import type { FitWithin } from '../host-client/api-types.js';

/** Beyond this the host refuses to reduce (a picture of a few pixels); the frame is sized as that reduction. */
const MAX_FACTOR = 1 << 12;

export interface FittedFrame {
  widthPx: number;
  heightPx: number;
  /** 1 when level 0 fits, else the power of two each side is divided by (rounded up). */
  factor: number;
}

/** What a frame of `widthPx` × `heightPx` arrives as when asked for within `fit`. */
export function fittedFrame(widthPx: number, heightPx: number, fit: FitWithin): FittedFrame {
  let factor = 1;
  for (;;) {
    const w = Math.ceil(widthPx / factor),
      h = Math.ceil(heightPx / factor);
    if ((w <= fit.maxSidePx && h <= fit.maxSidePx && w * h <= fit.maxPixels) || factor >= MAX_FACTOR)
      return { widthPx: w, heightPx: h, factor };
    factor *= 2;
  }
}
