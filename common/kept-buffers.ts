// Free buffers kept by size within a byte budget, the least recently given size dropped first: reuse of memory already touched.
//
// It lives in common/ (no Node or DOM APIs) so that the host's plane memory (SharedArrayBuffers) and the renderer's
// buffer pool (ArrayBuffers) share it; each keeps its own policy of which kept buffer serves a request.

export class KeptBuffers<B extends { readonly byteLength: number }> {
  /** Sizes in the order last given (a Map keeps insertion order), each with its buffers, the oldest first. */
  private readonly free = new Map<number, B[]>();
  private freeBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get keptBytes(): number {
    return this.freeBytes;
  }

  /** The sizes kept, the least recently given first. */
  sizes(): IterableIterator<number> {
    return this.free.keys();
  }

  /** How many buffers of exactly `byteLength` bytes are kept. */
  count(byteLength: number): number {
    return this.free.get(byteLength)?.length ?? 0;
  }

  /** A kept buffer of exactly `byteLength` bytes, the last given, taken out of the store; undefined when there is none. */
  take(byteLength: number): B | undefined {
    const list = this.free.get(byteLength);
    const kept = list?.pop();
    if (!kept) return undefined;
    if (list!.length === 0) this.free.delete(byteLength);
    this.freeBytes -= byteLength;
    return kept;
  }

  /**
   * Keeps a buffer, dropping the oldest buffers of the least recently given sizes until it fits the budget (a folder
   * of one resolution keeps its size, a one-off size does not stay); one larger than the whole budget is not kept.
   */
  give(buffer: B): void {
    const byteLength = buffer.byteLength;
    if (byteLength > this.budgetBytes) return;
    while (this.freeBytes + byteLength > this.budgetBytes) {
      const [size, list] = this.free.entries().next().value!;
      list.shift();
      this.freeBytes -= size;
      if (list.length === 0) this.free.delete(size);
    }
    const list = this.free.get(byteLength) ?? [];
    // most recently given size last
    this.free.delete(byteLength);
    list.push(buffer);
    this.free.set(byteLength, list);
    this.freeBytes += byteLength;
  }
}
