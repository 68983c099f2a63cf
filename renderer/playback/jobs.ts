// The frames the pipeline has asked for: one job per playback step (and the frames asked for while paused), each on
// its way from load to upload to screen, and the counts of them that the look-ahead and diagnostics read.
import type { FrameRecord } from './timeline.js';

export type JobState = 'loading' | 'loaded' | 'uploading' | 'ready' | 'failed';

export interface Job<D> {
  /** Step of the playback it is for; -1 for a frame asked for while paused. */
  step: number;
  frame: number;
  fileId: string;
  tag: string;
  state: JobState;
  data: D | null;
  slot: number;
  cancelled: boolean;
  error: string;
  rec: FrameRecord;
}

export interface InFlight {
  loading: number;
  uploading: number;
  ready: number;
}

export class JobTable<D> {
  readonly byStep = new Map<number, Job<D>>();
  /** Frames asked for while paused (step -1), newest last. */
  paused: Job<D>[] = [];

  add(job: Job<D>): void {
    if (job.step >= 0) this.byStep.set(job.step, job);
    else this.paused.push(job);
  }

  /** Takes `job` out of the table (it is no longer wanted, or it is on screen). */
  remove(job: Job<D>): void {
    if (job.step >= 0) {
      if (this.byStep.get(job.step) === job) this.byStep.delete(job.step);
    } else this.paused = this.paused.filter((j) => j !== job);
  }

  all(): Job<D>[] {
    return [...this.byStep.values(), ...this.paused];
  }

  /** Playback jobs by state: loads running, loads not yet uploading, and jobs holding or heading for a slot. */
  ahead(): { loading: number; queued: number; ahead: number } {
    let loading = 0,
      queued = 0,
      ahead = 0;
    for (const job of this.byStep.values()) {
      if (job.state === 'loading') loading++;
      if (job.state === 'loading' || job.state === 'loaded') queued++;
      if (job.state !== 'failed') ahead++;
    }
    return { loading, queued, ahead };
  }

  /**
   * The load of a step already passed worth keeping, to show late: the newest of them, while no later step's frame is
   * ready and none newer than it was shown (`shownStep`). Null when there is none such.
   */
  lateCandidate(resolved: number, shownStep: number): Job<D> | null {
    let newest: Job<D> | null = null;
    for (const job of this.byStep.values()) {
      if (job.step > resolved) {
        if (job.state === 'ready') return null;
      } else if (job.state !== 'failed' && (!newest || job.step > newest.step)) newest = job;
    }
    return newest && newest.step > shownStep ? newest : null;
  }

  /** Frames loading (or loaded, waiting for a slot), uploading and ready. */
  inFlight(): InFlight {
    let loading = 0,
      uploading = 0,
      ready = 0;
    for (const j of this.all()) {
      if (j.state === 'loading' || j.state === 'loaded') loading++;
      else if (j.state === 'uploading') uploading++;
      else if (j.state === 'ready') ready++;
    }
    return { loading, uploading, ready };
  }
}

/** Uploads go earliest step first; frames asked for while paused after them. */
export function uploadOrder<D>(job: Job<D>): number {
  return job.step >= 0 ? job.step : Number.MAX_SAFE_INTEGER;
}
