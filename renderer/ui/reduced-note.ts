// The words over the preview when it shows a reduced level of an image too large for the GPU (DecodedImage.reduced).
import type { ReducedLevel } from '../host-client/api-types.js';

export interface ReducedNote {
  /** What is shown: "showing a 1/2 level (8192×4096 of 16384×8192 px)". */
  title: string;
  /** Why, as the host was told the page's limits. */
  why: string;
  /** What it means for the figures read off it. */
  caveat: string;
}

export function reducedNote(r: ReducedLevel, widthPx: number, heightPx: number): ReducedNote {
  const how = r.from === 'mip-level' ? "the file's own MIP level" : 'box-filtered as it was decoded';
  return {
    title: `showing a 1/${r.factor} level (${widthPx}×${heightPx} of ${r.fullWidthPx}×${r.fullHeightPx} px, ${how})`,
    why:
      r.over === 'side'
        ? `over the GPU's ${r.limit} px texture limit`
        : `over what the GPU cache's budget holds (${Math.round(r.limit / 1e6)} megapixels)`,
    // statistics are measured on the host over level 0 (app/statistics-figures.ts); zoomed in past the level, the crop
    // of level 0 on screen is fetched (loading/region-fetch.ts) and read instead
    caveat:
      "statistics and the histogram are level 0's, measured on the host chunk by chunk; pixel values are read from this " +
      'level until zoomed in past it, where what is on screen comes from full resolution',
  };
}
