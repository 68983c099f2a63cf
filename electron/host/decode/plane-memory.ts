// Shared memory for decoded planes and chunk stores: buffers handed back are reused, new ones are advised into huge pages.
//
// Touching fresh memory costs a page fault per 4 KB page; on the virtual machines measured here that was 6-8 µs a
// page (0.4-0.6 GB/s), as much as decompressing the pixels. A viewer decodes images of the same few sizes over and over,
// so buffers whose image left the RAM cache are kept (up to a budget) and given to the next decode of that size; a
// new buffer is advised into 2 MB pages where the native kernels can ask the kernel for it (13x faster first touch).

import { nativeKernels } from '../../exr/compression/native.js';

/** The native kernels' madvise(MADV_HUGEPAGE) where they loaded (Linux), else nothing to advise with. */
export const hugePageAdvice: ((buffer: SharedArrayBuffer) => void) | undefined = nativeKernels
  ? (buffer) => void nativeKernels!.adviseHugePages(new Uint8Array(buffer))
  : undefined;

export interface PlaneMemoryOptions {
  /** Most bytes of free buffers kept for reuse. */
  keepBytes: number;
  /** Asks the OS to back a new buffer with huge pages (the native kernels' madvise), if available. */
  advise?: (buffer: SharedArrayBuffer) => void;
  /** Buffers smaller than this are not kept (default MIN_MANAGED_BYTES; a thumbnail job's sums buffer is smaller). */
  minBytes?: number;
}

/** Buffers smaller than this are not worth advising, nor by default keeping: the allocator reuses small blocks anyway. */
const MIN_MANAGED_BYTES = 2 << 20;

export class PlaneMemory {
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  private freeBytes = 0;
  /** Buffers taken that were reused, and new ones. */
  reused = 0;
  allocated = 0;

  constructor(private readonly options: PlaneMemoryOptions) {}

  /** A buffer of exactly `byteLength` bytes. Its contents are undefined when reused: the caller overwrites every byte. */
  take(byteLength: number): SharedArrayBuffer {
    const list = this.free.get(byteLength);
    const kept = list?.pop();
    if (kept) {
      if (list!.length === 0) this.free.delete(byteLength);
      this.freeBytes -= byteLength;
      this.reused++;
      return kept;
    }
    this.allocated++;
    const buffer = new SharedArrayBuffer(byteLength);
    if (byteLength >= MIN_MANAGED_BYTES) this.options.advise?.(buffer);
    return buffer;
  }

  /** Hands a buffer back; the caller guarantees nothing reads or writes it any more. */
  give(buffer: SharedArrayBuffer): void {
    const byteLength = buffer.byteLength;
    if (byteLength < (this.options.minBytes ?? MIN_MANAGED_BYTES) || byteLength > this.options.keepBytes) return;
    // oldest sizes out first: a folder of one resolution keeps its size, a one-off size does not stay
    while (this.freeBytes + byteLength > this.options.keepBytes) {
      const [size, list] = this.free.entries().next().value!;
      list.shift();
      this.freeBytes -= size;
      if (list.length === 0) this.free.delete(size);
    }
    const list = this.free.get(byteLength);
    if (list) {
      // most recently used size last
      this.free.delete(byteLength);
      this.free.set(byteLength, list);
      list.push(buffer);
    } else this.free.set(byteLength, [buffer]);
    this.freeBytes += byteLength;
  }

  get keptBytes(): number {
    return this.freeBytes;
  }
}
