// Diagnostics of the playing sequence: achieved fps, drops, per-stage medians and a timeline of the last frames, each
// a bar stacked by stage (queue, read, decompress, unpack, transfer, upload, build) against the frame interval.
import { useEffect, useRef } from 'react';
import type { FrameRecord, StageName } from '../playback/timeline.js';
import { STAGES } from '../playback/timeline.js';
import type { PlaybackReport } from './playback-report.js';

const COLOURS: Record<StageName, string> = {
  queueMs: '#666',
  readMs: '#5a5',
  decompressMs: '#39f',
  unpackMs: '#6cf',
  transferMs: '#c8c',
  uploadMs: '#fc6',
  buildMs: '#f96',
};
const OUTCOME_COLOURS = { dropped: '#e44', skipped: '#a33', missing: '#888', damaged: '#f0f' } as const;
const BARS = 96;

function TimelineChart({ records, fps }: { records: readonly FrameRecord[]; fps: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const cv = ref.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx) return;
    const recs = records.slice(-BARS);
    const intervalMs = 1000 / fps;
    ctx.fillStyle = '#111';
    ctx.fillRect(0, 0, cv.width, cv.height);
    const total = (r: FrameRecord): number => STAGES.reduce((s, k) => s + (Number.isNaN(r[k]) ? 0 : r[k]), 0);
    const maxMs = Math.max(intervalMs * 2, ...recs.map(total));
    const barW = cv.width / BARS;
    const y = (ms: number): number => cv.height - (ms / maxMs) * (cv.height - 12);
    recs.forEach((r, i) => {
      const x = i * barW;
      if (r.outcome !== 'shown') {
        // a frame not shown: a full-height mark in its outcome's colour
        ctx.fillStyle = OUTCOME_COLOURS[r.outcome];
        ctx.fillRect(x, 12, Math.max(1, barW - 1), cv.height - 12);
        return;
      }
      let acc = 0;
      for (const k of STAGES) {
        const v = r[k];
        if (Number.isNaN(v) || v <= 0) continue;
        ctx.fillStyle = COLOURS[k];
        ctx.fillRect(x, y(acc + v), Math.max(1, barW - 1), y(acc) - y(acc + v));
        acc += v;
      }
    });
    ctx.strokeStyle = '#fff';
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(0, y(intervalMs));
    ctx.lineTo(cv.width, y(intervalMs));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#aaa';
    ctx.fillText(`${maxMs.toFixed(0)} ms; dashed: ${intervalMs.toFixed(1)} ms a frame`, 4, 10);
  });
  const legend = STAGES.map((s) => s.replace(/Ms$/, '')).join(', ');
  return (
    <canvas
      ref={ref}
      className="playback-chart"
      width={288}
      height={90}
      role="img"
      data-bars={Math.min(BARS, records.length)}
      aria-label={`Playback timeline: each frame's time by stage (${legend}); red marks dropped frames, magenta damaged ones`}
    />
  );
}

export function PlaybackDiagnostics({ report, records }: { report: PlaybackReport; records: readonly FrameRecord[] }) {
  const m = report.medianMs;
  return (
    <>
      <h3>Playback</h3>
      <dl>
        <dt>Sequence</dt>
        <dd data-key="playback-sequence">{report.sequence}</dd>
        <dt>Frame rate</dt>
        <dd data-key="playback-fps" data-counted-at-ms={report.countedAtMs}>
          {report.achievedFps} fps achieved (<span data-key="playback-recent-fps">{report.recentFps}</span> in the last 2 s) of{' '}
          {report.targetFps}
        </dd>
        <dt>Frames</dt>
        <dd data-key="playback-frames" data-counted-at-ms={report.countedAtMs}>
          {report.shown} shown, <span data-key="playback-dropped">{report.dropped}</span> dropped ({report.skipped} not asked for in time,{' '}
          {report.shownLate} shown late), {report.missing} missing, {report.damaged} damaged; {report.fromRamCache} from the host's RAM
          cache
        </dd>
        {report.damagedFrames.length > 0 && (
          <>
            <dt>Damaged</dt>
            <dd data-key="playback-damaged">{report.damagedFrames.join(', ')}</dd>
          </>
        )}
        <dt>Per frame (median)</dt>
        <dd data-key="playback-stages">
          host {m.hostMs} ms (queue {m.queueMs}, read {m.readMs}, decompress {m.decompressMs}, unpack {m.unpackMs}), transfer {m.transferMs}
          , upload {m.uploadMs}, build GPU {m.buildMs}; request to ready {m.latencyMs} ms, ready {m.marginMs} ms before due
        </dd>
        <dt>Host frame ring</dt>
        <dd>
          {report.loading} loading, {report.uploading} uploading, {report.ready} ready; one load every {report.serviceMs} ms
        </dd>
      </dl>
      <TimelineChart records={records} fps={report.targetFps} />
    </>
  );
}
