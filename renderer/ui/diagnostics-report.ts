// The diagnostics figures as one plain object: shown by the panel and exported as JSON; the last load's stage timeline.
import type { Controller, ImageRecord } from '../app/controller.js';
import type { StageTimingsMs } from '../host-client/api-types.js';
import { playbackReport } from './playback-report.js';

const round = (v: number, d = 2): number | null => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null);

/** Moving bytes (disk, renderer, GPU), computing on them, or waiting: the split the timeline exists to show. */
export type StageKind = 'waiting' | 'moving' | 'computing';

export interface TimelineStage {
  key: 'queue' | 'read' | 'decompress' | 'unpack' | 'transfer' | 'upload' | 'mip' | 'toneMap';
  label: string;
  kind: StageKind;
  /** null: not measured (no timestamp queries, the CPU path) or not known yet (the upload's completion). */
  ms: number | null;
  /** Bytes the stage moved, where it moves bytes. */
  bytes?: number;
}

/** The figures of one load, wherever they were measured. */
export interface LoadFigures {
  host: StageTimingsMs | null;
  transferBytes: number;
  transferMs: number;
  /** Null on the CPU path, where nothing goes to a GPU. */
  gpu: { uploadBytes: number; uploadWallMs: number; mipGpuMs: number; toneMapGpuMs: number } | null;
}

const known = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);

/** The stages a load went through, in the order they run: host queue and decode, transfer to the renderer, GPU. */
export function loadStages(f: LoadFigures): TimelineStage[] {
  const h = f.host;
  const stages: TimelineStage[] = [
    { key: 'queue', label: 'decoder queue', kind: 'waiting', ms: known(h?.queueMs) },
    { key: 'read', label: 'disk read', kind: 'moving', ms: known(h?.readMs), ...(h ? { bytes: h.bytesRead } : {}) },
    { key: 'decompress', label: 'decompress', kind: 'computing', ms: known(h?.decompressMs) },
    { key: 'unpack', label: 'unpack', kind: 'computing', ms: known(h?.unpackMs) },
    { key: 'transfer', label: 'transfer to renderer', kind: 'moving', ms: known(f.transferMs), bytes: f.transferBytes },
  ];
  if (f.gpu) {
    stages.push(
      { key: 'upload', label: 'GPU upload', kind: 'moving', ms: known(f.gpu.uploadWallMs), bytes: f.gpu.uploadBytes },
      { key: 'mip', label: 'GPU MIP build', kind: 'computing', ms: known(f.gpu.mipGpuMs) },
      { key: 'toneMap', label: 'GPU tone-map', kind: 'computing', ms: known(f.gpu.toneMapGpuMs) },
    );
  }
  return stages;
}

/** The sum of the measured stages' times, and how much of it moved bytes and how much computed. */
export function stageTotals(stages: readonly TimelineStage[]): {
  totalMs: number;
  movingMs: number;
  computingMs: number;
  waitingMs: number;
} {
  const sum = (kind?: StageKind): number => stages.reduce((s, st) => s + (st.ms !== null && (!kind || st.kind === kind) ? st.ms : 0), 0);
  return { totalMs: sum(), movingMs: sum('moving'), computingMs: sum('computing'), waitingMs: sum('waiting') };
}

/** "part 1 (beauty)" and "diffuse" / "(base)": where the record's image sits in its file, as the pickers name it. */
function whereInFile(c: Controller, rec: ImageRecord): { part: number; partName: string | null; layer: string | null } {
  const part = Number(rec.show.key.slice(rec.show.key.lastIndexOf('#') + 1)) || 0;
  const s = c.store.getState();
  const summary = s.library.files.find((f) => f.id === rec.fileId)?.summary;
  const p = summary?.parts[part];
  const partName = summary && summary.parts.length > 1 ? p?.name || `part ${part}` : null;
  // the store holds the layer on screen, which is the record's unless another image is loading
  const layer =
    s.image.currentFileId === rec.fileId && s.image.part === part
      ? (p?.layers.find((l) => l.name === s.image.layer) ?? p?.layers[0])
      : undefined;
  return { part, partName, layer: layer ? layer.name || '(base)' : null };
}

export function diagnosticsReport(c: Controller) {
  const stats = c.engine?.stats() ?? null;
  const last = c.records[c.records.length - 1] ?? null;
  // the upload figures of the image on screen: from the show that uploaded it
  const up = last && ([...c.records].reverse().find((r) => r.fileId === last.fileId && r.show.source === 'uploaded')?.show ?? last.show);
  const uploadGBps = up && up.source === 'uploaded' && up.uploadWallMs > 0 ? up.uploadBytes / 1e9 / (up.uploadWallMs / 1e3) : NaN;
  const frames = c.engine?.frames;
  const stages =
    last &&
    loadStages({
      host: last.host,
      transferBytes: last.transferBytes,
      transferMs: last.transferMs,
      gpu:
        stats?.path === 'gpu' && up
          ? { uploadBytes: up.uploadBytes, uploadWallMs: up.uploadWallMs, mipGpuMs: stats.mipGpuMs, toneMapGpuMs: stats.toneMapGpuMs }
          : null,
    }).map((st) => ({ ...st, ms: st.ms === null ? null : round(st.ms, 3) }));
  return {
    path: c.store.getState().ui.path,
    pathReason: c.store.getState().ui.pathReason,
    transport: c.host.transport,
    /** The host's decode kernels (native, wasm, typescript) and why the tier above is off; null before the host answers. */
    decodeTier: c.info?.decodeTier ?? null,
    engine: stats,
    image: last && {
      name: last.name,
      fileId: last.fileId,
      ...whereInFile(c, last),
      hostSource: last.hostSource,
      /** 'gpu-cache': the last show moved nothing; its figures are those of the load that brought the image. */
      onScreenFrom: last.show.source,
      readMs: round(last.host?.readMs ?? NaN),
      decompressMs: round(last.host?.decompressMs ?? NaN),
      unpackMs: round(last.host?.unpackMs ?? NaN),
      queueMs: round(last.host?.queueMs ?? NaN),
      hostMs: round(last.host?.hostMs ?? NaN),
      bytesRead: last.host?.bytesRead ?? null,
      transferBytes: last.transferBytes,
      transferMs: round(last.transferMs),
      gpuSource: up!.source,
      uploadBytes: up!.uploadBytes,
      uploadCallMs: round(up!.uploadCallMs),
      uploadWallMs: round(up!.uploadWallMs),
      uploadGBps: Number.isFinite(uploadGBps) ? Number(uploadGBps.toPrecision(3)) : null,
      showMs: round(up!.showMs),
      // only what is shown moves: the planes the last show uploaded, and how often this image was decoded on the host
      planesUploaded: last.show.planesUploaded,
      hostDecodes: c.records.filter((r) => r.fileId === last.fileId && r.hostSource === 'decode').length,
      hostRamFetches: c.records.filter((r) => r.fileId === last.fileId && r.hostSource === 'ram-cache').length,
      /** The last load, stage by stage (ms); a GPU-cache hit shows the load that brought the image. */
      stages: stages!,
    },
    recentImages: c.records.slice(-20).map((r) => ({
      name: r.name,
      source: r.show.source,
      hostMs: round(r.host?.hostMs ?? NaN),
      transferMs: round(r.transferMs),
      uploadWallMs: round(r.show.uploadWallMs),
      showMs: round(r.show.showMs),
    })),
    frames: frames
      ? {
          count: frames.count,
          cpuMs: frames.ordered(frames.cpuMs).map((v) => round(v, 3)),
          gpuMs: frames.ordered(frames.gpuMs).map((v) => round(v, 3)),
        }
      : null,
    thumbnailsShown: c.thumbsShown,
    playback: playbackReport(c.player),
  };
}

export type DiagnosticsReport = ReturnType<typeof diagnosticsReport>;
