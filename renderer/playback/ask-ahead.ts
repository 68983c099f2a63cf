// A playing pipeline's requests: the loads the look-ahead picks, the plan the host decodes ahead, and uploads of what
// came, from the state of one Play.
import type { ClockSpec } from './clock.js';
import type { PipelineIo, PipelineOptions } from './io.js';
import type { Job, JobTable } from './jobs.js';
import type { LoadEstimator } from './latency.js';
import type { FrameLoads } from './loads.js';
import { nextPlan, stepsToLoad, type Plan } from './lookahead.js';
import type { SlotRing } from './slots.js';

/** One Play's state. */
export interface Playing {
  spec: ClockSpec;
  /** When step 0 was due; the last step settled; the plan the host has. */
  t0: number;
  resolved: number;
  planned: Plan | null;
  /** Buffering before the clock starts: when Play was pressed, and when buffering gives up waiting. */
  preroll: { startedMs: number; untilMs: number } | null;
  /** The step of the last frame shown (in its step or late); -1 before any. */
  shownStep: number;
}

export interface AskAheadContext<D> {
  jobs: JobTable<D>;
  slots: SlotRing<Job<D>>;
  estimator: LoadEstimator;
  loads: FrameLoads<D>;
  io: PipelineIo<D>;
  fileOf: (frame: number) => string | null;
  options: PipelineOptions;
}

/** Starts the loads the look-ahead picks at step `s`, tells the host the plan, and puts loaded frames into free slots. */
export function askAhead<D>(c: AskAheadContext<D>, play: Playing, now: number, s: number): void {
  const { loading, queued, ahead } = c.jobs.ahead();
  const maxAhead = c.slots.count - 1 + c.options.maxLoads;
  const picks = stepsToLoad({
    spec: play.spec,
    t0: play.t0,
    nowMs: now,
    step: s,
    resolved: play.resolved,
    buffering: !!play.preroll,
    planned: play.planned,
    taken: (u) => c.jobs.byStep.has(u),
    fileOf: c.fileOf,
    expectedMs: (k) => c.estimator.expectedMs(k),
    queued,
    room: Math.min(c.options.maxLoads - loading, maxAhead - ahead),
  });
  for (const p of picks) c.jobs.add(c.loads.start(p.step, p.frame, p.fileId));
  let furthest = -1;
  for (const step of c.jobs.byStep.keys()) furthest = Math.max(furthest, step);
  const service = play.preroll ? NaN : c.estimator.plannedServiceMs;
  const next = nextPlan(play.spec, s, furthest, play.planned, service, c.options.planFrames ?? 256, c.fileOf);
  if (next) {
    play.planned = next.plan;
    c.io.plan(next.fileIds);
  }
  c.loads.startUploads(c.jobs.all());
}
