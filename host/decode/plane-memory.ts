// Shared memory for decoded planes and chunk stores: buffers handed back are reused, new ones advised into huge pages where that pays.
//
// Touching fresh memory costs a page fault per 4 KB page; on the virtual machines measured here that was 6-8 µs a
// page (0.4-0.6 GB/s), as much as decompressing the pixels. A viewer decodes images of the same few sizes over and over,
// so buffers whose image left the RAM cache are kept (up to a budget) and given to the next decode that fits in them; a
// new buffer is advised into 2 MB pages where that pays (huge-pages.ts).
//
// Buffers are made in size classes (a little over the bytes asked) and a kept buffer serves smaller requests too (down
// to an eighth of it): renders of one show are seldom exactly one size (3840 and 3841 wide, data windows cropped
// differently), and with exact sizes a folder's first pass made a new buffer for nearly every image. A buffer taken is therefore at
// least, not exactly, the bytes asked for: its users view its first bytes (planeView, decode/plane-bytes.ts).

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

/** Size classes: a 16th of the request's power of two (at most 6.25% over); requests under 64 KB are exact. */
const CLASS_FRACTION_LOG2 = 4;
const MIN_CLASSED_BYTES = 64 << 10;

/**
 * A kept buffer serves a request of at least this fraction of its size. Low, because an idle kept buffer does nothing
 * while fresh memory costs 2.5-4 ms a MB on the machines measured: a folder's 2K (or cropped) images after its 4K ones
 * then reuse the 4K planes' buffers. The RAM cache counts a plane's whole buffer, so the waste stays within its budget.
 */
const MIN_FILL = 1 / 8;

/** The bytes a new buffer for `byteLength` is made with: rounded up to its size class. */
export function sizeClassBytes(byteLength: number): number {
  if (byteLength < MIN_CLASSED_BYTES) return byteLength;
  const step = 2 ** (Math.floor(Math.log2(byteLength)) - CLASS_FRACTION_LOG2);
  return Math.ceil(byteLength / step) * step;
}

export class PlaneMemory {
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  private freeBytes = 0;
  /** Buffers taken that were reused, and new ones. */
  reused = 0;
  allocated = 0;

  constructor(private readonly options: PlaneMemoryOptions) {}

  /**
   * A buffer of at least `byteLength` bytes: the smallest kept one that fits (and is at most 8 times the request), else
   * a new one of the size class. Its contents are undefined when reused: the caller overwrites the bytes it uses.
   */
  take(byteLength: number): SharedArrayBuffer {
    let bestSize = Infinity;
    for (const size of this.free.keys()) if (size >= byteLength && size < bestSize && byteLength >= size * MIN_FILL) bestSize = size;
    if (bestSize !== Infinity) {
      const list = this.free.get(bestSize)!;
      const kept = list.pop()!;
      if (list.length === 0) this.free.delete(bestSize);
      this.freeBytes -= bestSize;
      this.reused++;
      return kept;
    }
    this.allocated++;
    const buffer = new SharedArrayBuffer(sizeClassBytes(byteLength));
    if (buffer.byteLength >= MIN_MANAGED_BYTES) this.options.advise?.(buffer);
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
