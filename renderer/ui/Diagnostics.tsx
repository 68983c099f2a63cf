// The diagnostics panel: where the last load's time went (transfer against compute), frames over time, the figures
// behind them, and the adapter's details folded away.
import { useEffect, useState } from 'react';
import type { Controller } from '../app/controller.js';
import { diagnosticsReport, type DiagnosticsReport } from './diagnostics-report.js';
import { fmtMB, fmtMs, fmtRate, fmtRateOf } from './diagnostics-format.js';
import { FrameTimeChart } from './FrameTimeChart.js';
import { PlaybackDiagnostics } from './PlaybackDiagnostics.js';
import { StageTimeline } from './StageTimeline.js';
import { useApp, useController } from './context.js';

type ImageFigures = NonNullable<DiagnosticsReport['image']>;
type GpuStats = Extract<NonNullable<DiagnosticsReport['engine']>, { path: 'gpu' }>;

const subjectOf = (im: ImageFigures): string =>
  [im.name, im.partName, im.layer !== null ? `layer ${im.layer}` : null].filter(Boolean).join(' · ');

/** The last load's timeline, or what stands in for it: nothing loaded yet, or the image on its way. */
function LastLoad({ image }: { image: ImageFigures | null }) {
  const currentId = useApp((s) => s.image.currentFileId);
  const loading = useApp((s) => s.image.loading);
  const error = useApp((s) => s.image.error);
  const currentName = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.name ?? null);
  // another image on its way: the figures shown must not be mistaken for its own
  const stale = !image || (currentId !== null && image.fileId !== currentId) || loading;
  if (stale) {
    const waiting = currentName !== null && (loading || !error) ? `${currentName}: computing…` : null;
    const failed = currentName !== null && error ? `${currentName}: not loaded (${error})` : null;
    return (
      <p className="timeline-empty" data-key="timeline-status">
        {waiting ?? failed ?? 'no load yet: select an image'}
      </p>
    );
  }
  const note =
    image.onScreenFrom === 'gpu-cache'
      ? 'already on the GPU: these are the figures of the load that brought it'
      : image.hostSource === 'ram-cache'
        ? "from the host's RAM cache (no disk read or decode)"
        : '';
  return <StageTimeline stages={image.stages} subject={subjectOf(image)} note={note} onScreenMs={image.showMs} />;
}

/** Where the bytes of the image on screen went, and what the host did for them. */
function LoadFigures({ im }: { im: ImageFigures }) {
  return (
    <>
      <dt>Host</dt>
      <dd data-key="host">
        {fmtMs(im.hostMs)} from request to reply ({im.hostSource}); read {fmtMs(im.readMs)}, decompress {fmtMs(im.decompressMs)}, unpack{' '}
        {fmtMs(im.unpackMs)}, queue {fmtMs(im.queueMs)}
      </dd>
      <dt>Host decodes</dt>
      <dd data-key="host-decodes">
        {im.hostDecodes} of this image, {im.hostRamFetches} layer fetches from the RAM cache
      </dd>
      <dt>Transfer</dt>
      <dd data-key="transfer">
        {fmtMB(im.transferBytes)} in {fmtMs(im.transferMs)}, {fmtRateOf(im.transferBytes, im.transferMs)}
      </dd>
      <dt>GPU upload</dt>
      <dd data-key="upload">
        {fmtMB(im.uploadBytes)}, calls {fmtMs(im.uploadCallMs)}, until done {fmtMs(im.uploadWallMs)},{' '}
        {fmtRateOf(im.uploadBytes, im.uploadWallMs)}
      </dd>
      <dt>Planes uploaded</dt>
      <dd data-key="planes-uploaded">{im.planesUploaded.length ? im.planesUploaded.join(', ') : 'none (GPU cache)'}</dd>
    </>
  );
}

function GpuFigures({ e }: { e: GpuStats }) {
  const u = e.lastUpload;
  const ms = (v: number): string => fmtMs(Number.isNaN(v) ? null : v);
  return (
    <>
      <dt>Last upload</dt>
      <dd data-key="last-upload">
        {u.submits
          ? `${fmtMB(u.bytes)} by ${u.path}: CPU copy ${ms(u.cpuCopyMs)}, until done ${ms(u.wallMs)}, ${fmtRate(u.GBps * 1e9)}, ${u.submits} submission${u.submits === 1 ? '' : 's'}`
          : 'none yet'}
      </dd>
      <dt>GPU passes</dt>
      <dd>
        MIP build <span data-key="mip-gpu">{ms(e.mipGpuMs)}</span>, tone-map <span data-key="tonemap-gpu">{ms(e.toneMapGpuMs)}</span> (last
        frame)
      </dd>
      <dt>GPU cache</dt>
      <dd data-key="cache">
        {e.cachedPlanes} planes and {e.cachedLayers} layers, {fmtMB(e.cache.bytes)} of {fmtMB(e.cache.budgetBytes)}, {e.cache.hits} hits,{' '}
        {e.cache.misses} misses, {e.cache.evictions} evictions
      </dd>
      <dt>GPU limits</dt>
      <dd data-key="gpu-limits">
        largest texture {e.maxTextureSidePx} px a side, buffers up to {fmtMB(e.maxBufferBytes)}; {e.refusals} image
        {e.refusals === 1 ? '' : 's'} refused{e.lastRefusal ? ` (last: ${e.lastRefusal})` : ''}
      </dd>
      <dt>Uploads</dt>
      <dd data-key="uploads">
        {e.imageUploads} planes ({fmtMB(e.imageUploadBytes)}), {e.thumbUploads} thumbnails ({fmtMB(e.thumbUploadBytes)})
      </dd>
      <dt>Compare</dt>
      <dd data-key="compare">
        {e.compare.reference
          ? `reference ${e.compare.reference}, layer ${e.compare.referencePinned ? 'pinned in the GPU cache' : 'not cached'}`
          : 'no reference'}
        ;{' '}
        <span data-key="compare-loads">
          {e.compare.sourceLoads} loads, {e.compare.uploads} plane uploads
        </span>{' '}
        in all; since the last of them:{' '}
        <span data-key="compare-since">
          {e.compare.viewChangesSinceLoad} compare-view changes, {e.compare.displayChangesSinceLoad} display changes,{' '}
          {e.compare.compareFramesSinceLoad} compare frames
        </span>
        ; {e.compare.compareFrames} compare frames and {e.compare.pairGroups} pair bind groups in all; {e.compare.reductions} reductions,
        last {ms(e.compare.reduceGpuMs)} GPU
      </dd>
      <dt>Device losses</dt>
      <dd>
        {e.deviceLosses}
        {e.lastLossReason ? ` (${e.lastLossReason})` : ''}
      </dd>
    </>
  );
}

/** What the adapter is and can do: wanted when reporting a problem, not while looking at images. */
function AdapterDetails({ e }: { e: GpuStats }) {
  return (
    <details className="adapter-details">
      <summary>
        Adapter: <span data-key="adapter">{e.adapter}</span>
      </summary>
      <dl>
        <dt>Tone-map path</dt>
        <dd data-key="tonemap-path">
          {e.toneMapPath}: {e.toneMapPathReason}
        </dd>
        <dt>Uploader</dt>
        <dd>{e.uploader}</dd>
        <dt>Timestamps</dt>
        <dd>{e.timestamps}</dd>
        <dt>Features</dt>
        <dd className="features" data-key="features">
          {e.features.join(', ')}
        </dd>
      </dl>
    </details>
  );
}

function exportJson(c: Controller): void {
  const blob = new Blob([JSON.stringify(diagnosticsReport(c), null, 2)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'exrview-diagnostics.json';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function Diagnostics() {
  const c = useController();
  const open = useApp((s) => s.ui.diagnosticsOpen);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!open) return;
    const t = setInterval(() => tick((n) => n + 1), 250);
    const off = c.subscribe(() => tick((n) => n + 1));
    return () => {
      clearInterval(t);
      off();
    };
  }, [open, c]);
  if (!open) return null;
  const r = diagnosticsReport(c);
  const e = r.engine;
  return (
    <section id="diagnostics" className="diagnostics panel" role="region" aria-label="Diagnostics">
      <header className="diagnostics-head">
        <h2>Diagnostics</h2>
        <span className={`path path-${r.path}`} data-key="path" title={r.pathReason}>
          {r.path.toUpperCase()}, {r.transport === 'http' ? 'browser' : 'desktop'}
        </span>
        <button type="button" onClick={() => exportJson(c)} title="Save these figures as a JSON file, for a bug report">
          Export JSON
        </button>
      </header>
      <h3>Last load</h3>
      <LastLoad image={r.image} />
      <h3>Frames</h3>
      {r.frames && r.frames.count > 0 ? (
        <FrameTimeChart cpuMs={r.frames.cpuMs} gpuMs={r.frames.gpuMs} />
      ) : (
        <p className="timeline-empty">no frames drawn yet</p>
      )}
      {r.playback && <PlaybackDiagnostics report={r.playback} records={c.player.records} />}
      <h3>Figures</h3>
      <dl className="figures">
        <dt>Path</dt>
        <dd>
          {r.path.toUpperCase()}: {r.pathReason}; transport {r.transport}
        </dd>
        {r.decodeTier && (
          <>
            <dt>Decode tier</dt>
            <dd data-key="decode-tier">
              {r.decodeTier.tier}
              {r.decodeTier.whyNotAbove && `: ${r.decodeTier.whyNotAbove}`}
            </dd>
          </>
        )}
        {r.image && <LoadFigures im={r.image} />}
        {e?.path === 'gpu' && <GpuFigures e={e} />}
        {e?.path === 'cpu' && (
          <>
            <dt>CPU render</dt>
            <dd>{fmtMs(e.lastRenderMs)}</dd>
          </>
        )}
        <dt>Frames drawn</dt>
        <dd data-key="frames">{r.frames?.count ?? 0}</dd>
      </dl>
      {e?.path === 'gpu' && <AdapterDetails e={e} />}
    </section>
  );
}
