// The host's frame ring: frames of a playing sequence decoded ahead, in play order, under a byte budget.
//
// The renderer sends a plan (the files it will ask for, next first). The ring keeps decodes going, on every worker
// through the one pool queue at 'playback' priority, for as many frames from the front of the plan as fit the budget,
// and holds each decoded frame (a lease, so its memory is not reused) until it has been asked for. A request for a
// frame moves the ring's cursor past it: frames before it are let go (they stay in the RAM cache while it has room,
// so a second loop plays from memory) and the window moves on. A new plan (a jump, a new direction, another layer)
// cancels the decodes of frames it no longer holds.
//
// A plan may carry the page's limits (fitWithin, as its decode requests do): a frame over them is decoded once, at the
// reduced size the page will ask for, never whole as well. A request is served from the ring only when it asks for the
// size the ring decoded.
//
// Keeping a frame for the second loop costs fresh memory, whose first touch can cost as much as the decode. So a
// frame is decoded to be kept only while the ring is comfortably ahead (keepLeadFrames ready), otherwise into memory
// recycled from the frames just shown: the cache fills as time allows, never at the cost of a frame.

import type { FitWithin, PlaybackPlan } from '../../contract/host-api.js';
import type { LevelPlanes } from '../decode/levels.js';

/** What the ring needs of the host: a leased decode of a frame, its cancellation, and its size before decoding. */
export interface FrameSource {
  /**
   * `keep`: the decoded frame may stay in the RAM cache after it is shown (false: its memory is reused at once). With
   * `fitWithin`, a frame over those limits comes reduced, as a decode request with them would answer.
   */
  decode(
    fileId: string,
    part: number,
    channels: readonly string[],
    requestId: string,
    keep: boolean,
    fitWithin?: FitWithin,
  ): Promise<LevelPlanes>;
  cancel(requestId: string): void;
  /** Bytes the frame's planes take once decoded (reduced by `factor`); null when the file cannot be decoded (not listed, damaged). */
  frameBytes(fileId: string, part: number, channels: readonly string[], factor: number): number | null;
  /** The power of two a frame comes reduced by within `fitWithin` (1: whole, or none given). */
  factor(fileId: string, part: number, fitWithin?: FitWithin): number;
}

export interface FrameRingStats {
  budgetBytes: number;
  /** Frames decoded (or being decoded) now, and their bytes. */
  frames: number;
  bytes: number;
  decoding: number;
  /** Since the host started: decodes started, frames handed out from the ring, decodes cancelled, frames that failed. */
  started: number;
  /** Of the decodes started, those that may stay in the RAM cache. */
  kept: number;
  served: number;
  cancelled: number;
  failed: number;
}

interface Entry {
  fileId: string;
  requestId: string;
  bytes: number;
  state: 'decoding' | 'ready' | 'failed';
  /** The reduction it is decoded at (1: level 0 whole). */
  factor: number;
  promise: Promise<LevelPlanes>;
  planes: LevelPlanes | null;
  /** Hand-outs not yet released: the ring's own lease is let go only after the last. */
  out: number;
  /** Left the window: release when the last hand-out is. */
  dropped: boolean;
}

/** How far past the cursor a request may be found in the plan (a frame the renderer skipped is let go with the rest). */
const CURSOR_SEARCH_FRAMES = 512;
/** Frames of a plan decoding at once: enough that every worker has chunks, few enough that the next frame comes first. */
const MAX_DECODING = 4;
/** Frames ahead of the cursor the ring holds or decodes at most (0.5 s at 24 fps): their memory comes round again soon. */
const MAX_AHEAD_FRAMES = 12;
/** Ready frames ahead from which a new decode may be kept for the next loop (at most half the window). */
const KEEP_LEAD_FRAMES = 6;

export interface FrameRingOptions {
  /** Frames decoding at once; the rest of the window fills as they finish. */
  maxDecoding?: number;
  maxAheadFrames?: number;
  keepLeadFrames?: number;
}

export class FrameRing {
  private plan: PlaybackPlan | null = null;
  private channelsKey = '';
  /** The plan's page limits, as a key: a new plan with other limits keeps nothing decoded at the old ones. */
  private fitKey = '';
  private cursor = 0;
  private readonly entries = new Map<string, Entry>();
  private nextRequest = 1;
  private readonly counters = { started: 0, kept: 0, served: 0, cancelled: 0, failed: 0 };
  private readonly maxDecoding: number;
  private readonly maxAheadFrames: number;
  private readonly keepLeadFrames: number;

  constructor(
    private readonly source: FrameSource,
    readonly budgetBytes: number,
    options: FrameRingOptions = {},
  ) {
    this.maxDecoding = options.maxDecoding ?? MAX_DECODING;
    this.maxAheadFrames = options.maxAheadFrames ?? MAX_AHEAD_FRAMES;
    this.keepLeadFrames = options.keepLeadFrames ?? KEEP_LEAD_FRAMES;
  }

  /** A new plan (null: playback stopped): decodes of frames it does not keep are cancelled, held frames let go. */
  setPlan(plan: PlaybackPlan | null): void {
    this.plan = plan && plan.fileIds.length ? plan : null;
    const key = this.plan ? channelsKey(this.plan.part, this.plan.channels) : '';
    const fit = this.plan?.fitWithin ? `${this.plan.fitWithin.maxSidePx}:${this.plan.fitWithin.maxPixels}` : '';
    if (key !== this.channelsKey || fit !== this.fitKey) {
      // other channels, part or limits: nothing held fits the new plan
      for (const entry of [...this.entries.values()]) this.drop(entry);
      this.channelsKey = key;
      this.fitKey = fit;
    }
    this.cursor = 0;
    this.fill();
  }

  /**
   * A request for a frame of the plan: the frame as the ring decodes or holds it (the caller releases it), or null
   * when the ring has nothing for it (another part or channels, another size than the request's `fitWithin` makes, or
   * a frame outside the window: decode it as usual). Either way the cursor moves past the frame.
   */
  take(fileId: string, part: number, channels: readonly string[], fitWithin?: FitWithin): Promise<LevelPlanes> | null {
    if (!this.plan || channelsKey(part, channels) !== this.channelsKey) return null;
    const held = this.entries.get(fileId);
    const entry = held && held.factor === this.source.factor(fileId, part, fitWithin) ? held : undefined;
    if (entry && entry.state !== 'failed') {
      entry.out++;
      this.counters.served++;
    }
    this.advancePast(fileId);
    if (!entry) return null;
    if (entry.state === 'failed') return entry.promise;
    return entry.promise.then(
      (planes) => this.handOut(entry, planes),
      (error: unknown) => {
        this.returned(entry);
        throw error;
      },
    );
  }

  /** Whether the ring holds or decodes this frame now. */
  holds(fileId: string): boolean {
    const entry = this.entries.get(fileId);
    return !!entry && entry.state !== 'failed';
  }

  get stats(): FrameRingStats {
    let bytes = 0;
    let decoding = 0;
    for (const e of this.entries.values()) {
      bytes += e.bytes;
      if (e.state === 'decoding') decoding++;
    }
    return { budgetBytes: this.budgetBytes, frames: this.entries.size, bytes, decoding, ...this.counters };
  }

  private advancePast(fileId: string): void {
    const ids = this.plan!.fileIds;
    const end = Math.min(ids.length, this.cursor + CURSOR_SEARCH_FRAMES);
    for (let i = this.cursor; i < end; i++) {
      if (ids[i] !== fileId) continue;
      this.cursor = i + 1;
      this.fill();
      return;
    }
  }

  /** The frames from the cursor that fit the budget and the most frames ahead (each once), at least the next one. */
  private window(): Map<string, number> {
    const wanted = new Map<string, number>();
    if (!this.plan) return wanted;
    const { fileIds, part, channels, fitWithin } = this.plan;
    let total = 0;
    for (let i = this.cursor; i < fileIds.length; i++) {
      const id = fileIds[i]!;
      if (wanted.has(id)) continue;
      if (wanted.size >= this.maxAheadFrames) break;
      const bytes = this.entries.get(id)?.bytes ?? this.source.frameBytes(id, part, channels, this.source.factor(id, part, fitWithin));
      if (bytes === null) continue;
      if (wanted.size > 0 && total + bytes > this.budgetBytes) break;
      wanted.set(id, bytes);
      total += bytes;
    }
    return wanted;
  }

  private fill(): void {
    const wanted = this.window();
    for (const entry of [...this.entries.values()]) if (!wanted.has(entry.fileId)) this.drop(entry);
    if (!this.plan) return;
    const { part, channels, fitWithin } = this.plan;
    let decoding = 0;
    let ready = 0;
    for (const e of this.entries.values())
      if (e.state === 'decoding') decoding++;
      else if (e.state === 'ready') ready++;
    // in plan order: the pool runs jobs of one priority oldest first. A few frames at a time (each one's chunks keep
    // every worker busy): the next frame is done soonest, and a new plan cancels little work already begun
    for (const [fileId, bytes] of wanted) {
      if (this.entries.has(fileId)) continue;
      if (decoding >= this.maxDecoding) break;
      decoding++;
      const requestId = `ring-${this.nextRequest++}`;
      // a window the budget makes small (large frames) asks for half of it ready
      const keep = ready >= Math.min(this.keepLeadFrames, Math.ceil(wanted.size / 2));
      const entry: Entry = {
        fileId,
        requestId,
        bytes,
        state: 'decoding',
        factor: this.source.factor(fileId, part, fitWithin),
        promise: this.source.decode(fileId, part, channels, requestId, keep, fitWithin),
        planes: null,
        out: 0,
        dropped: false,
      };
      this.counters.started++;
      if (keep) this.counters.kept++;
      this.entries.set(fileId, entry);
      entry.promise.then(
        (planes) => {
          entry.planes = planes;
          entry.state = 'ready';
          if (entry.dropped && entry.out === 0) planes.release();
          if (!entry.dropped) this.fill();
        },
        () => {
          entry.state = 'failed';
          if (!entry.dropped) this.counters.failed++;
          if (!entry.dropped) this.fill();
        },
      );
      // a rejection is read by whoever takes the frame; unread ones are expected (cancelled decodes)
      entry.promise.catch(() => {});
    }
  }

  private drop(entry: Entry): void {
    this.entries.delete(entry.fileId);
    entry.dropped = true;
    if (entry.state === 'decoding' && entry.out === 0) {
      this.counters.cancelled++;
      this.source.cancel(entry.requestId);
    } else if (entry.state === 'ready' && entry.out === 0) {
      entry.planes!.release();
    }
  }

  /** One hand-out of a held frame: its own release, so the ring's lease outlives every reader. */
  private handOut(entry: Entry, planes: LevelPlanes): LevelPlanes {
    let released = false;
    return {
      image: planes.image,
      source: planes.source,
      timings: planes.timings,
      release: () => {
        if (released) return;
        released = true;
        this.returned(entry);
      },
    };
  }

  private returned(entry: Entry): void {
    entry.out--;
    if (entry.dropped && entry.out === 0 && entry.state === 'ready') entry.planes!.release();
  }
}

/** Part and channels as one key, whatever order the channels were named in. */
function channelsKey(part: number, channels: readonly string[]): string {
  return `${part}\0${[...channels].sort().join('\x01')}`;
}
