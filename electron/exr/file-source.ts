// A ByteSource over an open file descriptor: positioned reads, so only the chunks asked for are read.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ExrError } from './errors.js';
import type { ByteSource } from './source.js';

export interface FileSource extends ByteSource {
  /** Bytes read from disk so far, and the time spent reading (ms). */
  readonly stats: { bytesRead: number; readMs: number };
  close(): void;
}

export function openFileSource(path: string): FileSource {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ExrError('io', `cannot open: ${(error as Error).message.replace(/^[A-Z]+: /, '')}`);
  }
  const sizeBytes = fstatSync(fd).size;
  const stats = { bytesRead: 0, readMs: 0 };
  return {
    sizeBytes,
    stats,
    readAt(byteOffset, byteLength) {
      const t0 = performance.now();
      const out = Buffer.allocUnsafeSlow(byteLength);
      let done = 0;
      while (done < byteLength) {
        const n = readSync(fd, out, done, byteLength - done, byteOffset + done);
        if (n === 0) throw new ExrError('io', `file ended at byte ${byteOffset + done} while reading (was it truncated while open?)`);
        done += n;
      }
      stats.bytesRead += byteLength;
      stats.readMs += performance.now() - t0;
      return new Uint8Array(out.buffer, out.byteOffset, byteLength);
    },
    close() {
      closeSync(fd);
    },
  };
}
