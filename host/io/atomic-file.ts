// A file written whole or not at all: into a temporary name beside it, then renamed over it (or linked, where an
// existing file must not be replaced). Synchronously for the decode workers, which write a thumbnail's files where they
// made it rather than wait on the main thread's I/O; asynchronously for exports and `exrview thumbs`' own encodes.

import { closeSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';
import { link, rename, rm, writeFile } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';

let tempCount = 0;

/** A temporary name beside `path`, unique among this thread's writes (the counter), the process's threads and other processes. */
function tempPathFor(path: string): string {
  return `${path}.${process.pid}-${threadId}-${++tempCount}.tmp`;
}

/** Writes `pieces` one after the other as the file at `path`; a reader never sees a part of it. Throws what fs throws. */
export function writeFileAtomicallySync(path: string, pieces: readonly Uint8Array[]): void {
  const temp = tempPathFor(path);
  try {
    const fd = openSync(temp, 'w');
    try {
      writeAll(fd, pieces);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The file was there and the write was told not to replace it. */
export class FileExistsError extends Error {
  constructor(readonly path: string) {
    super(`${path} already exists`);
  }
}

/**
 * Writes `bytes` as the file at `path`; a reader never sees a part of it. With `overwrite` false an existing file is
 * left as it is and FileExistsError thrown (a link, unlike a rename, fails rather than replace). Throws what fs throws.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array, overwrite: boolean): Promise<void> {
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    if (overwrite) {
      await rename(temp, path);
    } else {
      await link(temp, path).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new FileExistsError(path) : error;
      });
      await rm(temp, { force: true });
    }
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function writeAll(fd: number, pieces: readonly Uint8Array[]): void {
  let rest = pieces.filter((p) => p.byteLength > 0);
  while (rest.length > 0) {
    let written = writevSync(fd, rest as NodeJS.ArrayBufferView[]);
    // a short write leaves the rest of the pieces, the first of them cut where the write stopped
    const left: Uint8Array[] = [];
    for (const piece of rest) {
      if (written >= piece.byteLength) written -= piece.byteLength;
      else {
        left.push(piece.subarray(written));
        written = 0;
      }
    }
    rest = left;
  }
}
