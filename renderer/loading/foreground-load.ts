// The click comes first: while a picked image loads, until its first sharp frame, the page's other work waits here.
//
// One place knows that a load is under way (begin/end); the grid's draws and thumbnail requests, the analyses and the
// host's neighbour prefetch subscribe to it and defer their work, never drop it. A newer load supersedes an older
// one: the work waits for the newest. A load that never ends holds nothing for longer than `maxHoldMs`.

/** A load's handle: only the newest load's end() lets deferred work run. */
export type LoadTicket = number;

export interface HoldTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const windowTimer: HoldTimer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A hung host or a lost device must not leave the grid blank for good: background work resumes after this. */
export const MAX_HOLD_MS = 20_000;

export class ForegroundLoad {
  private newest: LoadTicket = 0;
  private loading = false;
  private deferred: (() => void)[] = [];
  private readonly listeners = new Set<(loading: boolean) => void>();
  private cap: unknown = null;
  /** Loads begun, and tasks that had to wait for one (diagnostics and tests). */
  readonly counts = { loads: 0, deferred: 0 };

  constructor(
    private readonly maxHoldMs = MAX_HOLD_MS,
    private readonly timer: HoldTimer = windowTimer,
  ) {}

  /** Whether a picked image is loading now (background work waits). */
  get busy(): boolean {
    return this.loading;
  }

  /** A picked image starts loading: background work waits until end() with this ticket, or a newer one. */
  begin(): LoadTicket {
    const ticket = ++this.newest;
    this.counts.loads++;
    if (this.cap !== null) this.timer.clear(this.cap);
    this.cap = this.timer.set(() => this.release(), this.maxHoldMs);
    if (!this.loading) {
      this.loading = true;
      for (const l of [...this.listeners]) l(true);
    }
    return ticket;
  }

  /** The load of `ticket` showed its first sharp frame, failed or was dropped; an older load's end changes nothing. */
  end(ticket: LoadTicket): void {
    if (ticket === this.newest) this.release();
  }

  /** Runs `task` now when nothing loads, else once the load ends (tasks run in the order they were deferred). */
  whenIdle(task: () => void): void {
    if (!this.loading) {
      task();
      return;
    }
    this.counts.deferred++;
    this.deferred.push(task);
  }

  /** Resolves once nothing loads. */
  idle(): Promise<void> {
    return new Promise((resolve) => this.whenIdle(resolve));
  }

  /** Told `true` when a load starts holding background work and `false` when it lets go. */
  subscribe(listener: (loading: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private release(): void {
    if (this.cap !== null) this.timer.clear(this.cap);
    this.cap = null;
    if (!this.loading) return;
    this.loading = false;
    for (const l of [...this.listeners]) l(false);
    // a task that starts another load leaves the rest waiting for that one
    while (!this.loading && this.deferred.length) this.deferred.shift()!();
  }
}
