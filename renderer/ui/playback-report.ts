// The playback figures as a plain object: shown by the diagnostics panel and exported with its JSON.
import type { Player } from '../app/player.js';

const round = (v: number, d = 2): number | null => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null);

/** A frame rate as the player bar and Diagnostics both show it. */
export const fpsFigure = (fps: number): number | null => round(fps, 1);

export function playbackReport(p: Player) {
  const s = p.summary();
  const q = p.open;
  if (!s || !q) return null;
  const medianMs = Object.fromEntries(Object.entries(s.medianMs).map(([k, v]) => [k, round(v)])) as Record<
    keyof typeof s.medianMs,
    number | null
  >;
  const flight = p.inFlight;
  return {
    sequence: `${q.relativePattern} ${q.firstFrame}-${q.lastFrame}, ${q.widthPx}x${q.heightPx}`,
    targetFps: s.targetFps,
    achievedFps: fpsFigure(s.achievedFps),
    recentFps: fpsFigure(s.recentFps),
    // how far into the playback these counts are: the player bar's are the same when this is
    countedAtMs: Math.round(s.elapsedMs),
    shown: s.shown,
    dropped: s.dropped,
    skipped: s.skipped,
    shownLate: s.shownLate,
    missing: s.missing,
    damaged: s.damaged,
    damagedFrames: p.damagedFrames,
    fromRamCache: s.fromRamCache,
    medianMs,
    ...flight,
    serviceMs: round(p.serviceMs, 1),
    lastFrames: p.records.slice(-48).map((r) => ({
      frame: r.frame,
      outcome: r.outcome,
      source: r.source,
      hostMs: round(r.hostMs),
      transferMs: round(r.transferMs),
      uploadMs: round(r.uploadMs),
      reason: r.reason || undefined,
    })),
  };
}

export type PlaybackReport = NonNullable<ReturnType<typeof playbackReport>>;
