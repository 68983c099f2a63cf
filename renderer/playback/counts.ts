// The one count of a playback: its figures as of the last step settled, the same numbers for the player bar and for
// Diagnostics whenever each is drawn (neither computes its own over a window of its own).
import type { FrameTimeline, PlaybackSummary } from './timeline.js';

export class PlaybackCounts {
  /** Bumped whenever a count changes; the summary is computed once per version, when asked for. */
  version = 0;
  private atMs = 0;
  private cached: { version: number; summary: PlaybackSummary } | null = null;

  constructor(private readonly timeline: FrameTimeline) {}

  /** A step settled, playback started or ended, or a frame was marked damaged, at `nowMs`. */
  changed(nowMs: number): void {
    this.version++;
    this.atMs = nowMs;
  }

  summary(): PlaybackSummary {
    if (this.cached?.version !== this.version) this.cached = { version: this.version, summary: this.timeline.summary(this.atMs) };
    return this.cached.summary;
  }
}
