// HostApi with the live images tev clients send: listed with every folder's files, decoded, thumbnailed, exported and
// described from their planes; everything else goes to the wrapped host. Their changes reach the page as file events.

import type {
  DecodedImage,
  ExportRequest,
  ExportResult,
  FileEntry,
  HostApi,
  HostEvent,
  PixelLease,
  PixelRegion,
} from '../../contract/host-api.js';
import { unionRegion } from '../../common/pixel-region.js';
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
  /** name → when its last change was told, the timer of one still to tell, and what changed since (regions' box, or all). */
  const told = new Map<string, { atMs: number; timer: ReturnType<typeof setTimeout> | null; whole: boolean; box: PixelRegion | null }>();
  const tellChanged = (image: LiveImage, region: PixelRegion | undefined): void => {
    const t = told.get(image.name) ?? { atMs: 0, timer: null, whole: false, box: null };
    told.set(image.name, t);
    if (region) t.box = t.box ? unionRegion(t.box, region) : region;
    else t.whole = true;
    if (t.timer) return;
    const send = (): void => {
      t.timer = null;
      t.atMs = performance.now();
      const now = live.get(image.name);
      const { whole, box } = t;
      t.whole = false;
      t.box = null;
      if (!now) return;
      // a change of tiles alone: the page fetches their box, not the whole image again
      if (whole || !box) emit({ type: 'files-changed', folderId: LIVE_FOLDER_ID, files: [liveEntry(now)] });
      else emit({ type: 'live-region', folderId: LIVE_FOLDER_ID, file: liveEntry(now), region: box });
    };
    const waitMs = t.atMs + CHANGE_EVERY_MS - performance.now();
    if (waitMs <= 0) send();
    else t.timer = setTimeout(send, waitMs);
  };
  live.onChange((change) => {
    const fileId = liveEntry(change.image).id;
    if (change.kind === 'added') emit({ type: 'files-added', folderId: LIVE_FOLDER_ID, files: [liveEntry(change.image)] });
    else if (change.kind === 'changed') tellChanged(change.image, change.region);
    else if (change.kind === 'vectors')
      emit({ type: 'live-vectors', folderId: LIVE_FOLDER_ID, fileId, commands: change.image.vectorCommands });
    else {
      const t = told.get(change.image.name);
      if (t?.timer) clearTimeout(t.timer);
      told.delete(change.image.name);
      emit({ type: 'files-removed', folderId: LIVE_FOLDER_ID, fileIds: [fileId] });
    }
    if (change.kind !== 'removed' && change.grabFocus) emit({ type: 'live-focus', folderId: LIVE_FOLDER_ID, fileId });
  });

  const imageOf = (fileId: string): LiveImage => {
    const image = live.get(liveNameOf(fileId));
    if (!image) throw new Error(`${liveNameOf(fileId)} is no longer open: its tev client closed it`);
    return image;
  };
  const liveEntries = (): FileEntry[] => live.list().map(liveEntry);
  const decode = (request: { fileId: string; channels?: string[]; region?: PixelRegion }, share = false): DecodedImage =>
    liveDecode(imageOf(request.fileId), request.fileId, request.channels, share, request.region);
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
    deepSamples: async (request) => {
      if (isLiveFileId(request.fileId)) throw new Error(`${liveNameOf(request.fileId)} is a live image: it has no deep samples`);
      return host.deepSamples(request);
    },
    levelStatistics: async (request) => {
      if (isLiveFileId(request.fileId))
        throw new Error(`${liveNameOf(request.fileId)} is a live image: its statistics are measured where it is shown`);
      return host.levelStatistics(request);
    },
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
