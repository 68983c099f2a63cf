// The engine's frame loop: one requestAnimationFrame per batch of invalidations. A frame encodes only the canvases
// marked dirty (a canvas not attached yet stays dirty), copies any canvas a capture asked for, submits once, and
// resolves the shows waiting for the frame that shows them.
import { CanvasCaptures, type CanvasName } from './canvas-captures.js';
import { FrameStats } from './frame-stats.js';
import type { GpuSession } from './gpu-session.js';
import type { GridDrawer } from './grid-drawer.js';
import type { PreviewDrawer } from './preview-drawer.js';
import type { CanvasCapture } from './engine-types.js';

export interface FrameParts {
  session: GpuSession;
  preview: PreviewDrawer;
  grid: GridDrawer;
}

export class FrameLoop {
  readonly stats = new FrameStats();
  private readonly captures = new CanvasCaptures();
  private rafId = 0;
  private stopped = false;
  private readonly dirty: Record<CanvasName, boolean> = { preview: false, grid: false };
  /** A held canvas is not drawn: it stays dirty until let go. */
  private readonly held: Record<CanvasName, boolean> = { preview: false, grid: false };
  /** Frames that drew the grid. */
  gridFrames = 0;
  private waiting: { t0: number; resolve: (ms: number) => void }[] = [];

  /** `parts`: what draws now; null while there is nothing to draw with (a device being replaced). */
  constructor(private readonly parts: () => FrameParts | null) {}

  invalidate(which: CanvasName): void {
    this.dirty[which] = true;
    if (this.held[which] || this.rafId || this.stopped) return;
    this.rafId = requestAnimationFrame(() => this.frame());
  }

  /** Resolves with the ms from `t0` to the submission of the next frame. */
  nextFrame(t0: number): Promise<number> {
    return new Promise((resolve) => this.waiting.push({ t0, resolve }));
  }

  /** Reads back what the next frame draws on a canvas (tests and diagnostics; allocates, so only on request). */
  capture(which: CanvasName): Promise<CanvasCapture> {
    const captured = this.captures.request(which);
    this.invalidate(which);
    return captured;
  }

  /** Holds a canvas (its invalidations wait) or lets it go (drawn in the next frame if anything changed meanwhile). */
  hold(which: CanvasName, held: boolean): void {
    if (this.held[which] === held) return;
    this.held[which] = held;
    if (!held && this.dirty[which]) this.invalidate(which);
  }

  stop(): void {
    this.stopped = true;
    if (this.rafId) cancelAnimationFrame(this.rafId);
  }

  private frame(): void {
    this.rafId = 0;
    const parts = this.parts();
    if (this.stopped || !parts) return;
    const t0 = performance.now();
    const { session, preview, grid } = parts;
    const encoder = session.device.createCommandEncoder({ label: 'frame' });
    const drawn = this.dirty.preview ? preview.encode(encoder) : null;
    if (drawn) this.dirty.preview = false;
    const gridTexture = this.dirty.grid && !this.held.grid ? grid.encode(encoder) : null;
    if (gridTexture) {
      this.dirty.grid = false;
      this.gridFrames++;
    }
    const mapCaptures = this.captures.wanted
      ? this.captures.encode(session.device, encoder, { preview: drawn?.texture ?? null, grid: gridTexture })
      : null;
    session.device.queue.submit([encoder.finish()]);
    mapCaptures?.();
    if (drawn?.timed) session.toneTimer!.collect();
    const now = performance.now();
    for (const s of this.waiting) s.resolve(now - s.t0);
    this.waiting.length = 0;
    this.stats.record(t0, now - t0, session.toneTimer?.lastMs ?? NaN);
  }
}
