// HostApi with the live images tev clients send: listed with every folder's files, decoded, thumbnailed, exported and
// described from their planes; everything else goes to the wrapped host. Their changes reach the page as file events.

import type { DecodedImage, ExportRequest, ExportResult, FileEntry, HostApi, HostEvent, PixelLease } from '../../contract/host-api.js';
import { exportImages } from '../export/export.js';
import type { LiveImage, LiveImages } from './live-images.js';
import { LIVE_FOLDER_ID, isLiveFileId, liveDecode, liveEntry, liveHeader, liveNameOf, liveThumbnail } from './live-files.js';

/** Changes of one image are told at most this often: a renderer sending hundreds of tiles a second must not flood the page. */
const CHANGE_EVERY_MS = 30;

export function withLiveImages(host: HostApi & Partial<PixelLease>, live: LiveImages): HostApi & Partial<PixelLease> {
  const listeners = new Set<(event: HostEvent) => void>();
  const emit = (event: HostEvent): void => {
    for (const l of listeners) {
      try {
        l(event);
      } catch {
        // one broken listener must not stop the others
      }
    }
  };
  /** name → when its last change was told, and the timer of one still to tell. */
  const told = new Map<string, { atMs: number; timer: ReturnType<typeof setTimeout> | null }>();
  const tellChanged = (image: LiveImage): void => {
    const t = told.get(image.name) ?? { atMs: 0, timer: null };
    told.set(image.name, t);
    if (t.timer) return;
    const send = (): void => {
      t.timer = null;
      t.atMs = performance.now();
      const now = live.get(image.name);
      if (now) emit({ type: 'files-changed', folderId: LIVE_FOLDER_ID, files: [liveEntry(now)] });
    };
    const waitMs = t.atMs + CHANGE_EVERY_MS - performance.now();
    if (waitMs <= 0) send();
    else t.timer = setTimeout(send, waitMs);
  };
  live.onChange((change) => {
    if (change.kind === 'added') emit({ type: 'files-added', folderId: LIVE_FOLDER_ID, files: [liveEntry(change.image)] });
    else if (change.kind === 'changed') tellChanged(change.image);
    else {
      const t = told.get(change.image.name);
      if (t?.timer) clearTimeout(t.timer);
      told.delete(change.image.name);
      emit({ type: 'files-removed', folderId: LIVE_FOLDER_ID, fileIds: [liveEntry(change.image).id] });
    }
  });

  const imageOf = (fileId: string): LiveImage => {
    const image = live.get(liveNameOf(fileId));
    if (!image) throw new Error(`${liveNameOf(fileId)} is no longer open: its tev client closed it`);
    return image;
  };
  const liveEntries = (): FileEntry[] => live.list().map(liveEntry);
  const decode = (request: { fileId: string; channels?: string[] }, share = false): DecodedImage =>
    liveDecode(imageOf(request.fileId), request.fileId, request.channels, share);
  const notLive = (ids: string[]): string[] => ids.filter((id) => !isLiveFileId(id));

  async function exportLive(request: ExportRequest): Promise<ExportResult> {
    return exportImages(request, {
      file: (fileId) => ({ entry: liveEntry(imageOf(fileId)), absPath: '' }),
      decode: async (fileId, _part, channels) => decode({ fileId, ...(channels ? { channels } : {}) }),
      thumbnail: async (fileId, longSidePx) => liveThumbnail(imageOf(fileId), fileId, longSidePx),
    });
  }

  return {
    getInfo: () => host.getInfo(),
    openFolder: (path, options) => host.openFolder(path, options),
    closeFolder: (folderId) => host.closeFolder(folderId),
    // whichever folder the grid shows, the live images are there with its files
    listFiles: async (folderId) => [...liveEntries(), ...(await host.listFiles(folderId))],
    listSequences: (folderId) => host.listSequences(folderId),
    getHeader: async (fileId) => (isLiveFileId(fileId) ? liveHeader(imageOf(fileId), fileId) : host.getHeader(fileId)),
    decodeImage: async (request) => (isLiveFileId(request.fileId) ? decode(request) : host.decodeImage(request)),
    ...(host.decodeImageLease
      ? {
          decodeImageLease: async (request) =>
            isLiveFileId(request.fileId) ? { image: decode(request, true), release: () => {} } : host.decodeImageLease!(request),
        }
      : {}),
    getThumbnail: async (request) =>
      isLiveFileId(request.fileId)
        ? liveThumbnail(imageOf(request.fileId), request.fileId, request.longSidePx)
        : host.getThumbnail(request),
    cancel: (requestId) => host.cancel(requestId),
    setVisible: (fileIds, currentFileId) =>
      host.setVisible(notLive(fileIds), currentFileId && isLiveFileId(currentFileId) ? null : currentFileId),
    setPlayback: (plan) => host.setPlayback(plan && { ...plan, fileIds: notLive(plan.fileIds) }),
    async exportImages(request) {
      const liveIds = request.fileIds.filter(isLiveFileId);
      // the wrapped host's checks (browser mode writes nothing) hold for live images too: it sees every request
      const fromFiles = await host.exportImages({ ...request, fileIds: notLive(request.fileIds) });
      if (liveIds.length === 0) return fromFiles;
      const fromLive = await exportLive({ ...request, fileIds: liveIds });
      const downloads = [...(fromFiles.downloads ?? []), ...(fromLive.downloads ?? [])];
      return {
        written: [...fromFiles.written, ...fromLive.written],
        ...(downloads.length ? { downloads } : {}),
        skipped: [...fromFiles.skipped, ...fromLive.skipped],
        failed: [...fromFiles.failed, ...fromLive.failed],
      };
    },
    readColourConfig: (path) => host.readColourConfig(path),
    onEvent(listener) {
      listeners.add(listener);
      const off = host.onEvent(listener);
      return () => {
        listeners.delete(listener);
        off();
      };
    },
  };
}
