// Shared memory for decoded planes and chunk stores: buffers handed back are reused, new ones advised into huge pages where that pays.
//
// Touching fresh memory can cost as much as decompressing the pixels into it, and a viewer decodes images of the same
// few sizes over and over: so buffers whose image left the RAM cache are kept (up to a budget) for the next decode
// that fits in them, and a new buffer is advised into 2 MB pages where that pays (huge-pages.ts).
//
// Buffers are made in size classes (a little over the bytes asked) and a kept buffer serves smaller requests too,
// because renders of one show are seldom exactly one size. A buffer taken is therefore at least, not exactly, the
// bytes asked for: its users view its first bytes (planeView, decode/plane-bytes.ts).

import { KeptBuffers } from '../../common/kept-buffers.js';

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
 * while fresh memory is slow to touch: a folder's 2K (or cropped) images after its 4K ones then reuse the 4K planes' buffers. The RAM cache counts a plane's whole buffer, so the waste stays within its budget.
 */
const MIN_FILL = 1 / 8;

/** The bytes a new buffer for `byteLength` is made with: rounded up to its size class. */
export function sizeClassBytes(byteLength: number): number {
  if (byteLength < MIN_CLASSED_BYTES) return byteLength;
  const step = 2 ** (Math.floor(Math.log2(byteLength)) - CLASS_FRACTION_LOG2);
  return Math.ceil(byteLength / step) * step;
}

export class PlaneMemory {
  private readonly kept: KeptBuffers<SharedArrayBuffer>;
  /** Buffers taken that were reused, and new ones. */
  reused = 0;
  allocated = 0;

  constructor(private readonly options: PlaneMemoryOptions) {
    this.kept = new KeptBuffers(options.keepBytes);
  }

  /**
   * A buffer of at least `byteLength` bytes: the smallest kept one that fits (and is at most 8 times the request), else
   * a new one of the size class. Its contents are undefined when reused: the caller overwrites the bytes it uses.
   */
  take(byteLength: number): SharedArrayBuffer {
    const bestSize = servingSize(this.kept.sizes(), byteLength, () => true);
    const kept = bestSize !== undefined ? this.kept.take(bestSize) : undefined;
    if (kept) {
      this.reused++;
      return kept;
    }
    this.allocated++;
    return this.fresh(byteLength);
  }

  /**
   * The requests among `byteLengths` that the kept buffers would not serve if they all came at once (each kept buffer
   * serves one, as take() would pick it), largest first: the new buffers a decode of planes of these sizes would make
   * and could then keep (those too small to keep are left out).
   */
  lacking(byteLengths: readonly number[]): number[] {
    const used = new Map<number, number>();
    const lacking: number[] = [];
    const keepable = byteLengths.filter((b) => sizeClassBytes(b) >= (this.options.minBytes ?? MIN_MANAGED_BYTES));
    for (const byteLength of keepable.sort((a, b) => b - a)) {
      const size = servingSize(this.kept.sizes(), byteLength, (s) => (used.get(s) ?? 0) < this.kept.count(s));
      if (size === undefined) lacking.push(byteLength);
      else used.set(size, (used.get(size) ?? 0) + 1);
    }
    return lacking;
  }

  /** A new buffer for `byteLength` bytes (its size class), advised into huge pages where that pays; not kept until given. */
  fresh(byteLength: number): SharedArrayBuffer {
    const buffer = new SharedArrayBuffer(sizeClassBytes(byteLength));
    if (buffer.byteLength >= MIN_MANAGED_BYTES) this.options.advise?.(buffer);
    return buffer;
  }

  /** Hands a buffer back; the caller guarantees nothing reads or writes it any more. Small ones are left to the allocator. */
  give(buffer: SharedArrayBuffer): void {
    if (buffer.byteLength >= (this.options.minBytes ?? MIN_MANAGED_BYTES)) this.kept.give(buffer);
  }

  get keptBytes(): number {
    return this.kept.keptBytes;
  }

  /** Most bytes of free buffers kept. */
  get budgetBytes(): number {
    return this.options.keepBytes;
  }
}

/** The smallest kept size that serves a request of `byteLength` (at most 1 / MIN_FILL times it) and that `free` allows. */
function servingSize(sizes: Iterable<number>, byteLength: number, free: (size: number) => boolean): number | undefined {
  let best: number | undefined;
  for (const size of sizes) {
    if (size >= byteLength && byteLength >= size * MIN_FILL && (best === undefined || size < best) && free(size)) best = size;
  }
  return best;
}
