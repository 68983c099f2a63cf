// The frame pipeline of a player: load ahead (host decode + transfer), upload ahead into a ring of slots, present on
// the clock, and drop a frame rather than wait for it.
//
// Pure logic over an I/O interface, driven by tick(now): the renderer runs it on requestAnimationFrame with the GPU
// engine behind `upload`/`present`, the benchmark in Node with the host and plain upload buffers. Nothing here waits:
// a frame that is not ready when its step has passed is counted as dropped and the clock goes on. When frames arrive
// slower than the frame rate, the pipeline asks only for frames it can have in time (evenly spaced), rather than for
// every frame and showing none of them on time; it tells the host the same plan, so nothing is decoded for nothing.
// With a pre-roll, Play first buffers (the clock held at the start frame) until the slots hold frames and loads keep
// pace with the rate, or the pre-roll time is up: a cold start then costs a moment's wait, not a burst of drops.

import { dueMs, frameAtStep, stepAt, type ClockSpec } from './clock.js';
import { FrameTimeline, type FrameOutcome, type FrameRecord } from './timeline.js';

/** What a load brought: the pixels (opaque here) and where the time went. */
export interface LoadResult<D> {
  data: D;
  /** The host's reply time (waiting for a frame the ring is still decoding, or decoding it now). */
  hostMs: number;
  /** The decode of this frame, summed over the workers that did it (0 when it came from the RAM cache). */
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  queueMs: number;
  source: 'decode' | 'ram-cache';
  /** Moving the planes to the player: request to last byte, less the host's time (0 in the same process). */
  transferMs: number;
  bytes: number;
}

export interface UploadResult {
  /** CPU time of the upload call (staging copy, encode, submit). */
  uploadMs: number;
  /** GPU work of building the shown layer (assemble + MIP), when measured. */
  buildMs?: number;
}

export interface PipelineIo<D> {
  /** The frame's planes; rejects when the frame cannot be decoded (a damaged file). `tag` names the request for cancel(). */
  load(fileId: string, tag: string): Promise<LoadResult<D>>;
  cancel(tag: string): void;
  /** Puts loaded pixels into slot `slot` (the slot is not shown while this runs). */
  upload(slot: number, data: D, frame: number): Promise<UploadResult>;
  /** Shows slot `slot` now. */
  present(slot: number, frame: number): void;
  /** Loaded pixels that are not needed any more (uploaded, dropped or cancelled): their buffers go back. */
  release(data: D): void;
  /** The files the pipeline will ask for next, in order (empty: none), so that the host decodes them ahead. */
  plan(fileIds: string[]): void;
}

/** The player's pre-roll: Play buffers at most this long (a cold 4K start on two cores needs about this to get ahead). */
export const PREROLL_MS = 1000;
/** The player's loads in flight at once: enough to keep every decode worker of the host busy on frames of one sequence. */
export const PLAYER_MAX_LOADS = 3;

export interface PipelineOptions {
  /** Upload slots, the one on screen included (at least 2). */
  slots: number;
  /** Loads in flight at once. */
  maxLoads: number;
  /** Frames in a plan sent to the host. */
  planFrames?: number;
  /** Most time Play buffers before the clock starts (0: the clock starts at once). */
  prerollMs?: number;
}

type JobState = 'loading' | 'loaded' | 'uploading' | 'ready' | 'failed' | 'missing';

interface Job<D> {
  /** Step of the playback it is for; -1 for a frame asked for while paused. */
  step: number;
  frame: number;
  fileId: string | null;
  tag: string;
  state: JobState;
  data: D | null;
  slot: number;
  cancelled: boolean;
  error: string;
  rec: FrameRecord;
}

/** What the screen shows now: a frame, or a frame's place held by the previous image (missing or damaged). */
export interface Presented {
  frame: number;
  kind: 'shown' | 'missing' | 'damaged';
  /** Why a damaged frame could not be shown. */
  reason: string;
}

const EMA = 0.25;
/** Loads measured (finished, or given up unfinished) before the plan may thin. */
const MIN_SERVICE_SAMPLES = 3;

export class FramePipeline<D> {
  private readonly jobs = new Map<number, Job<D>>();
  /** Frames asked for while paused (step -1), newest last. */
  private paused: Job<D>[] = [];
  private readonly slotJob: (Job<D> | null)[];
  private shownSlot = -1;
  private play: {
    spec: ClockSpec; t0: number; resolved: number; planned: { from: number; spacing: number; length: number } | null;
    /** Buffering before the clock starts: when Play was pressed, and when buffering gives up waiting. */
    preroll: { startedMs: number; untilMs: number } | null;
  } | null = null;
  /** How long the last Play buffered before its clock started (ms). */
  prerollMs = 0;
  private target: number | null = null;
  private nextTag = 1;
  /** Service time of a load (completion to completion while busy), and of an upload: what thinning is planned on. */
  private serviceMs = NaN;
  private serviceSamples = 0;
  private uploadMs = NaN;
  /** One load's own time, request to pixels. */
  private latencyMs = NaN;
  /** The latest load's own time (not averaged). */
  private lastLatencyMs = Infinity;
  private lastLoadDoneMs = -Infinity;
  readonly timeline = new FrameTimeline();
  presented: Presented | null = null;
  /** Called when something visible changed (a frame presented, a frame failed, playback ended). */
  onChange: (() => void) | null = null;

  constructor(
    private readonly io: PipelineIo<D>,
    /** The file of a frame number, or null where the sequence has a gap. */
    private readonly fileOf: (frame: number) => string | null,
    private readonly now: () => number,
    private readonly options: PipelineOptions,
  ) {
    this.slotJob = new Array<Job<D> | null>(Math.max(2, options.slots)).fill(null);
  }

  get playing(): boolean {
    return this.play !== null;
  }

  /** Plays from `spec.startFrame` now; the frame on screen counts as shown when it is the start frame. */
  start(spec: ClockSpec): void {
    this.cancelAll();
    const t0 = this.now();
    const preroll = this.options.prerollMs ?? 0;
    this.play = { spec, t0, resolved: -1, planned: null, preroll: preroll > 0 ? { startedMs: t0, untilMs: t0 + preroll } : null };
    this.target = null;
    this.prerollMs = 0;
    // the last Play's answers say nothing of this one's
    this.lastLatencyMs = Infinity;
    if (!this.play.preroll) this.startClock(t0);
    this.tick();
  }

  /** When the clock started (null while Play buffers or when stopped). */
  get clockStartMs(): number | null {
    return this.play && !this.play.preroll ? this.play.t0 : null;
  }

  private startClock(now: number): void {
    const play = this.play!;
    if (play.preroll) {
      this.prerollMs = now - play.preroll.startedMs;
      // the cold loads' times say nothing of the buffered state: thinning plans on what comes next. The loads in
      // flight were asked for during the pre-roll: their service counts from now (the pipeline is busy from here on),
      // and their request-to-pixels time, spent queued behind the pre-roll's, is not a load's latency
      this.serviceMs = this.latencyMs = NaN;
      this.serviceSamples = 0;
      this.lastLoadDoneMs = now;
    }
    play.preroll = null;
    play.t0 = now;
    this.timeline.begin(now, play.spec.fps);
    if (this.presented?.kind === 'shown' && this.presented.frame === play.spec.startFrame) {
      this.record(0, play.spec.startFrame, 'shown', null);
      play.resolved = 0;
    }
  }

  /**
   * Buffering: loads go on with the clock held at step 0. Done (the clock starts) when the slots are full of ready
   * frames and loads arrive at least as fast as the rate, or when the pre-roll time is up.
   */
  private buffered(now: number): boolean {
    const play = this.play!;
    const wanted = Math.max(1, this.slotJob.length - 1);
    let ready = 0;
    for (const job of this.jobs.values()) if (job.state === 'ready' || job.state === 'failed' || job.state === 'missing') ready++;
    // the host is ahead when its latest answer came within a frame's time (the RAM cache, or a frame ring ahead)
    const keepsPace = this.lastLatencyMs <= 1000 / play.spec.fps;
    return (ready >= wanted && keepsPace) || now >= play.preroll!.untilMs;
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
    this.onChange?.();
  }

  /** Paused: shows `frame` as soon as it can (while scrubbing, each frame that arrives is shown, then the newest asked for). */
  seek(frame: number): void {
    if (this.play) this.stop();
    this.target = frame;
    if (this.presented?.frame === frame && this.presented.kind === 'shown') return;
    // a load under way is kept (it shows something while the slider moves); others for frames no longer wanted go
    for (const job of [...this.paused]) {
      if (job.frame !== frame && job.state !== 'loading' && job.state !== 'uploading') this.dropPaused(job);
    }
    this.pumpPaused();
  }

  /** Drives the clock: call on every display frame. */
  tick(): void {
    const play = this.play;
    if (!play) return;
    const now = this.now();
    if (play.preroll) {
      if (!this.buffered(now)) {
        play.t0 = now;
        this.fill(now, 0);
        this.startUploads();
        return;
      }
      this.startClock(now);
    }
    const s = stepAt(play.spec, now - play.t0);
    // a display slower than the frame rate (or a late tick) passes several steps at once: the newest ready frame among
    // them is shown, late, rather than every one of them dropped; the older ones are dropped
    let newestReady = -1;
    for (let u = play.resolved + 1; u <= s; u++) if (this.jobs.get(u)?.state === 'ready') newestReady = u;
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
    // loads for steps already behind the clock can only be dropped: their work goes to frames still ahead. A load
    // dropped unfinished still says something: it took at least this long (else, when every load is late, nothing
    // would ever complete, the estimates would never grow, and no frame would be shown)
    for (const job of [...this.jobs.values()]) {
      if (job.step > play.resolved) continue;
      if (job.state === 'loading') this.noteUnfinished(job, now);
      this.dropJob(job);
    }
    this.fill(now, s);
    // a slot freed by the frame just shown takes the next loaded frame
    this.startUploads();
  }

  /**
   * One step whose time has come: shown if its frame is ready, else held (missing, damaged) or, once its step has
   * passed (`past`), dropped. Returns whether the step is settled.
   */
  private resolveStep(u: number, frame: number, past: boolean): boolean {
    const job = this.jobs.get(u);
    if (this.fileOf(frame) === null) {
      this.hold(frame, 'missing', '');
      this.record(u, frame, 'missing', job ?? null);
      return true;
    }
    if (job?.state === 'failed') {
      this.hold(frame, 'damaged', job.error);
      this.record(u, frame, 'damaged', job);
      return true;
    }
    if (job?.state === 'ready' && !past) {
      this.show(job);
      this.record(u, frame, 'shown', job);
      return true;
    }
    if (!past) return false;
    this.record(u, frame, job ? 'dropped' : 'skipped', job ?? null);
    return true;
  }

  /** Starts loads for the steps ahead that can be ready on time, as many as the slots and load limit allow. */
  private fill(now: number, s: number): void {
    const play = this.play!;
    const { spec } = play;
    let loading = 0;
    let ahead = 0;
    for (const job of this.jobs.values()) {
      if (job.state === 'loading') loading++;
      if (job.state !== 'missing' && job.state !== 'failed') ahead++;
    }
    const maxAhead = this.slotJob.length - 1 + this.options.maxLoads;
    let queued = 0;
    for (const job of this.jobs.values()) if (job.state === 'loading' || job.state === 'loaded') queued++;
    const horizon = s + Math.max(8, Math.ceil(spec.fps * 2));
    for (let u = Math.max(s, play.resolved + 1); u <= horizon && loading < this.options.maxLoads && ahead < maxAhead; u++) {
      if (this.jobs.has(u)) continue;
      const frame = frameAtStep(spec, u);
      if (frame === null) break;
      const fileId = this.fileOf(frame);
      if (fileId === null) continue;
      // thinned: only the steps of the plan the host decodes ahead, so that what is asked for is what it has started
      const planned = play.planned;
      if (planned && planned.spacing > 1 && u >= planned.from && (u - planned.from) % planned.spacing !== 0) continue;
      // thinning: a frame that cannot arrive before its step is not asked for (it will be counted as skipped)
      const readyAt = now + this.expectedMs(queued + 1);
      if (!play.preroll && play.t0 + dueMs(spec, u + 1) < readyAt) continue;
      this.startLoad(u, frame, fileId);
      loading++;
      ahead++;
      queued++;
    }
    this.sendPlan(s);
  }

  /**
   * Expected time until the k-th load from now is uploaded (0 before anything was measured): k services one after
   * another, but never less than one load's own latency (loads run side by side, each taking that long).
   */
  private expectedMs(k: number): number {
    if (Number.isNaN(this.serviceMs)) return 0;
    const load = Math.max(k * this.serviceMs, Number.isNaN(this.latencyMs) ? 0 : this.latencyMs);
    return load + (Number.isNaN(this.uploadMs) ? 0 : this.uploadMs);
  }

  /** A load dropped before it finished: its time so far is a lower bound of a load's latency and of the service time. */
  private noteUnfinished(job: Job<D>, now: number): void {
    const elapsed = now - job.rec.requestedMs;
    if (Number.isNaN(this.latencyMs) || elapsed > this.latencyMs) this.latencyMs = elapsed;
    const busy = now - Math.max(job.rec.requestedMs, this.lastLoadDoneMs);
    if (Number.isNaN(this.serviceMs) || busy > this.serviceMs) this.noteService(busy);
  }

  /** One load's service time (finished, or a lower bound from one given up) into the estimate thinning plans on. */
  private noteService(ms: number): void {
    this.serviceMs = ema(this.serviceMs, ms);
    this.serviceSamples++;
  }

  /** The frames the pipeline will ask for next at the spacing thinning gives now; sent again when that changes. */
  private sendPlan(s: number): void {
    const play = this.play!;
    // one load's time is not yet a service time (the first is a whole latency): thinning waits for a few
    const measured = play.preroll || this.serviceSamples < MIN_SERVICE_SAMPLES ? NaN : this.serviceMs;
    const spacing = planSpacing(play.planned?.spacing ?? null, measured, 1000 / play.spec.fps);
    const last = play.planned;
    let from = s + 1;
    for (const job of this.jobs.values()) if (job.step >= from && job.fileId) from = job.step + 1;
    // the same spacing goes on on the same grid of steps: a new plan then holds what the last one had started
    if (last && last.spacing === spacing && spacing > 1 && from > last.from) from = last.from + Math.ceil((from - last.from) / spacing) * spacing;
    if (last && last.spacing === spacing && from < last.from + last.length / 2) return;
    const length = this.options.planFrames ?? 256;
    const fileIds: string[] = [];
    for (let k = 0; fileIds.length < length && k < length * spacing * 2; k++) {
      const frame = frameAtStep(play.spec, from + k * spacing);
      if (frame === null) break;
      const id = this.fileOf(frame);
      if (id !== null) fileIds.push(id);
    }
    play.planned = { from, spacing, length: length * spacing };
    this.io.plan(fileIds);
  }

  private startLoad(step: number, frame: number, fileId: string): Job<D> {
    const job: Job<D> = {
      step, frame, fileId, tag: `frame-${this.nextTag++}`, state: 'loading', data: null, slot: -1, cancelled: false, error: '',
      rec: this.timeline.blank(step, frame),
    };
    job.rec.requestedMs = this.now();
    if (step >= 0) this.jobs.set(step, job);
    else this.paused.push(job);
    this.io.load(fileId, job.tag).then(
      (result) => {
        const now = this.now();
        const busySince = Math.max(job.rec.requestedMs, this.lastLoadDoneMs);
        this.lastLoadDoneMs = now;
        const service = now - busySince;
        this.noteService(service);
        const latency = now - job.rec.requestedMs;
        this.lastLatencyMs = latency;
        const clockStart = this.clockStartMs;
        if (clockStart === null || job.rec.requestedMs >= clockStart) this.latencyMs = ema(this.latencyMs, latency);
        if (job.cancelled) {
          this.io.release(result.data);
          return;
        }
        Object.assign(job.rec, {
          loadedMs: now, hostMs: result.hostMs, readMs: result.readMs, decompressMs: result.decompressMs, unpackMs: result.unpackMs,
          queueMs: result.queueMs, source: result.source, transferMs: result.transferMs, bytes: result.bytes,
        });
        job.data = result.data;
        job.state = 'loaded';
        this.pump();
      },
      (error: unknown) => {
        if (job.cancelled) return;
        job.state = 'failed';
        job.error = error instanceof Error ? error.message : String(error);
        job.rec.loadedMs = this.now();
        this.pump();
      },
    );
    return job;
  }

  /** After a load or an upload: the clock or the pause logic acts on what is ready, and uploads go on. */
  private pump(): void {
    if (this.play) this.tick();
    else {
      this.startUploads();
      this.pumpPaused();
    }
    this.onChange?.();
  }

  /** Uploads loaded frames into free slots, earliest step first. */
  private startUploads(): void {
    const waiting = [...this.jobs.values(), ...this.paused].filter((j) => j.state === 'loaded').sort((a, b) => order(a) - order(b));
    for (const job of waiting) {
      const slot = this.freeSlot();
      if (slot < 0) break;
      this.upload(job, slot);
    }
  }

  private upload(job: Job<D>, slot: number): void {
    job.state = 'uploading';
    job.slot = slot;
    this.slotJob[slot] = job;
    const data = job.data!;
    job.data = null;
    const t0 = this.now();
    this.io.upload(slot, data, job.frame).then(
      (result) => {
        this.io.release(data);
        const uploadWallMs = this.now() - t0;
        this.uploadMs = ema(this.uploadMs, uploadWallMs);
        job.rec.uploadMs = result.uploadMs;
        job.rec.buildMs = result.buildMs ?? NaN;
        job.rec.readyMs = this.now();
        if (job.cancelled) {
          this.freeSlotOf(job);
          this.pump();
          return;
        }
        job.state = 'ready';
        this.pump();
      },
      (error: unknown) => {
        this.io.release(data);
        this.freeSlotOf(job);
        if (job.cancelled) return;
        job.state = 'failed';
        job.error = `the frame could not be put on the GPU: ${error instanceof Error ? error.message : String(error)}`;
        this.pump();
      },
    );
  }

  /** Paused: show the frame asked for once it is ready (or, while scrubbing, the newest that is), one load at a time. */
  private pumpPaused(): void {
    const finished = this.paused.filter((j) => j.state === 'ready' || j.state === 'failed');
    if (finished.length) {
      const pick = finished.find((j) => j.frame === this.target) ?? finished[finished.length - 1]!;
      if (pick.state === 'ready') this.show(pick);
      else this.hold(pick.frame, 'damaged', pick.error);
      this.paused = this.paused.filter((j) => j !== pick);
      for (const j of finished) if (j !== pick) this.dropPaused(j);
      this.onChange?.();
    }
    const target = this.target;
    if (target === null || this.presented?.frame === target) return;
    // one load at a time: while the slider moves, each finished frame is shown, then the newest position is loaded
    if (this.paused.some((j) => j.state === 'loading' || j.state === 'loaded' || j.state === 'uploading')) return;
    const fileId = this.fileOf(target);
    if (fileId === null) {
      this.hold(target, 'missing', '');
      this.onChange?.();
      return;
    }
    this.startLoad(-1, target, fileId);
  }

  private show(job: Job<D>): void {
    const previous = this.shownSlot;
    this.shownSlot = job.slot;
    job.rec.shownMs = this.now();
    this.io.present(job.slot, job.frame);
    this.presented = { frame: job.frame, kind: 'shown', reason: '' };
    if (previous >= 0 && previous !== job.slot) this.slotJob[previous] = null;
    if (job.step >= 0) this.jobs.delete(job.step);
  }

  private hold(frame: number, kind: 'missing' | 'damaged', reason: string): void {
    this.presented = { frame, kind, reason };
    if (kind === 'damaged') this.timeline.markDamaged(frame);
  }

  private record(step: number, frame: number, outcome: FrameOutcome, job: Job<D> | null): void {
    const play = this.play!;
    const rec = job?.rec ?? this.timeline.blank(step, frame);
    rec.outcome = outcome;
    rec.dueMs = play.t0 + dueMs(play.spec, step);
    if (job?.error) rec.reason = job.error;
    this.timeline.add(rec);
  }

  private freeSlot(): number {
    for (let i = 0; i < this.slotJob.length; i++) if (i !== this.shownSlot && !this.slotJob[i]) return i;
    return -1;
  }

  private freeSlotOf(job: Job<D>): void {
    if (job.slot >= 0 && this.slotJob[job.slot] === job && job.slot !== this.shownSlot) this.slotJob[job.slot] = null;
  }

  private dropJob(job: Job<D>): void {
    this.jobs.delete(job.step);
    this.cancelJob(job);
  }

  private dropPaused(job: Job<D>): void {
    this.paused = this.paused.filter((j) => j !== job);
    this.cancelJob(job);
  }

  private cancelJob(job: Job<D>): void {
    if (job.cancelled) return;
    job.cancelled = true;
    if (job.state === 'loading') this.io.cancel(job.tag);
    if (job.state === 'loaded' && job.data !== null) {
      this.io.release(job.data);
      job.data = null;
    }
    if (job.state === 'ready') this.freeSlotOf(job);
  }

  private cancelAll(): void {
    for (const job of [...this.jobs.values()]) this.dropJob(job);
    for (const job of [...this.paused]) this.dropPaused(job);
  }

  /** Steps ahead that are loading, loaded, uploading or ready (for diagnostics and tests). */
  get inFlight(): { loading: number; uploading: number; ready: number } {
    let loading = 0, uploading = 0, ready = 0;
    for (const j of [...this.jobs.values(), ...this.paused]) {
      if (j.state === 'loading' || j.state === 'loaded') loading++;
      else if (j.state === 'uploading') uploading++;
      else if (j.state === 'ready') ready++;
    }
    return { loading, uploading, ready };
  }

  /** Expected load service time (ms per frame) as measured: how fast frames arrive when the pipeline is busy. */
  get frameServiceMs(): number {
    return this.serviceMs;
  }
}

/** A running estimate moved a share EMA toward the latest sample (the sample itself when there is none yet). */
function ema(estimate: number, sample: number): number {
  return Number.isNaN(estimate) ? sample : estimate + EMA * (sample - estimate);
}

/**
 * The spacing of the frames asked for: every frame while a load's service fits a frame's time, else every k-th frame
 * so that k frame times cover one service. Every frame while nothing is measured, and during the pre-roll (its cold
 * loads say nothing of what comes next). With hysteresis: a new plan cancels the host's decodes of the frames the old
 * one had and the new one lacks, and a service time that wobbles around a boundary (a host at its limit, a shared
 * machine) would flip the plan at every load, throwing away decodes just when time is short. So the spacing grows only
 * once the service is a quarter over what the current one allows; below that, frames the fill cannot have in time are
 * skipped one by one, which shows more of them than every other frame would.
 */
export function planSpacing(current: number | null, serviceMs: number, frameIntervalMs: number): number {
  if (Number.isNaN(serviceMs)) return 1;
  const wanted = Math.max(1, Math.ceil(serviceMs / frameIntervalMs - 0.1));
  if (current === null) return wanted;
  if (wanted > current) return serviceMs > current * frameIntervalMs * 1.25 ? wanted : current;
  return wanted;
}

function order<D>(job: Job<D>): number {
  return job.step >= 0 ? job.step : Number.MAX_SAFE_INTEGER;
}
