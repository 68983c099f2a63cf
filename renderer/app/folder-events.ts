// The host's folder events into the store and the parts they concern: files added, changed or removed, thumbnail
// progress, a folder's trouble (polling included) and its sequences listed again.
import type { FileEntry, HostApi, HostEvent, PixelRegion, VectorCommand } from '../host-client/api-types.js';
import type { AppStore, StoreActions } from '../state/store.js';
import { pollingMessage } from '../model/polling-note.js';
import type { ThumbnailRequests } from './thumbnail-requests.js';

export interface FolderEventDeps {
  store: AppStore;
  actions: StoreActions;
  /** Drops a file's textures on the GPU (the engine, once started). */
  forgetTextures(fileId: string): void;
  /** What is known of each file's thumbnail (its failure, its damage, the request made): dropped when the file changes. */
  thumbFailures: Map<string, string>;
  thumbDamage: Map<string, unknown>;
  thumbs: Pick<ThumbnailRequests, 'forget'>;
  /** The file on screen changed: shown again in place. */
  refreshShown(): void;
  /** The compare reference changed: fetched again. */
  resyncReference(): void;
  /** The files the grid shows now. */
  visibleFileIds(): readonly string[];
  /** Asks again for the thumbnails of the visible files. */
  requestVisibleThumbnails(): void;
  loadSequences(folderId: string): void;
  /** A live image on screen changed in a region only: that crop is fetched and patched in. */
  refreshRegion(fileId: string, region: PixelRegion): void;
  /** A live image's vector graphics (the whole list now). */
  setVectorGraphics(fileId: string, commands: VectorCommand[]): void;
  /** A tev client asked for this image to be shown. */
  selectFile(fileId: string): void;
}

/** A live image's tiles land many times a second: the grid's thumbnails of it are asked for again at most this often. */
const LIVE_THUMBNAIL_EVERY_MS = 500;
/** Per page: the live images whose thumbnails wait to be asked for again. */
const liveThumbnailsDue = new WeakMap<FolderEventDeps, Set<string>>();

/** Routes the host's events (see handleFolderEvent). */
export function installFolderEvents(api: Pick<HostApi, 'onEvent'>, deps: FolderEventDeps): void {
  api.onEvent((ev) => handleFolderEvent(ev, deps));
}

/** A host event to the store first (what it says of the file holds whatever a refresh meets), then to the parts. */
export function handleFolderEvent(ev: HostEvent, deps: FolderEventDeps): void {
  if (ev.type === 'files-added' || ev.type === 'files-changed') deps.actions.upsertFiles(ev.files);
  if (ev.type === 'files-changed') filesChanged(ev.files, deps);
  else if (ev.type === 'files-removed') deps.actions.removeFiles(ev.fileIds);
  else if (ev.type === 'thumbnail-progress') deps.actions.setThumbProgress(ev.done, ev.total);
  else if (ev.type === 'folder-error') folderError(ev.folderId, ev.message, deps);
  else if (ev.type === 'sequences-changed' && ev.folderId === deps.store.getState().library.folderId) deps.loadSequences(ev.folderId);
  else if (ev.type === 'live-region') liveRegion(ev.file, ev.region, deps);
  else if (ev.type === 'live-vectors') deps.setVectorGraphics(ev.fileId, ev.commands);
  else if (ev.type === 'live-focus') deps.selectFile(ev.fileId);
}

/**
 * A live image's tiles changed: the one on screen takes the crop in place; other textures of it go; its thumbnail is
 * asked for again once the updates pause or every LIVE_THUMBNAIL_EVERY_MS, not per update.
 */
function liveRegion(file: FileEntry, region: PixelRegion, deps: FolderEventDeps): void {
  deps.actions.upsertFiles([file]);
  const s = deps.store.getState();
  if (file.id === s.image.currentFileId) deps.refreshRegion(file.id, region);
  else deps.forgetTextures(file.id);
  if (s.compare.reference?.file.id === file.id) queueMicrotask(() => deps.resyncReference());
  const due = liveThumbnailsDue.get(deps);
  if (due) {
    due.add(file.id);
    return;
  }
  const ids = new Set([file.id]);
  liveThumbnailsDue.set(deps, ids);
  setTimeout(() => {
    liveThumbnailsDue.delete(deps);
    for (const id of ids) {
      deps.thumbFailures.delete(id);
      deps.thumbDamage.delete(id);
      deps.thumbs.forget(id);
    }
    const visible = deps.visibleFileIds();
    if ([...ids].some((id) => visible.includes(id))) deps.requestVisibleThumbnails();
  }, LIVE_THUMBNAIL_EVERY_MS);
}

/**
 * Files rewritten on disk (or finished being written): their textures and thumbnails go; the one on screen is shown
 * again (a file still being written is retried by the host, which reports it here once readable).
 */
function filesChanged(files: FileEntry[], deps: FolderEventDeps): void {
  const current = deps.store.getState().image.currentFileId;
  for (const f of files) {
    // the one on screen is forgotten by its refresh, once a show under way has landed (see refreshChanged)
    if (f.id !== current) deps.forgetTextures(f.id);
    deps.thumbFailures.delete(f.id);
    deps.thumbDamage.delete(f.id);
    deps.thumbs.forget(f.id);
  }
  // shown again in place (zoom, exposure, layer and compare kept); a changed reference is fetched again too
  if (current && files.some((f) => f.id === current)) queueMicrotask(() => deps.refreshShown());
  const reference = deps.store.getState().compare.reference;
  if (reference && files.some((f) => f.id === reference.file.id)) queueMicrotask(() => deps.resyncReference());
  // a visible cell shows the version before until its new thumbnail comes
  const visible = deps.visibleFileIds();
  if (files.some((f) => visible.includes(f.id))) deps.requestVisibleThumbnails();
}

/** A folder's trouble in the status line; a folder that fell back to polling says so in the folder bar too. */
function folderError(folderId: string, message: string, deps: FolderEventDeps): void {
  deps.actions.setUi({ status: message });
  const polling = pollingMessage(message);
  const folders = deps.store.getState().library.folders;
  if (polling && folders.some((f) => f.id === folderId))
    deps.actions.setFolders(folders.map((f) => (f.id === folderId ? { ...f, polling } : f)));
}
