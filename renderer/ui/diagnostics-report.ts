// The diagnostics figures as one plain object: shown by the panel and exported as JSON.
import type { Controller } from '../app/controller.js';
import { playbackReport } from './playback-report.js';

const round = (v: number, d = 2): number | null => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null);

export function diagnosticsReport(c: Controller) {
  const stats = c.engine?.stats() ?? null;
  const last = c.records[c.records.length - 1] ?? null;
  // the upload figures of the image on screen: from the show that uploaded it
  const up = last && ([...c.records].reverse().find((r) => r.fileId === last.fileId && r.show.source === 'uploaded')?.show ?? last.show);
  const uploadGBps = up && up.source === 'uploaded' && up.uploadWallMs > 0 ? up.uploadBytes / 1e9 / (up.uploadWallMs / 1e3) : NaN;
  const frames = c.engine?.frames;
  return {
    path: c.store.getState().ui.path,
    pathReason: c.store.getState().ui.pathReason,
    transport: c.host.transport,
    engine: stats,
    image: last && {
      name: last.name,
      hostSource: last.hostSource,
      readMs: round(last.host?.readMs ?? NaN), decompressMs: round(last.host?.decompressMs ?? NaN), unpackMs: round(last.host?.unpackMs ?? NaN),
      queueMs: round(last.host?.queueMs ?? NaN), hostMs: round(last.host?.hostMs ?? NaN), bytesRead: last.host?.bytesRead ?? null,
      transferBytes: last.transferBytes, transferMs: round(last.transferMs),
      gpuSource: up!.source, uploadBytes: up!.uploadBytes, uploadCallMs: round(up!.uploadCallMs), uploadWallMs: round(up!.uploadWallMs), uploadGBps: round(uploadGBps, 3),
      showMs: round(up!.showMs),
      // only what is shown moves: the planes the last show uploaded, and how often this image was decoded on the host
      planesUploaded: last.show.planesUploaded,
      hostDecodes: c.records.filter((r) => r.fileId === last.fileId && r.hostSource === 'decode').length,
      hostRamFetches: c.records.filter((r) => r.fileId === last.fileId && r.hostSource === 'ram-cache').length,
    },
    recentImages: c.records.slice(-20).map((r) => ({ name: r.name, source: r.show.source, hostMs: round(r.host?.hostMs ?? NaN), transferMs: round(r.transferMs), uploadWallMs: round(r.show.uploadWallMs), showMs: round(r.show.showMs) })),
    frames: frames ? { count: frames.count, cpuMs: frames.ordered(frames.cpuMs).map((v) => round(v, 3)), gpuMs: frames.ordered(frames.gpuMs).map((v) => round(v, 3)) } : null,
    thumbnailsShown: c.thumbsShown,
    playback: playbackReport(c.player),
  };
}
