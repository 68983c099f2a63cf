// A byte budget for decodes in flight: a job waits for room before its planes are allocated, and jobs get room in rank order.
//
// Planes are allocated when a decode is submitted. Submitting a whole folder at once would allocate every image's planes
// up front: gigabytes of fresh memory whose first touch (a page fault per 4 KB) can cost more than the decoding, and
// none of it reusable until a file finishes. With a window, a finished file's planes are handed
// back before the next ones are taken, so the same few buffers serve the whole folder.

interface Waiter {
  rank: number;
  bytes: number;
  grant: () => void;
}

export class ByteWindow {
  private inFlightBytes = 0;
  private inFlightJobs = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly budgetBytes: number) {}

  /**
   * Resolves when `bytes` fit in the budget (always when nothing else is in flight, however large) and no job of a
   * lower rank is still waiting. Call `release(bytes)` when the job's memory is handed back.
   */
  acquire(bytes: number, rank: number): Promise<void> {
    return new Promise((grant) => {
      const at = this.waiting.findIndex((w) => w.rank > rank);
      this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { rank, bytes, grant });
      this.grantWaiting();
    });
  }

  release(bytes: number): void {
    this.inFlightBytes -= bytes;
    this.inFlightJobs--;
    this.grantWaiting();
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.inFlightJobs > 0 && this.inFlightBytes + next.bytes > this.budgetBytes) return;
      this.waiting.shift();
      this.inFlightBytes += next.bytes;
      this.inFlightJobs++;
      next.grant();
    }
  }
}
