// The grid's visible files passed on to the host at most once per interval while they keep changing: a fast scroll
// changes them every frame, and each pass costs a setVisible request and thumbnail requests for cells already gone.
// The first change after a quiet interval goes at once (a click or a short scroll waits for nothing); the last one
// always goes.

export class VisibleBatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting: string[] | null = null;
  /** Changes merged into a later pass (diagnostics, tests). */
  merged = 0;

  constructor(
    private readonly send: (fileIds: string[]) => void,
    private readonly intervalMs = 80,
  ) {}

  push(fileIds: string[]): void {
    if (this.timer !== null) {
      if (this.waiting) this.merged++;
      this.waiting = fileIds;
      return;
    }
    this.send(fileIds);
    this.timer = setTimeout(() => {
      this.timer = null;
      const next = this.waiting;
      this.waiting = null;
      if (next) this.push(next);
    }, this.intervalMs);
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
  }
}
