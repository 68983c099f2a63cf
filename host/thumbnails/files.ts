// The files a thumbnail's finishing worker writes where it made the thumbnail: the disk cache's and the PNG, each
// whole or not at all. The main thread, which feeds every worker, then does no per-file I/O (it was a fifth of that
// thread's busy time in `exrview thumbs` on 16 cores).

import { writeCacheFileSync, type CacheFileTarget } from '../cache/disk-cache.js';
import { writeFileAtomicallySync } from '../io/atomic-file.js';
import { fsReason } from '../io/fs-reason.js';

/** Files to write once a thumbnail is made. */
export interface ThumbnailFiles {
  /** The disk cache's file of the half RGBA. */
  cache?: CacheFileTarget;
  /** The PNG of the 8-bit RGBA: written when one was made (a view, png asked for, the native kernels loaded). */
  pngPath?: string;
}

/** Why a file was not written: the fs error's code (ENOSPC...) and its message without the code. */
export interface FileWriteError {
  code: string;
  reason: string;
}

/** What came of each file asked for: written, or why not. */
export interface ThumbnailFilesWritten {
  cache?: { error?: FileWriteError };
  png?: { error?: FileWriteError };
}

/** Writes what `files` asks for from a made thumbnail; never throws (a failure is reported for its file). */
export function writeThumbnailFiles(
  files: ThumbnailFiles,
  made: { widthPx: number; heightPx: number; madeFrom: string; rgbaHalf: ArrayBuffer; png?: ArrayBuffer },
): ThumbnailFilesWritten {
  const written: ThumbnailFilesWritten = {};
  if (files.cache) written.cache = attempt(() => writeCacheFileSync(files.cache!, made));
  if (files.pngPath && made.png) written.png = writePngFile(files.pngPath, made.png);
  return written;
}

/** A PNG's bytes as the file at `path`, whole or not at all; never throws. */
export function writePngFile(path: string, png: ArrayBuffer): { error?: FileWriteError } {
  return attempt(() => writeFileAtomicallySync(path, [new Uint8Array(png)]));
}

function attempt(write: () => void): { error?: FileWriteError } {
  try {
    write();
    return {};
  } catch (error) {
    return { error: { code: (error as NodeJS.ErrnoException).code ?? 'unknown', reason: fsReason(error) } };
  }
}
