// Ring buffers of recent frame timings for the diagnostics chart; fixed size, written in place.

export const FRAME_HISTORY = 240;

export class FrameStats {
  readonly cpuMs = new Float32Array(FRAME_HISTORY);
  readonly gpuMs = new Float32Array(FRAME_HISTORY);
  readonly intervalMs = new Float32Array(FRAME_HISTORY);
  count = 0;
  private lastStart = NaN;

  record(startMs: number, cpuMs: number, gpuMs: number): void {
    const i = this.count % FRAME_HISTORY;
    this.cpuMs[i] = cpuMs;
    this.gpuMs[i] = gpuMs;
    this.intervalMs[i] = Number.isNaN(this.lastStart) ? 0 : startMs - this.lastStart;
    this.lastStart = startMs;
    this.count++;
  }

  /** Values oldest first (for charts and export). */
  ordered(series: Float32Array): number[] {
    const n = Math.min(this.count, FRAME_HISTORY);
    const out: number[] = [];
    for (let k = 0; k < n; k++) out.push(series[(this.count - n + k) % FRAME_HISTORY]!);
    return out;
  }
}
