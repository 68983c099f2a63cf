// The grid's visible sets held back while they turn over faster than a few sets a second (a fling of the scrollbar):
// thumbnails of cells that are gone within a frame are not worth a request, a decode and an upload, and the work
// they cost the host and the page is what makes a fast scroll drop frames. The latest set goes once the scroll slows.

export interface ScrollGateOptions {
  /** Sets a second (new cells over the set's size) above which the sets are held. */
  maxSetsPerSecond: number;
  /** The span the turnover is measured over, ms. */
  windowMs: number;
  /** How often a held set is looked at again, ms. */
  recheckMs: number;
  now: () => number;
}

export const DEFAULT_SCROLL_GATE: ScrollGateOptions = { maxSetsPerSecond: 3, windowMs: 200, recheckMs: 100, now: () => performance.now() };

export class ScrollGate {
  private previous = new Set<string>();
  /** New cells per push within the window: [time ms, how many]. */
  private entered: [number, number][] = [];
  private lastPushMs = -Infinity;
  private held: string[] | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly options: ScrollGateOptions;
  /** Sets held back and replaced by a later one (diagnostics, tests). */
  skipped = 0;

  constructor(
    private readonly pass: (fileIds: string[]) => void,
    options: Partial<ScrollGateOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCROLL_GATE, ...options };
  }

  push(fileIds: string[]): void {
    const t = this.options.now();
    // the first set after a quiet spell (a folder opened, a click, the first step of a scroll) is no turnover
    if (t - this.lastPushMs > this.options.windowMs) this.entered = [];
    else {
      let fresh = 0;
      for (const id of fileIds) if (!this.previous.has(id)) fresh++;
      if (fresh) this.entered.push([t, fresh]);
    }
    this.lastPushMs = t;
    this.previous = new Set(fileIds);
    if (this.held) this.skipped++;
    this.held = fileIds;
    this.release();
  }

  /** Sets a second over the window ending now. */
  setsPerSecond(): number {
    const t = this.options.now();
    this.entered = this.entered.filter(([at]) => t - at <= this.options.windowMs);
    const size = Math.max(1, this.previous.size);
    const fresh = this.entered.reduce((sum, [, n]) => sum + n, 0);
    return fresh / size / (this.options.windowMs / 1000);
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.held = null;
  }

  private release(): void {
    if (!this.held) return;
    if (this.setsPerSecond() <= this.options.maxSetsPerSecond) {
      const fileIds = this.held;
      this.held = null;
      this.pass(fileIds);
      return;
    }
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.release();
    }, this.options.recheckMs);
  }
}
