// What happened to each frame of a playback: shown, dropped, skipped, missing or damaged, and where its time went.

export type FrameOutcome =
  /** On screen in its step. */
  | 'shown'
  /** Asked for, not ready before its step passed. */
  | 'dropped'
  /** Not asked for: frames arrived slower than the rate, and this one could not have been ready in time. */
  | 'skipped'
  /** A gap in the sequence: the previous image stays. */
  | 'missing'
  /** The file could not be decoded: the previous image stays and the frame is marked. */
  | 'damaged';

export interface FrameRecord {
  step: number;
  frame: number;
  outcome: FrameOutcome;
  /** Times on the player's clock (ms); NaN where the frame never got there. */
  dueMs: number;
  requestedMs: number;
  loadedMs: number;
  readyMs: number;
  shownMs: number;
  /** Per stage, ms (see LoadResult and UploadResult). */
  hostMs: number;
  queueMs: number;
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  transferMs: number;
  uploadMs: number;
  buildMs: number;
  source: 'decode' | 'ram-cache' | '';
  bytes: number;
  reason: string;
}

/** The stages a frame's time is split into, in pipeline order (the diagnostics chart stacks them). */
export const STAGES = ['queueMs', 'readMs', 'decompressMs', 'unpackMs', 'transferMs', 'uploadMs', 'buildMs'] as const;
export type StageName = (typeof STAGES)[number];

export interface PlaybackSummary {
  targetFps: number;
  /** Frames shown per second of playback. */
  achievedFps: number;
  /** The same over the last two seconds. */
  recentFps: number;
  elapsedMs: number;
  shown: number;
  /** Dropped and skipped: steps whose frame was not shown. */
  dropped: number;
  skipped: number;
  missing: number;
  damaged: number;
  damagedFrames: number[];
  /** Medians over the frames shown: each stage, the host's reply, request → ready, and how early the frame was ready. */
  medianMs: Record<StageName | 'hostMs' | 'latencyMs' | 'marginMs', number>;
  /** Frames shown from the host's RAM cache rather than decoded for this request or ahead. */
  fromRamCache: number;
  /** Dropped steps whose frame was then shown late, while nothing newer had come. */
  shownLate: number;
}

const KEEP_RECORDS = 1200;
const RECENT_MS = 2000;

export class FrameTimeline {
  /** The last records, oldest first. */
  readonly records: FrameRecord[] = [];
  private readonly damaged = new Set<number>();
  private counts = { shown: 0, dropped: 0, skipped: 0, missing: 0, damaged: 0, fromRamCache: 0, shownLate: 0 };
  private t0 = NaN;
  private t1 = NaN;
  private fps = 24;

  begin(t0: number, fps: number): void {
    this.t0 = t0;
    this.t1 = NaN;
    this.fps = fps;
    this.records.length = 0;
    this.counts = { shown: 0, dropped: 0, skipped: 0, missing: 0, damaged: 0, fromRamCache: 0, shownLate: 0 };
  }

  end(t: number): void {
    this.t1 = t;
  }

  blank(step: number, frame: number): FrameRecord {
    return {
      step,
      frame,
      outcome: 'dropped',
      dueMs: NaN,
      requestedMs: NaN,
      loadedMs: NaN,
      readyMs: NaN,
      shownMs: NaN,
      hostMs: NaN,
      queueMs: NaN,
      readMs: NaN,
      decompressMs: NaN,
      unpackMs: NaN,
      transferMs: NaN,
      uploadMs: NaN,
      buildMs: NaN,
      source: '',
      bytes: 0,
      reason: '',
    };
  }

  add(rec: FrameRecord): void {
    this.records.push(rec);
    if (this.records.length > KEEP_RECORDS) this.records.splice(0, this.records.length - KEEP_RECORDS);
    this.counts[rec.outcome]++;
    if (rec.outcome === 'damaged') this.damaged.add(rec.frame);
    if (rec.outcome === 'shown' && rec.source === 'ram-cache') this.counts.fromRamCache++;
  }

  /** A dropped step's frame came after all and was put on screen late (its step stays counted as dropped). */
  shownLate(rec: FrameRecord): void {
    if (rec.outcome === 'dropped') this.counts.shownLate++;
  }

  /** A frame that failed while paused or scrubbing: marked like one met in playback. */
  markDamaged(frame: number): void {
    this.damaged.add(frame);
  }

  /** Frames found damaged in any playback of this sequence (they stay marked). */
  get damagedFrames(): number[] {
    return [...this.damaged].sort((a, b) => a - b);
  }

  summary(now: number): PlaybackSummary {
    const end = Number.isNaN(this.t1) ? now : this.t1;
    const elapsedMs = Number.isNaN(this.t0) ? 0 : Math.max(0, end - this.t0);
    const shownRecs = this.records.filter((r) => r.outcome === 'shown');
    const recent = shownRecs.filter((r) => r.dueMs >= end - RECENT_MS).length;
    const median = (pick: (r: FrameRecord) => number): number => medianOf(shownRecs.map(pick).filter((v) => !Number.isNaN(v)));
    const medianMs = {} as PlaybackSummary['medianMs'];
    for (const s of STAGES) medianMs[s] = median((r) => r[s]);
    medianMs.hostMs = median((r) => r.hostMs);
    medianMs.latencyMs = median((r) => r.readyMs - r.requestedMs);
    medianMs.marginMs = median((r) => r.dueMs - r.readyMs);
    return {
      targetFps: this.fps,
      achievedFps: elapsedMs > 0 ? (this.counts.shown * 1000) / elapsedMs : 0,
      recentFps: (recent * 1000) / Math.min(RECENT_MS, Math.max(1, elapsedMs)),
      elapsedMs,
      shown: this.counts.shown,
      dropped: this.counts.dropped + this.counts.skipped,
      skipped: this.counts.skipped,
      missing: this.counts.missing,
      damaged: this.counts.damaged,
      damagedFrames: this.damagedFrames,
      medianMs,
      fromRamCache: this.counts.fromRamCache,
      shownLate: this.counts.shownLate,
    };
  }
}

export function medianOf(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
