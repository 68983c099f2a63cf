// ArrayBuffers for received planes, reused: the renderer writes pixels into memory it has touched before.
//
// In Chromium a byte landing in fresh memory costs a page fault per 4 KB; measured in this project's headless Chromium
// on a virtual machine, fresh memory took writes at 120-310 MB/s and warm memory at 15-21 GB/s. Planes of the image
// that stops being shown come back here and take the next image's pixels.

const MIN_POOLED_BYTES = 1 << 20;

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private freeBytes = 0;
  reused = 0;
  allocated = 0;

  constructor(private readonly keepBytes: number) {}

  /** A buffer of exactly `byteLength` bytes; its old contents are overwritten by the caller. */
  take(byteLength: number): ArrayBuffer {
    const list = this.free.get(byteLength);
    const kept = list?.pop();
    if (kept && kept.byteLength === byteLength) {
      this.freeBytes -= byteLength;
      if (list!.length === 0) this.free.delete(byteLength);
      this.reused++;
      return kept;
    }
    this.allocated++;
    return new ArrayBuffer(byteLength);
  }

  /** Hands buffers back; the caller keeps no view on them. Small ones are left to the allocator. */
  give(buffers: Iterable<ArrayBufferLike>): void {
    for (const buffer of buffers) {
      if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < MIN_POOLED_BYTES || buffer.byteLength > this.keepBytes) continue;
      while (this.freeBytes + buffer.byteLength > this.keepBytes) {
        const [size, list] = this.free.entries().next().value!;
        list.shift();
        this.freeBytes -= size;
        if (list.length === 0) this.free.delete(size);
      }
      const list = this.free.get(buffer.byteLength) ?? [];
      this.free.delete(buffer.byteLength);
      list.push(buffer);
      this.free.set(buffer.byteLength, list);
      this.freeBytes += buffer.byteLength;
    }
  }

  get keptBytes(): number {
    return this.freeBytes;
  }
}
