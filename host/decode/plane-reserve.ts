// Plane memory made ready before a decode asks for it: buffers for the next preview's planes, touched while the host is idle.
//
// Fresh memory costs several ms a MB to touch on the virtual machines measured (bench/results/host-notes.md), as much
// as decompressing and unpacking the planes into it: a click's decode into fresh planes spends about half its CPU in
// page faults. So the host says which plane sizes the next preview will likely take (the open folder's largest), and
// this reserve touches buffers of those sizes a slice at a time on the main thread, only while nothing more urgent
// runs, and hands them to the plane memory, where the decode takes them as it takes any reused buffer. What a decode
// takes is made again at the next idle time; buffers already kept (an image that left the RAM cache) count as ready.

import type { PlaneMemory } from './plane-memory.js';

export interface PlaneReserveOptions {
  /** Whether nothing more urgent runs: touching pauses while this is false. */
  idle(): boolean;
  /** Longest the main thread touches memory without yielding, ms (default 4). */
  sliceMs?: number;
  /** How long a paused reserve waits before it looks again, ms (default 50). */
  pollMs?: number;
}

/** Bytes between the writes that touch a buffer: its smallest page (a huge page is touched by its first write). */
const PAGE_BYTES = 4096;
/** Pages touched between looks at the clock. */
const PAGES_PER_CHECK = 64;

export class PlaneReserve {
  /** Bytes of buffers touched and handed to the plane memory so far. */
  touchedBytes = 0;
  private wanted: number[] = [];
  private running = false;
  private closed = false;

  constructor(
    private readonly memory: PlaneMemory,
    private readonly options: PlaneReserveOptions,
  ) {}

  /**
   * The plane sizes (bytes) the next decode is expected to take; made ready at idle, largest first, up to half the
   * plane memory's budget (the rest of a larger wish is left to the decode, so that the reserve never evicts itself).
   */
  want(byteLengths: readonly number[]): void {
    const budget = this.memory.budgetBytes / 2;
    let total = 0;
    this.wanted = [];
    for (const byteLength of [...byteLengths].sort((a, b) => b - a)) {
      if (total + byteLength > budget) continue;
      total += byteLength;
      this.wanted.push(byteLength);
    }
    this.wake();
  }

  /** Looks again whether the wanted buffers are kept (a decode took some): makes the missing ones at the next idle time. */
  wake(): void {
    if (this.running || this.closed || this.wanted.length === 0) return;
    this.running = true;
    this.fill().then(
      () => (this.running = false),
      () => (this.running = false),
    );
  }

  /** Whether the reserve is making buffers now (or waiting for idle time to). */
  get filling(): boolean {
    return this.running;
  }

  close(): void {
    this.closed = true;
  }

  private async fill(): Promise<void> {
    for (;;) {
      const lacking = this.memory.lacking(this.wanted);
      if (lacking.length === 0 || this.closed) return;
      const buffer = this.memory.fresh(lacking[0]!);
      if (!(await this.touch(buffer))) return;
      this.memory.give(buffer);
      this.touchedBytes += buffer.byteLength;
      // a buffer the memory did not keep (its budget went to other sizes meanwhile): stop rather than touch in a loop
      if (this.memory.lacking(this.wanted).length >= lacking.length) return;
    }
  }

  /** Writes a byte to each page of the buffer, a slice at a time while the host is idle; false when closed meanwhile. */
  private async touch(buffer: SharedArrayBuffer): Promise<boolean> {
    const bytes = new Uint8Array(buffer);
    const sliceMs = this.options.sliceMs ?? 4;
    let offset = 0;
    while (offset < bytes.length) {
      while (!this.options.idle()) {
        if (this.closed) return false;
        await delay(this.options.pollMs ?? 50);
      }
      if (this.closed) return false;
      const until = performance.now() + sliceMs;
      do {
        const end = Math.min(bytes.length, offset + PAGES_PER_CHECK * PAGE_BYTES);
        for (; offset < end; offset += PAGE_BYTES) bytes[offset] = 0;
      } while (offset < bytes.length && performance.now() < until);
      // other events (a request, a reply from a worker) between slices
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return true;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
