// Thumbnail parameters and what a thumbnail request reports besides the Thumbnail itself.

import type { Thumbnail } from '../api.js';
import { CACHE_FORMAT } from '../cache/disk-cache.js';

/** Bumped when the way thumbnails are made changes (channel choice, filter), so cached ones are rebuilt. */
export const THUMBNAIL_RECIPE = 'box-linear-1';

/** Everything that decides a thumbnail's pixels besides the image: part of its disk cache key. */
export function thumbnailParams(longSidePx: number): string {
  return `format=${CACHE_FORMAT};recipe=${THUMBNAIL_RECIPE};long=${longSidePx}`;
}

export interface ThumbnailDetail {
  thumbnail: Thumbnail;
  /** Box filter time in the worker (0 from the disk cache). */
  resizeMs: number;
  /** The thumbnail through the view asked for, when it was made now (a disk-cache hit has none), and the time that took. */
  rgba8?: Uint8ClampedArray;
  toneMapMs?: number;
  /** What the pixels were made from originally: 'mip-level' or 'full-decode' (also for a disk-cache hit). */
  madeFrom: string;
}
