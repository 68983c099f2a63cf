// The first frame of an image too large for the page: a small level first (cheap to send, upload and MIP on any GPU),
// then the finer level the page can show, made by the host in the same pass (DecodeRequest.refineWithin).
import type { FitWithin, PartSummary } from '../host-client/api-types.js';
import { fittedFrame } from '../playback/frame-fit.js';

/** The small first level's longest side and pixel count at most. */
export const FIRST_LEVEL_SIDE_PX = 2048;

/** What a first level is fetched within before the level `fit` allows, or null when level 0 fits whole (or it is deep). */
export function firstLevelWithin(part: PartSummary | undefined, fit: FitWithin | undefined): FitWithin | null {
  if (!part || !fit || part.type === 'deepscanline' || part.type === 'deeptile') return null;
  const widthPx = part.dataWindow[2] - part.dataWindow[0] + 1,
    heightPx = part.dataWindow[3] - part.dataWindow[1] + 1;
  const small = { maxSidePx: Math.min(fit.maxSidePx, FIRST_LEVEL_SIDE_PX), maxPixels: Math.min(fit.maxPixels, FIRST_LEVEL_SIDE_PX ** 2) };
  // only where the page must be sent a reduced level anyway: one that fits is sent whole, at once
  return fittedFrame(widthPx, heightPx, fit).factor > 1 ? small : null;
}
