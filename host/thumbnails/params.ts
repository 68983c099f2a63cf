// Thumbnail parameters and what a thumbnail request reports besides the Thumbnail itself.

import type { Thumbnail } from '../../contract/host-api.js';
import { CACHE_FORMAT } from '../cache/disk-cache.js';
import type { FileWriteError } from './files.js';

/** Bumped when the way thumbnails are made changes (channel choice, filter), so cached ones are rebuilt. */
export const THUMBNAIL_RECIPE = 'box-linear-1';

/** Everything that decides a thumbnail's pixels besides the image: part of its disk cache key. */
export function thumbnailParams(longSidePx: number): string {
  return `format=${CACHE_FORMAT};recipe=${THUMBNAIL_RECIPE};long=${longSidePx}`;
}

/** How a thumbnail made now comes out besides its half RGBA (with a view): as a PNG too, written to a path. */
export interface ThumbnailOutputOptions {
  png?: boolean;
  /** Where the worker that makes the PNG writes it (whole or not at all). */
  pngPath?: string;
}

export interface ThumbnailDetail {
  thumbnail: Thumbnail;
  /** Box filter time in the worker (0 from the disk cache). */
  resizeMs: number;
  /** The thumbnail through the view asked for, when it was made now (a disk-cache hit has none), and the time that took. */
  rgba8?: Uint8ClampedArray;
  toneMapMs?: number;
  /** That as a PNG, encoded by the same worker when asked for (and the native kernels loaded), and the time it took. */
  png?: Uint8Array;
  encodeMs?: number;
  /** That PNG written by the worker to the path asked for: done, or why not; and the time it took. */
  pngWritten?: { error?: FileWriteError };
  writeMs?: number;
  /** What the pixels were made from originally: 'mip-level' or 'full-decode' (also for a disk-cache hit). */
  madeFrom: string;
}
