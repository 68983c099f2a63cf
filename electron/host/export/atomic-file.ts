// A file written whole or not at all, synchronously: into a temporary name beside it, then renamed over it. For the
// decode workers, which write a thumbnail's files where they made it rather than wait on the main thread's I/O.

import { closeSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

let tempCount = 0;

/** Writes `pieces` one after the other as the file at `path`; a reader never sees a part of it. Throws what fs throws. */
export function writeFileAtomicallySync(path: string, pieces: readonly Uint8Array[]): void {
  // unique among this thread's writes (the counter), the process's threads and other processes
  const temp = `${path}.${process.pid}-${threadId}-${++tempCount}.tmp`;
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

/** An fs error's message without its code prefix ("EACCES: permission denied, open '…'" → "permission denied, open '…'"). */
export function fsReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^[A-Z]+: /, '');
}
