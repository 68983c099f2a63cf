// The diagnostics panel: adapter, per-image stage timings, transfer, upload, GPU times, cache, path, frame chart.
import { useEffect, useRef, useState } from 'react';
import { diagnosticsReport } from './diagnostics-report.js';
import { PlaybackDiagnostics } from './PlaybackDiagnostics.js';
import { useApp, useController } from './context.js';

const fmt = (v: number | null | undefined, unit: string): string => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : `${v} ${unit}`);
const mb = (b: number): string => `${(b / 1e6).toFixed(2)} MB`;

function FrameChart({ cpu, gpu }: { cpu: (number | null)[]; gpu: (number | null)[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const cv = ref.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx) return;
    ctx.fillStyle = '#111'; ctx.fillRect(0, 0, cv.width, cv.height);
    const max = Math.max(1, ...cpu.map((v) => v ?? 0), ...gpu.map((v) => v ?? 0));
    const plot = (vals: (number | null)[], colour: string): void => {
      ctx.strokeStyle = colour; ctx.beginPath();
      vals.forEach((v, i) => { const x = (i / Math.max(1, vals.length - 1)) * cv.width, y = cv.height - ((v ?? 0) / max) * (cv.height - 2); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.stroke();
    };
    plot(cpu, '#6cf'); plot(gpu, '#fc6');
    ctx.fillStyle = '#aaa'; ctx.fillText(`${max.toFixed(2)} ms`, 4, 10);
  });
  return <canvas ref={ref} width={240} height={60} aria-label="Recent frames: CPU encode (blue) and tone-map GPU time (yellow)" role="img" />;
}

export function Diagnostics() {
  const c = useController();
  const open = useApp((s) => s.ui.diagnosticsOpen);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!open) return;
    const t = setInterval(() => tick((n) => n + 1), 250);
    const off = c.subscribe(() => tick((n) => n + 1));
    return () => { clearInterval(t); off(); };
  }, [open, c]);
  if (!open) return null;
  const r = diagnosticsReport(c);
  const e = r.engine;
  const exportJson = (): void => {
    const blob = new Blob([JSON.stringify(diagnosticsReport(c), null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob); a.download = 'exrview-diagnostics.json'; a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <section id="diagnostics" className="diagnostics" role="region" aria-label="Diagnostics">
      <h2>Diagnostics</h2>
      <dl>
        <dt>Path</dt><dd data-key="path">{r.path.toUpperCase()}: {r.pathReason}</dd>
        <dt>Transport</dt><dd>{r.transport}</dd>
        {e && e.path === 'gpu' && <>
          <dt>Adapter</dt><dd data-key="adapter">{e.adapter}</dd>
          <dt>Features</dt><dd className="features">{e.features.join(', ')}</dd>
          <dt>Timestamps</dt><dd>{e.timestamps}</dd>
          <dt>Uploader</dt><dd>{e.uploader}</dd>
          <dt>Last upload</dt><dd data-key="last-upload">{e.lastUpload.submits ? `${mb(e.lastUpload.bytes)} by ${e.lastUpload.path}: CPU copy ${fmt(+e.lastUpload.cpuCopyMs.toFixed(2), 'ms')}, until done ${fmt(+e.lastUpload.wallMs.toFixed(2), 'ms')}, ${fmt(+e.lastUpload.GBps.toFixed(2), 'GB/s')}, ${e.lastUpload.submits} submission${e.lastUpload.submits === 1 ? '' : 's'}` : 'none yet'}</dd>
          <dt>Tone-map path</dt><dd data-key="tonemap-path">{e.toneMapPath}: {e.toneMapPathReason}</dd>
          <dt>MIP GPU</dt><dd data-key="mip-gpu">{fmt(Number.isNaN(e.mipGpuMs) ? null : +e.mipGpuMs.toFixed(3), 'ms')}</dd>
          <dt>Tone-map GPU</dt><dd data-key="tonemap-gpu">{fmt(Number.isNaN(e.toneMapGpuMs) ? null : +e.toneMapGpuMs.toFixed(3), 'ms')}</dd>
          <dt>GPU cache</dt><dd data-key="cache">{e.cachedPlanes} planes and {e.cachedLayers} layers, {mb(e.cache.bytes)} of {mb(e.cache.budgetBytes)}, {e.cache.hits} hits, {e.cache.misses} misses, {e.cache.evictions} evictions</dd>
          <dt>Uploads</dt><dd data-key="uploads">{e.imageUploads} planes ({mb(e.imageUploadBytes)}), {e.thumbUploads} thumbnails ({mb(e.thumbUploadBytes)})</dd>
          <dt>Compare</dt><dd data-key="compare">{e.compare.reference ? `reference ${e.compare.reference}, layer ${e.compare.referencePinned ? 'pinned in the GPU cache' : 'not cached'}` : 'no reference'}; <span data-key="compare-loads">{e.compare.sourceLoads} loads, {e.compare.uploads} plane uploads</span> in all; since the last of them: <span data-key="compare-since">{e.compare.viewChangesSinceLoad} compare-view changes, {e.compare.displayChangesSinceLoad} display changes, {e.compare.compareFramesSinceLoad} compare frames</span>; {e.compare.compareFrames} compare frames and {e.compare.pairGroups} pair bind groups in all; {e.compare.reductions} reductions, last {fmt(Number.isNaN(e.compare.reduceGpuMs) ? null : +e.compare.reduceGpuMs.toFixed(3), 'ms')} GPU</dd>
          <dt>Device losses</dt><dd>{e.deviceLosses}{e.lastLossReason ? ` (${e.lastLossReason})` : ''}</dd>
        </>}
        {e && e.path === 'cpu' && <><dt>CPU render</dt><dd>{fmt(e.lastRenderMs, 'ms')}</dd></>}
        {r.image && <>
          <dt>Image</dt><dd data-key="image">{r.image.name} (host: {r.image.hostSource}, GPU: {r.image.gpuSource})</dd>
          <dt>Host read / decode</dt><dd data-key="host">read {fmt(r.image.readMs, 'ms')}, decompress {fmt(r.image.decompressMs, 'ms')}, unpack {fmt(r.image.unpackMs, 'ms')}, queue {fmt(r.image.queueMs, 'ms')}, host {fmt(r.image.hostMs, 'ms')}</dd>
          <dt>Host decodes</dt><dd data-key="host-decodes">{r.image.hostDecodes} of this image, {r.image.hostRamFetches} layer fetches from the RAM cache</dd>
          <dt>Planes uploaded</dt><dd data-key="planes-uploaded">{r.image.planesUploaded.length ? r.image.planesUploaded.join(', ') : 'none (GPU cache)'}</dd>
          <dt>Transfer</dt><dd data-key="transfer">{mb(r.image.transferBytes)} in {fmt(r.image.transferMs, 'ms')}</dd>
          <dt>GPU upload</dt><dd data-key="upload">{mb(r.image.uploadBytes)}, calls {fmt(r.image.uploadCallMs, 'ms')}, until done {fmt(r.image.uploadWallMs, 'ms')}, {fmt(r.image.uploadGBps, 'GB/s')}</dd>
          <dt>Show</dt><dd data-key="show">{fmt(r.image.showMs, 'ms')}</dd>
        </>}
        <dt>Frames</dt><dd data-key="frames">{r.frames?.count ?? 0}</dd>
      </dl>
      {r.frames && <FrameChart cpu={r.frames.cpuMs} gpu={r.frames.gpuMs} />}
      {r.playback && <PlaybackDiagnostics report={r.playback} records={c.player.records} />}
      <button type="button" onClick={exportJson}>Export JSON</button>
    </section>
  );
}
