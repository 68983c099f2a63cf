// When a Play that buffers may start its clock: the frames it holds, what the host's answers say, and the time spent.
import type { Job } from './jobs.js';
import type { LoadEstimator } from './latency.js';

/** The player's pre-roll: Play buffers at most this long (a cold 4K start on two cores needs about this to get ahead). */
export const PREROLL_MS = 1000;
/** Past the pre-roll, Play waits at most this much longer for its first frames to come back. */
export const PREROLL_FIRST_FRAMES_MS = 10_000;

export interface PrerollState {
  jobs: Iterable<Job<unknown>>;
  slotCount: number;
  estimator: LoadEstimator;
  fps: number;
  /** When buffering gives up waiting for the host to keep pace. */
  untilMs: number;
  nowMs: number;
}

/**
 * 'buffered' when the slots are full of settled frames and the host keeps pace; 'ran-out' when the pre-roll's time is
 * up and enough frames came to show while the next load comes (as far as the slots hold them), or none is coming;
 * null while it waits. A clock started on fewer would run out of frames before the loads asked for on the pre-roll's
 * measurements arrive, and the picture would stay put meanwhile.
 */
export function prerollOutcome(p: PrerollState): 'buffered' | 'ran-out' | null {
  let settled = 0;
  let coming = false;
  for (const job of p.jobs) {
    if (job.state === 'ready' || job.state === 'failed') settled++;
    else coming = true;
  }
  const frameMs = 1000 / p.fps;
  // the host is ahead when its latest answer came within a frame's time (the RAM cache, or a frame ring ahead)
  if (settled >= Math.max(1, p.slotCount - 1) && p.estimator.lastLatencyMs <= frameMs) return 'buffered';
  if (p.nowMs < p.untilMs) return null;
  if (p.nowMs >= p.untilMs + PREROLL_FIRST_FRAMES_MS) return 'ran-out';
  const bridging = Math.max(1, Math.min(p.slotCount - 1, Math.ceil(p.estimator.expectedMs(1) / frameMs)));
  return settled >= bridging || !coming ? 'ran-out' : null;
}
