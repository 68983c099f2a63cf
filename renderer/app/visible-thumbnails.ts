// The grid's visible files: told to the host (what to make first) and their missing thumbnails asked for, at a bounded rate.
import type { FileEntry, HostApi } from '../host-client/api-types.js';
import { VisibleBatch } from '../loading/visible-batch.js';
import { ScrollGate } from '../loading/scroll-gate.js';
import type { ForegroundLoad } from '../loading/foreground-load.js';
import type { AppStore } from '../state/store.js';
import type { ThumbnailRequests } from './thumbnail-requests.js';

export class VisibleThumbnails {
  /** What the grid shows now. */
  fileIds: string[] = [];
  /** A fast scroll's visible sets, merged: the host hears the latest at most once per interval (visible-batch.ts). */
  private readonly batch = new VisibleBatch((fileIds) => this.send(fileIds));
  /** Nothing is asked while the sets turn over faster than a few a second (scroll-gate.ts); the latest once it slows. */
  private readonly gate = new ScrollGate((fileIds) => this.batch.push(fileIds));
  private filesById: { files: readonly FileEntry[]; byId: Map<string, FileEntry> } | null = null;

  constructor(
    private readonly api: Pick<HostApi, 'setVisible'>,
    private readonly store: AppStore,
    private readonly thumbs: ThumbnailRequests,
    private readonly foreground: ForegroundLoad,
  ) {}

  /** The grid says which files are visible: ask for the thumbnails the engine does not have yet. */
  request(fileIds: string[]): void {
    this.fileIds = fileIds;
    // asked for again when the picked image's first frame is on screen (the controller's subscription)
    if (this.foreground.busy) return;
    this.gate.push(fileIds);
  }

  /** The same files again (a picked image's first frame landed, a device came back, the listing changed). */
  again(): void {
    this.request(this.fileIds);
  }

  private send(fileIds: string[]): void {
    if (this.foreground.busy) return;
    const s = this.store.getState();
    this.api.setVisible(fileIds, s.image.currentFileId);
    this.thumbs.request(fileIds.flatMap((id) => this.fileById(s.library.files).get(id) ?? []));
  }

  /** The listing by id, made again only when the listing changes: the grid asks on every scroll step. */
  private fileById(files: readonly FileEntry[]): Map<string, FileEntry> {
    if (this.filesById?.files !== files) this.filesById = { files, byId: new Map(files.map((f) => [f.id, f])) };
    return this.filesById.byId;
  }
}
