// A ByteSource over an open file descriptor: positioned reads, so only the chunks asked for are read.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ExrError } from './core/errors.js';
import type { ByteSource } from './source.js';

export interface FileSource extends ByteSource {
  /** Bytes read from disk so far, and the time spent reading (ms). */
  readonly stats: { bytesRead: number; readMs: number };
  /** The open file's modification time and inode when opened: what tells a rewritten file from it. */
  readonly identity: { mtimeMs: number; inode: number };
  close(): void;
}

/** Transient reads up to this size share one buffer per thread; larger ones get their own. */
const TRANSIENT_KEEP_BYTES = 64 << 20;
let transientBuffer = Buffer.allocUnsafeSlow(0);

/**
 * Grows this thread's transient read buffer to `byteLength` (at most the size kept) and touches it: a worker's warm-up
 * does this so that the first reads of a session neither grow the buffer step by step nor fault its pages in.
 */
export function reserveTransientReads(byteLength: number): void {
  const wanted = Math.min(TRANSIENT_KEEP_BYTES, byteLength);
  if (transientBuffer.length >= wanted) return;
  transientBuffer = Buffer.allocUnsafeSlow(wanted);
  transientBuffer.fill(0);
}

export function openFileSource(path: string): FileSource {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ExrError('io', `cannot open: ${(error as Error).message.replace(/^[A-Z]+: /, '')}`);
  }
  const stat = fstatSync(fd);
  const sizeBytes = stat.size;
  const stats = { bytesRead: 0, readMs: 0 };
  return {
    sizeBytes,
    stats,
    identity: { mtimeMs: stat.mtimeMs, inode: stat.ino },
    readAt(byteOffset, byteLength) {
      return readInto(Buffer.allocUnsafeSlow(byteLength), byteOffset, byteLength);
    },
    readAtTransient(byteOffset, byteLength) {
      if (byteLength > TRANSIENT_KEEP_BYTES) return readInto(Buffer.allocUnsafeSlow(byteLength), byteOffset, byteLength);
      if (transientBuffer.length < byteLength)
        transientBuffer = Buffer.allocUnsafeSlow(Math.min(TRANSIENT_KEEP_BYTES, Math.max(byteLength, 2 * transientBuffer.length)));
      return readInto(transientBuffer, byteOffset, byteLength);
    },
    close() {
      closeSync(fd);
    },
  };

  function readInto(out: Buffer, byteOffset: number, byteLength: number): Uint8Array {
    const t0 = performance.now();
    let done = 0;
    while (done < byteLength) {
      const n = readSync(fd, out, done, byteLength - done, byteOffset + done);
      if (n === 0) throw new ExrError('io', `file ended at byte ${byteOffset + done} while reading (was it truncated while open?)`);
      done += n;
    }
    stats.bytesRead += byteLength;
    stats.readMs += performance.now() - t0;
    return new Uint8Array(out.buffer, out.byteOffset, byteLength);
  }
}
