// The frame pipeline of a player: load ahead (host decode + transfer), upload ahead into a ring of slots, present on
// the clock, and drop a frame rather than wait for it.
//
// Pure logic over an I/O interface (io.ts), driven by tick(): the renderer runs it on requestAnimationFrame with the
// GPU engine behind `upload`/`present`, the benchmark in Node with the host and plain upload buffers. Nothing here
// waits: a frame not ready when its step has passed is counted as dropped and the clock goes on (the newest such
// frame is still shown when it comes, if nothing newer has: the picture moves rather than waits for one in time).
// Which frames to ask for is the look-ahead's (lookahead.ts), on the estimates of latency.ts; while playing there is
// always a next one. With a pre-roll, Play first buffers (the clock held at the start frame) until the slots hold
// frames and loads keep pace with the rate; where they cannot, until the pre-roll time is up and enough frames came
// to show while the next load comes: a cold start then costs a moment's wait, not a burst of drops or a still picture.

import { dueMs, frameAtStep, stepAt, type ClockSpec } from './clock.js';
import type { PipelineIo, PipelineOptions, Presented } from './io.js';
import { JobTable, type InFlight, type Job } from './jobs.js';
import { LoadEstimator } from './latency.js';
import { FrameLoads } from './loads.js';
import { askAhead, type AskAheadContext, type Playing } from './ask-ahead.js';
import { SlotRing } from './slots.js';
import { PlaybackCounts } from './counts.js';
import { prerollOutcome } from './preroll.js';
import { Scrub } from './scrub.js';
import { FrameTimeline, type FrameOutcome, type PlaybackSummary } from './timeline.js';

export type { LoadResult, PipelineIo, PipelineOptions, Presented, UploadResult } from './io.js';
export { PREROLL_MS } from './preroll.js';

/** The player's loads in flight at once: enough to keep every decode worker of the host busy on frames of one sequence. */
export const PLAYER_MAX_LOADS = 3;

export class FramePipeline<D> {
  private readonly jobs = new JobTable<D>();
  private readonly slots: SlotRing<Job<D>>;
  private readonly estimator = new LoadEstimator();
  private readonly loads: FrameLoads<D>;
  private readonly asks: AskAheadContext<D>;
  private play: Playing | null = null;
  private readonly scrub: Scrub<D>;
  private readonly counts: PlaybackCounts;
  /** How long the last Play buffered before its clock started (ms). */
  prerollMs = 0;
  /** The last Play's pre-roll ran out of time before the frames were buffered: the host is behind. */
  private prerollRanOut = false;
  /** The load of a step already passed, kept to be shown late (see settlePassed). */
  private late: Job<D> | null = null;
  readonly timeline = new FrameTimeline();
  presented: Presented | null = null;
  /** Called when something visible changed (a frame presented or settled, a count, playback ended). */
  onChange: (() => void) | null = null;

  constructor(
    private readonly io: PipelineIo<D>,
    /** The file of a frame number, or null where the sequence has a gap. */
    private readonly fileOf: (frame: number) => string | null,
    private readonly now: () => number,
    private readonly options: PipelineOptions,
  ) {
    this.slots = new SlotRing(options.slots);
    this.counts = new PlaybackCounts(this.timeline);
    this.loads = new FrameLoads({
      io,
      slots: this.slots,
      estimator: this.estimator,
      timeline: this.timeline,
      now,
      timesLatency: (requestedMs) => {
        const start = this.clockStartMs;
        return start === null || requestedMs >= start || this.prerollRanOut;
      },
      isLate: (job) => job === this.late,
      settled: () => this.pump(),
    });
    this.asks = { jobs: this.jobs, slots: this.slots, estimator: this.estimator, loads: this.loads, io, fileOf, options };
    this.scrub = new Scrub({
      jobs: this.jobs,
      loads: this.loads,
      fileOf,
      drop: (j) => this.drop(j),
      show: (j) => this.show(j),
      changed: () => this.onChange?.(),
      hold: (frame, kind, reason) => this.hold(frame, kind, reason),
      onScreen: () => this.presented && { frame: this.presented.frame, shown: this.presented.kind === 'shown' },
    });
  }

  get playing(): boolean {
    return this.play !== null;
  }

  /** When the clock started (null while Play buffers or when stopped). */
  get clockStartMs(): number | null {
    return this.play && !this.play.preroll ? this.play.t0 : null;
  }

  /** Plays from `spec.startFrame` now; the frame on screen counts as shown when it is the start frame. */
  start(spec: ClockSpec): void {
    this.cancelAll();
    const t0 = this.now();
    const preroll = this.options.prerollMs ?? 0;
    this.play = {
      spec,
      t0,
      resolved: -1,
      planned: null,
      preroll: preroll > 0 ? { startedMs: t0, untilMs: t0 + preroll } : null,
      shownStep: -1,
    };
    this.late = null;
    this.scrub.target = null;
    this.prerollMs = 0;
    this.estimator.forgetLast();
    const counted = this.counts.version;
    if (!this.play.preroll) this.startClock(t0);
    this.advance();
    if (this.counts.version !== counted) this.onChange?.();
  }

  private startClock(now: number, ranOut = false): void {
    const play = this.play!;
    this.prerollRanOut = ranOut;
    if (play.preroll) {
      this.prerollMs = now - play.preroll.startedMs;
      this.estimator.restart(now, ranOut);
    }
    play.preroll = null;
    play.t0 = now;
    this.timeline.begin(now, play.spec.fps);
    this.counts.changed(now);
    if (this.presented?.kind === 'shown' && this.presented.frame === play.spec.startFrame) {
      this.record(0, play.spec.startFrame, 'shown', null);
      play.resolved = 0;
      play.shownStep = 0;
    }
  }

  /** Stops the clock; the frame on screen stays. */
  stop(): void {
    if (!this.play) return;
    // stopped while buffering: an empty playback
    if (this.play.preroll) this.timeline.begin(this.now(), this.play.spec.fps);
    this.play = null;
    this.cancelAll();
    this.io.plan([]);
    this.timeline.end(this.now());
    this.counts.changed(this.now());
    this.onChange?.();
  }

  /** Paused: shows `frame` as soon as it can (while scrubbing, each frame that arrives is shown, then the newest asked for). */
  seek(frame: number): void {
    if (this.play) this.stop();
    this.scrub.seek(frame);
  }

  /**
   * The slots went with their GPU device: the frames in them or on their way into them are loaded again (their pixels
   * went to the GPU and back to the pool); loads go on, uploads wait for slotsBack(). The clock runs on: steps whose
   * frames cannot be shown meanwhile are dropped, as they would be for any hold-up, and none is marked damaged.
   */
  slotsLost(): void {
    for (const job of this.jobs.all()) if (job.state === 'uploading' || job.state === 'ready') this.drop(job);
    if (this.late?.cancelled) this.late = null;
    this.slots.lose();
  }

  /** Slots on a new device are ready: uploads resume and playing goes on (paused, the frame asked for is shown). */
  slotsBack(): void {
    this.slots.resume();
    this.pump();
  }

  /** Drives the clock: call on every display frame. */
  tick(): void {
    const counted = this.counts.version;
    this.advance();
    // a count changed (a step settled, dropped ones included): the player bar shows it, as Diagnostics does
    if (this.counts.version !== counted) this.onChange?.();
  }

  /** Settles the steps whose time has come and asks for what comes next. */
  private advance(): void {
    const play = this.play;
    if (!play) return;
    const now = this.now();
    if (play.preroll) {
      const outcome = prerollOutcome({
        jobs: this.jobs.byStep.values(),
        slotCount: this.slots.count,
        estimator: this.estimator,
        fps: play.spec.fps,
        untilMs: play.preroll.untilMs,
        nowMs: now,
      });
      if (!outcome) {
        play.t0 = now;
        askAhead(this.asks, play, now, 0);
        return;
      }
      this.startClock(now, outcome === 'ran-out');
    }
    const s = stepAt(play.spec, now - play.t0);
    // a display slower than the frame rate (or a late tick) passes several steps at once: the newest ready frame among
    // them is shown, late, rather than every one of them dropped; the older ones are dropped
    let newestReady = -1;
    for (let u = play.resolved + 1; u <= s; u++) if (this.jobs.byStep.get(u)?.state === 'ready') newestReady = u;
    for (let u = play.resolved + 1; u <= s; u++) {
      const frame = frameAtStep(play.spec, u);
      if (frame === null) {
        // a 'once' playback ran off its end
        this.stop();
        return;
      }
      if (!this.resolveStep(u, frame, u < s && u !== newestReady)) break;
      play.resolved = u;
    }
    this.settlePassed(now);
    askAhead(this.asks, play, now, s);
  }

  /**
   * Loads for steps already behind the clock. A load that missed its step still says something: it was not there when
   * its step ended (measured to then, not to a tick that came late on a busy main thread, when its answer may be
   * waiting behind the tick). The newest of them is kept while nothing newer is ready or shown: when it comes, it is
   * shown late (its step stays counted as dropped) rather than the picture staying put until a frame arrives in time;
   * and its arrival measures a load's real latency, which a load thrown away cannot. The others are dropped: their
   * work goes to frames still ahead.
   */
  private settlePassed(now: number): void {
    const play = this.play!;
    const keep = this.jobs.lateCandidate(play.resolved, play.shownStep);
    for (const job of [...this.jobs.byStep.values()]) {
      if (job.step > play.resolved) continue;
      if (job !== this.late && job.state === 'loading')
        this.estimator.unfinished(job.rec.requestedMs, Math.min(now, play.t0 + dueMs(play.spec, job.step + 1)));
      if (job !== keep) this.drop(job);
    }
    this.late = keep;
    if (keep?.state === 'ready') {
      this.late = null;
      play.shownStep = keep.step;
      this.show(keep);
      this.timeline.shownLate(keep.rec);
      this.counts.changed(now);
    }
  }

  /** One step whose time has come: shown if ready, else held (missing, damaged) or, once passed, dropped; true when settled. */
  private resolveStep(u: number, frame: number, past: boolean): boolean {
    const job = this.jobs.byStep.get(u) ?? null;
    if (this.fileOf(frame) === null) {
      this.hold(frame, 'missing', '');
      this.record(u, frame, 'missing', job);
    } else if (job?.state === 'failed') {
      this.hold(frame, 'damaged', job.error);
      this.record(u, frame, 'damaged', job);
    } else if (job?.state === 'ready' && !past) {
      this.play!.shownStep = u;
      this.show(job);
      this.record(u, frame, 'shown', job);
    } else if (past) this.record(u, frame, job ? 'dropped' : 'skipped', job);
    else return false;
    return true;
  }

  /** After a load or an upload: the clock or the pause logic acts on what is ready, and uploads go on. */
  private pump(): void {
    if (this.play) this.advance();
    else {
      this.loads.startUploads(this.jobs.all());
      this.scrub.pump();
    }
    this.onChange?.();
  }

  private show(job: Job<D>): void {
    this.slots.show(job.slot);
    job.rec.shownMs = this.now();
    this.io.present(job.slot, job.frame);
    this.presented = { frame: job.frame, kind: 'shown', reason: '' };
    if (job.step >= 0) this.jobs.remove(job);
  }

  private hold(frame: number, kind: 'missing' | 'damaged', reason: string): void {
    this.presented = { frame, kind, reason };
    if (kind === 'damaged') this.timeline.markDamaged(frame);
    this.counts.changed(this.now());
  }

  private record(step: number, frame: number, outcome: FrameOutcome, job: Job<D> | null): void {
    const play = this.play!;
    const rec = job?.rec ?? this.timeline.blank(step, frame);
    rec.outcome = outcome;
    rec.dueMs = play.t0 + dueMs(play.spec, step);
    if (job?.error) rec.reason = job.error;
    this.timeline.add(rec);
    this.counts.changed(this.now());
  }

  private drop(job: Job<D>): void {
    this.jobs.remove(job);
    this.loads.cancel(job);
  }

  private cancelAll(): void {
    for (const job of this.jobs.all()) this.drop(job);
    this.late = null;
  }

  /**
   * The playback's figures as of the last step settled (or the stop): the one count the player bar and Diagnostics
   * both show, so that they agree whenever each is drawn.
   */
  summary(): PlaybackSummary {
    return this.counts.summary();
  }

  /** Steps ahead that are loading, loaded, uploading or ready (for diagnostics and tests). */
  get inFlight(): InFlight {
    return this.jobs.inFlight();
  }

  /** Expected load service time (ms per frame) as measured: how fast frames arrive when the pipeline is busy. */
  get frameServiceMs(): number {
    return this.estimator.serviceMs;
  }
}
