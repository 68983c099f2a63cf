// Paused: the frame asked for (a seek, a step, the slider) is shown as soon as it can be. While scrubbing, each frame
// that arrives is shown, then the newest position asked for: one load at a time, so the picture follows the slider.
import type { Job, JobTable } from './jobs.js';
import type { FrameLoads } from './loads.js';

export interface ScrubContext<D> {
  jobs: JobTable<D>;
  loads: FrameLoads<D>;
  fileOf: (frame: number) => string | null;
  /** The frame on screen, and whether it is shown (not held for a missing or damaged one). */
  onScreen: () => { frame: number; shown: boolean } | null;
  show: (job: Job<D>) => void;
  hold: (frame: number, kind: 'missing' | 'damaged', reason: string) => void;
  drop: (job: Job<D>) => void;
  changed: () => void;
}

export class Scrub<D> {
  /** The frame asked for last (null: none, or playback took over). */
  target: number | null = null;

  constructor(private readonly c: ScrubContext<D>) {}

  seek(frame: number): void {
    this.target = frame;
    const screen = this.c.onScreen();
    if (screen?.frame === frame && screen.shown) return;
    // a load under way is kept (it shows something while the slider moves); others for frames no longer wanted go
    for (const job of [...this.c.jobs.paused]) {
      if (job.frame !== frame && job.state !== 'loading' && job.state !== 'uploading') this.c.drop(job);
    }
    this.pump();
  }

  /** Shows the frame asked for once it is ready (or the newest that is), then loads the next position. */
  pump(): void {
    const c = this.c;
    const finished = c.jobs.paused.filter((j) => j.state === 'ready' || j.state === 'failed');
    if (finished.length) {
      const pick = finished.find((j) => j.frame === this.target) ?? finished[finished.length - 1]!;
      if (pick.state === 'ready') c.show(pick);
      else c.hold(pick.frame, 'damaged', pick.error);
      c.jobs.remove(pick);
      for (const j of finished) if (j !== pick) c.drop(j);
      c.changed();
    }
    const target = this.target;
    if (target === null || c.onScreen()?.frame === target) return;
    if (c.jobs.paused.some((j) => j.state === 'loading' || j.state === 'loaded' || j.state === 'uploading')) return;
    const fileId = c.fileOf(target);
    if (fileId === null) {
      c.hold(target, 'missing', '');
      c.changed();
      return;
    }
    c.jobs.add(c.loads.start(-1, target, fileId));
  }
}
