// ArrayBuffers for received planes, reused: the renderer writes pixels into memory it has touched before.
//
// In Chromium a byte landing in fresh memory costs a page fault per 4 KB, far slower than writing memory touched
// before: planes of the image that stops being shown come back here and take the next image's pixels.

import { KeptBuffers } from '../../common/kept-buffers.js';

const MIN_POOLED_BYTES = 1 << 20;

export class BufferPool {
  private readonly kept: KeptBuffers<ArrayBuffer>;
  reused = 0;
  allocated = 0;

  constructor(keepBytes: number) {
    this.kept = new KeptBuffers(keepBytes);
  }

  /** A buffer of exactly `byteLength` bytes; its old contents are overwritten by the caller. */
  take(byteLength: number): ArrayBuffer {
    const kept = this.kept.take(byteLength);
    if (kept) {
      this.reused++;
      return kept;
    }
    this.allocated++;
    return new ArrayBuffer(byteLength);
  }

  /** Hands buffers back; the caller keeps no view on them. Small ones are left to the allocator. */
  give(buffers: Iterable<ArrayBufferLike>): void {
    for (const buffer of buffers) if (buffer instanceof ArrayBuffer && buffer.byteLength >= MIN_POOLED_BYTES) this.kept.give(buffer);
  }

  get keptBytes(): number {
    return this.kept.keptBytes;
  }
}
