// Regions of an image's full-resolution pixels in those of the level on screen (a reduced level of an image too large
// for the GPU): what the pair analysis measures.
import type { Region } from '../../shaders/compare-cpu.js';
import type { OnScreen } from './engine-types.js';

/** `r` (level 0's pixels) in the pixels of the level shown, covering at least one pixel. */
export function inShownLevel(screen: OnScreen, r: Region): Region {
  return regionInLevel(r, screen.current?.image.levelScale ?? 1);
}

/** `r` (level 0's pixels) in the pixels of a level `scale` times smaller each way, covering at least one pixel. */
export function regionInLevel(r: Region, scale: number): Region {
  if (scale === 1) return r;
  const x0 = Math.floor(r.x0 / scale),
    y0 = Math.floor(r.y0 / scale);
  return {
    x0,
    y0,
    widthPx: Math.max(1, Math.ceil((r.x0 + r.widthPx) / scale) - x0),
    heightPx: Math.max(1, Math.ceil((r.y0 + r.heightPx) / scale) - y0),
  };
}
