// The host's folder events into the store and the parts they concern: files added, changed or removed, thumbnail
// progress, a folder's trouble (polling included) and its sequences listed again.
import type { FileEntry, HostApi, HostEvent } from '../host-client/api-types.js';
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
}

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
